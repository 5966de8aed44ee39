package load

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"

	yaml3 "go.yaml.in/yaml/v3"
)

// Field locations. All of this runs on the error path (and for List items)
// only.

const maxAliasHops = 100

// resolveAlias follows alias nodes to the node they refer to.
func resolveAlias(n *yaml3.Node) *yaml3.Node {
	for i := 0; n != nil && n.Kind == yaml3.AliasNode && i < maxAliasHops; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml3.AliasNode {
		return nil
	}
	return n
}

// mappingValue returns the value node of key in the mapping n, or nil.
func mappingValue(n *yaml3.Node, key string) *yaml3.Node {
	k, v := findKey(resolveAlias(n), key, false)
	if k == nil {
		return nil
	}
	return resolveAlias(v)
}

// findKey finds the entry of mapping m whose key equals key (or, with prefix,
// whose key is the longest key that is a path prefix of key). Later entries
// win, as they do when YAML/JSON is decoded. Merge keys ("<<") are followed.
func findKey(m *yaml3.Node, key string, prefix bool) (k, v *yaml3.Node) {
	budget := maxMergeVisits
	return findKeyIn(m, key, prefix, &budget)
}

// maxMergeVisits bounds the mappings visited through merge keys by one
// lookup: merges of merges can otherwise blow up exponentially.
const maxMergeVisits = 1000

func findKeyIn(m *yaml3.Node, key string, prefix bool, budget *int) (k, v *yaml3.Node) {
	if m == nil || m.Kind != yaml3.MappingNode || *budget <= 0 {
		return nil, nil
	}
	*budget--
	best := -1
	for i := 0; i+1 < len(m.Content); i += 2 {
		kn := m.Content[i]
		if kn == nil || kn.Kind != yaml3.ScalarNode {
			continue
		}
		if kn.Value == key || (prefix && isPathPrefix(key, kn.Value)) {
			if best < 0 || len(kn.Value) >= len(k.Value) {
				best = i
				k, v = kn, m.Content[i+1]
			}
		}
	}
	if k != nil && k.Value == key {
		return k, v
	}
	// Keys from merged mappings lose to the mapping's own keys.
	for i := 0; i+1 < len(m.Content); i += 2 {
		kn := m.Content[i]
		if kn == nil || kn.Kind != yaml3.ScalarNode || kn.Value != "<<" || kn.Tag == "!!str" {
			continue
		}
		src := resolveAlias(m.Content[i+1])
		var srcs []*yaml3.Node
		switch {
		case src == nil:
		case src.Kind == yaml3.MappingNode:
			srcs = []*yaml3.Node{src}
		case src.Kind == yaml3.SequenceNode:
			srcs = src.Content
		}
		for _, s := range srcs {
			mk, mv := findKeyIn(resolveAlias(s), key, prefix, budget)
			if mk != nil && (k == nil || len(mk.Value) > len(k.Value)) {
				k, v = mk, mv
			}
		}
	}
	return k, v
}

// isPathPrefix reports whether key is a whole leading segment of the path
// rest: rest == key, or rest continues with '.' or '[' after key.
func isPathPrefix(rest, key string) bool {
	if !strings.HasPrefix(rest, key) || (key == "" && rest != "") {
		return false
	}
	return len(rest) == len(key) || rest[len(key)] == '.' || rest[len(key)] == '['
}

// locate follows a field path like "spec.containers[0].resources.limits.cpu"
// from node n and returns the line (relative to n's text) of the last
// element found: the key node for mapping entries, the item node for sequence
// entries. Map keys may themselves contain dots ("nvidia.com/gpu"); the
// longest matching key wins. ok is false if the path could only be followed
// part of the way. key is the last mapping key matched.
func locate(n *yaml3.Node, path string) (line int, key string, ok bool) {
	line, key, _, ok = locateNode(n, path)
	return line, key, ok
}

// locateNode is locate that also returns the node the path names (nil when
// it is not found).
func locateNode(n *yaml3.Node, path string) (line int, key string, node *yaml3.Node, ok bool) {
	cur := resolveAlias(n)
	if cur == nil {
		return 0, "", nil, false
	}
	line = cur.Line
	rest := path
	for steps := 0; rest != "" && steps <= 10000; steps++ {
		if rest[0] == '[' && cur.Kind == yaml3.MappingNode {
			// A map's key in brackets (checker.pushMapKey): the longest
			// key that rest gives whole, up to a closing bracket.
			var k, v *yaml3.Node
			for i := 0; i+1 < len(cur.Content); i += 2 {
				kn := cur.Content[i]
				if kn != nil && kn.Kind == yaml3.ScalarNode && strings.HasPrefix(rest[1:], kn.Value) &&
					strings.HasPrefix(rest[1+len(kn.Value):], "]") && (k == nil || len(kn.Value) > len(k.Value)) {
					k, v = kn, cur.Content[i+1]
				}
			}
			if k == nil {
				return line, key, nil, false
			}
			key, line = k.Value, k.Line
			rest = rest[len(k.Value)+2:]
			if cur = resolveAlias(v); cur == nil {
				return line, key, nil, rest == ""
			}
			continue
		}
		if rest[0] == '[' {
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return line, key, nil, false
			}
			i, err := strconv.Atoi(rest[1:end])
			if err != nil || cur.Kind != yaml3.SequenceNode || i < 0 || i >= len(cur.Content) {
				return line, key, nil, false
			}
			cur = resolveAlias(cur.Content[i])
			if cur == nil {
				return line, key, nil, false
			}
			line = cur.Line
			rest = rest[end+1:]
			continue
		}
		if rest[0] == '.' && cur.Kind == yaml3.MappingNode {
			if k, _ := findKey(cur, rest, true); k == nil {
				rest = rest[1:] // a separator, not part of a key
			}
		}
		k, v := findKey(cur, rest, true)
		if k == nil {
			return line, key, nil, false
		}
		key = k.Value
		line = k.Line
		rest = rest[len(k.Value):]
		cur = resolveAlias(v)
		if cur == nil {
			return line, key, nil, rest == ""
		}
	}
	if rest != "" {
		return line, key, nil, false
	}
	return line, key, cur, true
}

// yaml syntax errors reported by go.yaml.in/yaml/v2 (used by
// sigs.k8s.io/yaml) carry "line N" that is 1-based for scanner errors but
// 0-based for parser errors; these are the parser's messages.
var yamlParserProblems = []string{
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"did not find expected '-' indicator",
	"did not find expected <document start>",
	"did not find expected <stream-start>",
	"did not find expected key",
	"did not find expected node content",
	"found duplicate %TAG directive",
	"found duplicate %YAML directive",
	"found incompatible YAML document",
	"found undefined tag handle",
}

// yamlErrorLine extracts the line (1-based, relative to text) and message of
// an error from sigs.k8s.io/yaml.YAMLToJSON(text). line is 0 if unknown.
func yamlErrorLine(err error, text []byte) (line int, msg string) {
	s := err.Error()
	rest, isYAML := strings.CutPrefix(s, "yaml: ")
	if !isYAML {
		return 0, "cannot convert YAML to JSON: " + s
	}
	msg = rest
	if r, ok := strings.CutPrefix(rest, "line "); ok {
		if num, m, ok := strings.Cut(r, ": "); ok {
			if n, err := strconv.Atoi(num); err == nil && n > 0 {
				line, msg = n, m
				for _, p := range yamlParserProblems {
					if m == p {
						line++
						break
					}
				}
			}
		}
	} else {
		for _, p := range yamlParserProblems {
			if rest == p {
				line = 1 // the parser omits "line 0"
				break
			}
		}
		if line == 0 {
			line = badByteLine(text)
		}
	}
	if line > 0 {
		if last := lastContentLine(text); line > last {
			line = last // errors at the end of input point past it
		}
	}
	return line, "invalid YAML: " + msg
}

// badByteLine returns the line of the first invalid UTF-8 sequence or
// disallowed control character in text (errors the YAML reader reports
// without a line), or 0.
func badByteLine(text []byte) int {
	line := 1
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '\n':
				line++
			case c == '\r':
				if i+1 >= len(text) || text[i+1] != '\n' {
					line++
				}
			case c == '\t':
			case c < 0x20 || c == 0x7f:
				return line
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(text[i:])
		if r == utf8.RuneError && size <= 1 {
			return line
		}
		i += size
	}
	return 0
}

// lastContentLine returns the number of the last non-blank line of text
// (1-based), at least 1.
func lastContentLine(text []byte) int {
	hasCR := bytes.IndexByte(text, '\r') >= 0
	last, n := 1, 1
	for off := 0; off < len(text); n++ {
		l := nextLine(text, off, hasCR)
		for _, c := range text[l.start:l.end] {
			if c != ' ' && c != '\t' {
				last = n
				break
			}
		}
		off = l.next
	}
	return last
}
