// Package readme reads the runnable examples out of the README, for the
// tests that hold the README to what limitcheck prints (cmd/limitcheck
// against stand-ins, e2e/ against a real control plane).
package readme

import "strings"

// Example is one command of a ```console block and the output the block
// shows after it.
type Example struct {
	Line string   // the "$ ..." line
	Args []string // the words after the last one naming the limitcheck binary
	Want string
}

// Examples returns the limitcheck commands of md's console blocks, in order;
// other commands there (go install, kubectl) are not examples.
func Examples(md string) []Example {
	var out []Example
	inBlock := false
	var cur *Example
	flush := func() {
		if cur != nil {
			out = append(out, *cur)
			cur = nil
		}
	}
	for _, line := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(line, "```console"):
			inBlock = true
		case strings.HasPrefix(line, "```") && inBlock:
			flush()
			inBlock = false
		case inBlock && strings.HasPrefix(line, "$ "):
			flush()
			words := strings.Fields(line[2:])
			for i := len(words) - 1; i >= 0; i-- {
				if strings.HasSuffix(strings.Trim(words[i], `"`), "limitcheck") {
					cur = &Example{Line: line, Args: words[i+1:]}
					break
				}
			}
		case inBlock && cur != nil:
			cur.Want += line + "\n"
		}
	}
	return out
}

// Section returns the body of md's "## title" section, up to the next
// second-level heading.
func Section(md, title string) (string, bool) {
	_, section, ok := strings.Cut(md, "\n## "+title+"\n")
	section, _, _ = strings.Cut(section, "\n## ")
	return section, ok
}
