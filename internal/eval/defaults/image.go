package defaults

import "strings"

// imageTag is the tag kubelet's parsers.ParseImageName gives an image
// reference, which decides the default imagePullPolicy: "latest" for a
// reference with neither tag nor digest, "" for a digest without a tag and for
// anything that is not a reference at all (the defaulting ignores the error).
//
// A reference is read as the distribution library's ParseNormalizedNamed
// reads it (VAL-10): a 64-digit hex identifier is refused; the first
// path element is a registry when it is localhost, contains '.' or ':', or
// has an upper-case letter, and Docker Hub's otherwise ("nginx" is
// docker.io/library/nginx); the repository path must be lower case; then the
// whole, registry/path[:tag][@digest], must follow the reference grammar:
// path components of lower-case letters and digits joined by '.', '_', '__'
// or dashes, a registry of DNS-like labels or a bracketed IPv6 address with
// an optional port, a tag of at most 128 word characters, dots and dashes
// (not starting with either), a digest of a supported algorithm (sha256,
// sha384, sha512) and lower-case hex of its size, and a path of at most 255
// bytes.
func imageTag(image string) string {
	tag, digest, ok := parseImageReference(image)
	switch {
	case !ok:
		return ""
	case tag == "" && !digest:
		return "latest"
	}
	return tag
}

// parseImageReference returns the tag and whether there is a digest, or
// false when image is not a reference. It reads the reference in place:
// where the normalization would build "docker.io/library/<name>", only the
// path's validity and length matter, and "library/" is valid.
func parseImageReference(image string) (tag string, digest, ok bool) {
	if isHex(image, 64) {
		return "", false, false // an image ID, not a name
	}
	name := image
	if i := strings.IndexByte(name, '@'); i >= 0 {
		if !validDigest(name[i+1:]) {
			return "", false, false
		}
		name, digest = name[:i], true
	}
	if i := strings.LastIndexByte(name, ':'); i > strings.LastIndexByte(name, '/') {
		name, tag = name[:i], name[i+1:]
		if !validTag(tag) {
			return "", false, false
		}
	}
	// The normalization's split into registry and the rest (Docker Hub's
	// for a familiar name, library/ for its official images).
	first, rest, found := strings.Cut(name, "/")
	hub := true // the registry is docker.io, and name (or rest) the path
	switch {
	case !found:
		rest = name
	case first == "index.docker.io", first == "docker.io":
	case first == "localhost", strings.ContainsAny(first, ".:"), strings.ToLower(first) != first:
		hub = false
	default:
		rest = name
	}
	if strings.ToLower(rest) != rest {
		return "", false, false // the repository path must be lower case
	}
	if hub {
		library := 0
		if !strings.Contains(rest, "/") {
			library = len("library/")
		}
		if !validPath(rest) || library+len(rest) > 255 {
			return "", false, false
		}
		return tag, digest, true
	}
	path, ok := repositoryPath(name)
	if !ok || len(path) > 255 {
		return "", false, false
	}
	return tag, digest, true
}

// repositoryPath reads name as an optional registry and port, then a path,
// and returns the path; the registry is taken whenever the first element
// can be one, as the grammar's leftmost match takes it.
func repositoryPath(name string) (string, bool) {
	if first, rest, found := strings.Cut(name, "/"); found && validRegistry(first) && validPath(rest) {
		return rest, true
	}
	if validPath(name) {
		return name, true
	}
	return "", false
}

// validPath: path components separated by '/'.
func validPath(s string) bool {
	for {
		c, rest, more := strings.Cut(s, "/")
		if !validPathComponent(c) {
			return false
		}
		if !more {
			return true
		}
		s = rest
	}
}

// validPathComponent: runs of [a-z0-9] joined by '.', '_', '__' or dashes.
func validPathComponent(c string) bool {
	i := 0
	for {
		start := i
		for i < len(c) && (c[i] >= 'a' && c[i] <= 'z' || c[i] >= '0' && c[i] <= '9') {
			i++
		}
		if i == start {
			return false
		}
		if i == len(c) {
			return true
		}
		switch {
		case c[i] == '.':
			i++
		case c[i] == '_':
			i++
			if i < len(c) && c[i] == '_' {
				i++
			}
		case c[i] == '-':
			for i < len(c) && c[i] == '-' {
				i++
			}
		default:
			return false
		}
	}
}

// validRegistry: a host (DNS-like labels, or an IPv6 address in brackets)
// and an optional decimal port.
func validRegistry(s string) bool {
	host, port := s, ""
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return false
		}
		host, port = s[:end+1], s[end+1:]
		if len(host) < 3 || strings.Trim(host[1:len(host)-1], "0123456789abcdefABCDEF:") != "" {
			return false
		}
	} else {
		if i := strings.IndexByte(s, ':'); i >= 0 {
			host, port = s[:i], s[i:]
		}
		for rest, more := host, true; more; {
			var label string
			label, rest, more = strings.Cut(rest, ".")
			if !validDomainLabel(label) {
				return false
			}
		}
	}
	if port != "" {
		return len(port) > 1 && port[0] == ':' && strings.Trim(port[1:], "0123456789") == ""
	}
	return true
}

// validDomainLabel: letters and digits, dashes inside.
func validDomainLabel(l string) bool {
	if l == "" || l[0] == '-' || l[len(l)-1] == '-' {
		return false
	}
	for i := 0; i < len(l); i++ {
		if !isAlnum(l[i]) && l[i] != '-' {
			return false
		}
	}
	return true
}

// validTag: a word character, then at most 127 word characters, dots and
// dashes.
func validTag(t string) bool {
	if t == "" || len(t) > 128 || !isWord(t[0]) {
		return false
	}
	for i := 1; i < len(t); i++ {
		if !isWord(t[i]) && t[i] != '.' && t[i] != '-' {
			return false
		}
	}
	return true
}

// validDigest: the grammar's algorithm:hex (at least 32 digits of either
// case), then go-digest's check that the algorithm is one it has and the
// hex is its size, in lower case.
func validDigest(d string) bool {
	alg, hex, found := strings.Cut(d, ":")
	if !found || !validAlgorithm(alg) || len(hex) < 32 || strings.Trim(hex, "0123456789abcdefABCDEF") != "" {
		return false
	}
	size := map[string]int{"sha256": 64, "sha384": 96, "sha512": 128}[alg]
	return size > 0 && isHex(hex, size)
}

// validAlgorithm: letter-led alphanumeric parts joined by '-', '_', '+' or
// '.'.
func validAlgorithm(a string) bool {
	start := true
	for i := 0; i < len(a); i++ {
		c := a[i]
		switch {
		case start:
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
				return false
			}
			start = false
		case c == '-' || c == '_' || c == '+' || c == '.':
			start = true
		case !isAlnum(c):
			return false
		}
	}
	return a != "" && !start
}

// isHex: exactly n lower-case hex digits.
func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !(s[i] >= '0' && s[i] <= '9' || s[i] >= 'a' && s[i] <= 'f') {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isWord(c byte) bool { return isAlnum(c) || c == '_' }
