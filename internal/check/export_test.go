package check

// ReadingEverythingFirst runs f with first looks that convert and
// header-scan every document, leaving none unread.
func ReadingEverythingFirst(f func()) {
	skim = false
	defer func() { skim = true }()
	f()
}

// Unread is unread, for tests.
var Unread = unread
