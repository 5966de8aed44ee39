package load

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	yaml3 "go.yaml.in/yaml/v3"
)

// Duplicate mapping keys. sigs.k8s.io/yaml (and so kubectl) keeps the last
// value of a key given twice in one mapping, silently. The strict YAML
// conversion tells cheaply whether a document may have such keys (see
// yamlToJSON); only then are its yaml v3 nodes, which field lines use too,
// parsed and searched.

// dupKey is a key that occurs more than once in one mapping.
type dupKey struct {
	parent string // path of the mapping, "" for the object itself
	key    string
	lines  []int // lines (relative to the node's text) of each occurrence
}

type dupFinder struct {
	path []byte
	out  []dupKey
}

// findDups returns the keys that occur more than once in a mapping of n, in
// the order of their second occurrence. Aliases are not followed (the
// anchored node is searched where it is defined) and keys merged with "<<"
// are not duplicates. With skipItems, the values of n's own "items" keys are
// not searched: a List's items are objects of their own.
func findDups(n *yaml3.Node, skipItems bool) []dupKey {
	f := &dupFinder{}
	f.node(n, skipItems, 0)
	sort.SliceStable(f.out, func(i, j int) bool { return f.out[i].lines[1] < f.out[j].lines[1] })
	return f.out
}

const maxDupDepth = 10000

// keyID identifies a scalar key the way it is compared once decoded: by its
// resolved tag and value. Merge keys and non-scalar keys have no ID.
func keyID(k *yaml3.Node) (string, bool) {
	if k == nil || k.Kind != yaml3.ScalarNode {
		return "", false
	}
	switch tag := k.ShortTag(); tag {
	case "!!str":
		return k.Value, true
	case "!!merge":
		return "", false
	default:
		return tag + "\x00" + k.Value, true
	}
}

func (f *dupFinder) node(n *yaml3.Node, skipItems bool, depth int) {
	if n == nil || depth > maxDupDepth {
		return
	}
	switch n.Kind {
	case yaml3.DocumentNode:
		for _, c := range n.Content {
			f.node(c, skipItems, depth+1)
		}
	case yaml3.SequenceNode:
		for i, c := range n.Content {
			if c == nil || c.Kind == yaml3.ScalarNode || c.Kind == yaml3.AliasNode {
				continue
			}
			l := len(f.path)
			f.path = append(f.path, '[')
			f.path = strconv.AppendInt(f.path, int64(i), 10)
			f.path = append(f.path, ']')
			f.node(c, false, depth+1)
			f.path = f.path[:l]
		}
	case yaml3.MappingNode:
		f.mapping(n)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if v == nil || v.Kind == yaml3.ScalarNode || v.Kind == yaml3.AliasNode {
				continue
			}
			if skipItems && k != nil && k.Kind == yaml3.ScalarNode && k.Value == "items" {
				continue
			}
			l := len(f.path)
			if l > 0 {
				f.path = append(f.path, '.')
			}
			if k != nil {
				f.path = append(f.path, k.Value...)
			}
			f.node(v, false, depth+1)
			f.path = f.path[:l]
		}
	}
}

// mapping records the duplicate keys of the mapping n.
func (f *dupFinder) mapping(n *yaml3.Node) {
	m := len(n.Content) / 2
	if m < 2 {
		return
	}
	var seen map[string]int // key ID -> index of its first occurrence
	if m > 8 {
		seen = make(map[string]int, m)
	}
	var found map[int]int // index of first occurrence -> index in f.out
	for i := 0; i < m; i++ {
		id, ok := keyID(n.Content[2*i])
		if !ok {
			continue
		}
		first := -1
		if seen != nil {
			if j, ok := seen[id]; ok {
				first = j
			} else {
				seen[id] = i
			}
		} else {
			for j := 0; j < i; j++ {
				if jd, ok := keyID(n.Content[2*j]); ok && jd == id {
					first = j
					break
				}
			}
		}
		if first < 0 {
			continue
		}
		line := n.Content[2*i].Line
		if k, ok := found[first]; ok {
			f.out[k].lines = append(f.out[k].lines, line)
			continue
		}
		if found == nil {
			found = map[int]int{}
		}
		found[first] = len(f.out)
		f.out = append(f.out, dupKey{
			parent: string(f.path),
			key:    n.Content[2*first].Value,
			lines:  []int{n.Content[2*first].Line, line},
		})
	}
}

// dupLines renders "line 3 and line 9", "line 3, line 5 and line 9", or
// "twice on line 3" when all are on one line.
func dupLines(lines []int) string {
	same := true
	for _, l := range lines {
		same = same && l == lines[0]
	}
	if same {
		times := "twice"
		if len(lines) > 2 {
			times = strconv.Itoa(len(lines)) + " times"
		}
		return times + " on line " + strconv.Itoa(lines[0])
	}
	var b strings.Builder
	for i, l := range lines {
		switch {
		case i == 0:
		case i == len(lines)-1:
			b.WriteString(" and ")
		default:
			b.WriteString(", ")
		}
		b.WriteString("line ")
		b.WriteString(strconv.Itoa(l))
	}
	return b.String()
}

// duplicates looks for duplicate keys in o (without a List's items when
// isList) and returns them as warnings, or with Options.Strict as an error
// for the first of them.
func (d *docSrc) duplicates(o *obj, isList bool) ([]Warning, *Error) {
	n := o.getNode(d)
	if n == nil {
		return nil, nil
	}
	dups := findDups(n, isList)
	if len(dups) == 0 {
		return nil, nil
	}
	var warns []Warning
	for _, dk := range dups {
		lines := make([]int, len(dk.lines))
		for i, l := range dk.lines {
			lines[i] = d.lineBase + l - 1
		}
		last := lines[len(lines)-1]
		what := fmt.Sprintf("duplicate key %q", dk.key)
		tail := fmt.Sprintf(" (%s): kubectl keeps the last value", dupLines(lines))
		if dk.parent == "" && !o.isItem && (dk.key == "apiVersion" || dk.key == "kind") {
			tail += `; two documents were probably concatenated without a "---" separator`
		}
		if d.stream.opts.Strict {
			return nil, &Error{Line: last, Field: dk.parent, Msg: what + tail}
		}
		if dk.parent != "" {
			what += " in " + dk.parent
		}
		warns = append(warns, Warning{Line: last, Msg: what + tail})
	}
	return warns, nil
}
