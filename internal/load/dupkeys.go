package load

import (
	"bytes"
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

// dupKey is a key that occurs more than once in one mapping, or, with
// written set, keys written differently that are one key once converted to
// JSON (1 and "1", 1 and 1.0, true and yes).
type dupKey struct {
	parent  string // path of the mapping, "" for the object itself
	key     string // the key (written: its JSON member name)
	lines   []int  // lines (relative to the node's text) of each occurrence
	written []string
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

// markNonSpecificKeys restores, on the mapping keys of n parsed from text,
// the non-specific tag "!" that yaml v3 drops: it resolves "! 0" as if
// untagged, an integer, where yaml v2 (the reference) keeps the string "0".
// A key so written is marked with Tag "!" and TaggedStyle, as keyID,
// jsonKey and writtenKey read it.
func markNonSpecificKeys(n *yaml3.Node, text []byte) {
	if !bytes.Contains(text, []byte("! ")) && !bytes.Contains(text, []byte("!\t")) {
		return
	}
	lineStarts := []int{0}
	for i, c := range text {
		if c == '\n' {
			lineStarts = append(lineStarts, i+1)
		}
	}
	var walk func(n *yaml3.Node, depth int)
	walk = func(n *yaml3.Node, depth int) {
		if n == nil || depth > maxDupDepth {
			return
		}
		for i, c := range n.Content {
			if n.Kind == yaml3.MappingNode && i%2 == 0 && c != nil && c.Kind == yaml3.ScalarNode && c.Line >= 1 && c.Line <= len(lineStarts) {
				// Columns count characters; keys are mostly after ASCII.
				if off := lineStarts[c.Line-1] + c.Column - 1; off+1 < len(text) && text[off] == '!' && (text[off+1] == ' ' || text[off+1] == '\t') {
					c.Tag, c.Style = "!", c.Style|yaml3.TaggedStyle
				}
			}
			walk(c, depth+1)
		}
	}
	walk(n, 0)
}

// keyID identifies a scalar key the way it is compared once decoded: by its
// resolved tag and value. Merge keys and non-scalar keys have no ID.
func keyID(k *yaml3.Node) (string, bool) {
	if k == nil || k.Kind != yaml3.ScalarNode {
		return "", false
	}
	if k.Style&yaml3.TaggedStyle != 0 && k.Tag == "!" {
		// The non-specific tag: yaml v3 resolves the value as if untagged,
		// yaml v2 (the reference) keeps it a string, as jsonKey does.
		return k.Value, true
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

// mapping records the duplicate keys of the mapping n, and its keys that
// are one once converted to JSON.
func (f *dupFinder) mapping(n *yaml3.Node) {
	m := len(n.Content) / 2
	if m < 2 {
		return
	}
	f.collisions(n)
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

// collisions records the keys of the mapping n that yaml v2 decodes to
// different Go values but that are one JSON member name (1 and "1", 1 and
// 1.0, true and "true"): sigs.k8s.io/yaml converts a Go map of them, and
// which value it keeps depends on the order in which it visits them, which
// Go leaves at random. (Keys yaml v2 decodes to one value, such as 1 and
// 0x1, or yes and true, keep the last value, as duplicates do.)
func (f *dupFinder) collisions(n *yaml3.Node) {
	type group struct {
		keys  []*yaml3.Node
		ids   map[string]bool
		index int // in f.out, or -1
	}
	var groups map[string]*group
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		name, id, ok := jsonKey(k, i)
		if !ok {
			continue
		}
		if groups == nil {
			groups = map[string]*group{}
		}
		g := groups[name]
		if g == nil {
			g = &group{ids: map[string]bool{}, index: -1}
			groups[name] = g
		}
		g.keys = append(g.keys, k)
		g.ids[id] = true
		switch {
		case len(g.ids) < 2:
		case g.index < 0:
			g.index = len(f.out)
			d := dupKey{parent: string(f.path), key: name}
			for _, gk := range g.keys {
				d.lines = append(d.lines, gk.Line)
				d.written = append(d.written, writtenKey(gk))
			}
			f.out = append(f.out, d)
		default:
			f.out[g.index].lines = append(f.out[g.index].lines, k.Line)
			f.out[g.index].written = append(f.out[g.index].written, writtenKey(k))
		}
	}
}

// jsonKey is the JSON member name sigs.k8s.io/yaml makes of the scalar key
// k, the i-th node of its mapping, and id the Go value yaml v2 decodes it
// to. Plain keys are resolved by yaml v2's rules (resolveV2); quoted keys,
// !!str keys and keys with a tag yaml v2 does not resolve (a local "!x",
// "!", a URI) are their text; !!int, !!float and !!bool keys are resolved
// as plain ones, and have no name when the value is not one (yaml v2 then
// fails, and there is no JSON). Other keys (!!null, !!timestamp, !!binary,
// merge keys, collections) have none either.
func jsonKey(k *yaml3.Node, i int) (name, id string, ok bool) {
	if k == nil || k.Kind != yaml3.ScalarNode {
		return "", "", false
	}
	if k.Style&yaml3.TaggedStyle != 0 {
		tag := strings.TrimPrefix(k.Tag, "tag:yaml.org,2002:")
		if tag != k.Tag {
			tag = "!!" + tag
		}
		var want v2Kind
		switch {
		case tag == "!!str":
			return k.Value, "s" + k.Value, true
		case tag == "!!int":
			want = v2Int
		case tag == "!!float":
			want = v2Float
		case tag == "!!bool":
			want = v2Bool
		case v2OwnTags[tag]:
			return "", "", false
		default: // a local tag, or a global one yaml v2 does not know: the scalar as written
			return k.Value, "s" + k.Value, true
		}
		v := resolveV2(k.Value)
		if want == v2Float && v.kind == v2Int {
			v = v2Value{kind: v2Float, f: float64(v.i)}
		}
		if v.kind != want {
			return "", "", false
		}
		return v2KeyName(v, k.Value, i)
	}
	if k.Style&(yaml3.DoubleQuotedStyle|yaml3.SingleQuotedStyle|yaml3.LiteralStyle|yaml3.FoldedStyle) != 0 {
		return k.Value, "s" + k.Value, true
	}
	return v2KeyName(resolveV2(k.Value), k.Value, i)
}

// v2OwnTags are the tags of the YAML types yaml v2 knows, but !!str,
// !!int, !!float and !!bool: a key so tagged has no JSON name (jsonKey).
var v2OwnTags = map[string]bool{"!!null": true, "!!timestamp": true, "!!binary": true, "!!merge": true,
	"!!map": true, "!!seq": true, "!!set": true, "!!omap": true, "!!pairs": true, "!!value": true, "!!yaml": true}

// v2KeyName is the JSON member name and Go value (see jsonKey) of a key
// yaml v2 resolved to v from raw.
func v2KeyName(v v2Value, raw string, i int) (name, id string, ok bool) {
	switch v.kind {
	case v2String:
		return raw, "s" + raw, true
	case v2Bool:
		return v2Name(v), "b" + v2Name(v), true
	case v2Int:
		return v2Name(v), "i" + v2Name(v), true
	case v2Float:
		if v.f != v.f {
			return v2Name(v), "n" + strconv.Itoa(i), true // NaN: a Go map key unequal to any other
		}
		return v2Name(v), "f" + strconv.FormatFloat(v.f, 'g', -1, 64), true
	}
	return "", "", false
}

// writtenKey is the key k as written: with its tag, quoted when it was.
func writtenKey(k *yaml3.Node) string {
	v := k.Value
	switch {
	case k.Style&yaml3.DoubleQuotedStyle != 0:
		v = strconv.Quote(k.Value)
	case k.Style&yaml3.SingleQuotedStyle != 0:
		v = "'" + strings.ReplaceAll(k.Value, "'", "''") + "'"
	}
	if k.Style&yaml3.TaggedStyle != 0 {
		v = k.Tag + " " + v
	}
	return v
}

// joinWritten renders "a and b", "a, b and c".
func joinWritten(keys []string) string {
	if len(keys) < 2 {
		return strings.Join(keys, "")
	}
	return strings.Join(keys[:len(keys)-1], ", ") + " and " + keys[len(keys)-1]
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
// for the first of them. Keys that are one once converted to JSON are an
// error whatever Strict says; random then says the JSON made of o holds one
// of their values at random.
func (d *docSrc) duplicates(o *obj, isList bool) (warns []Warning, err *Error, random bool) {
	n := o.getNode(d)
	if n == nil {
		return nil, nil, false
	}
	dups := findDups(n, isList)
	if len(dups) == 0 {
		return nil, nil, false
	}
	for _, dk := range dups {
		lines := make([]int, len(dk.lines))
		for i, l := range dk.lines {
			lines[i] = d.lineBase + l - 1
		}
		last := lines[len(lines)-1]
		if dk.written != nil {
			// Whatever Strict says: kubectl itself cannot say which value
			// the cluster gets.
			return nil, &Error{Line: last, Field: dk.parent, Msg: fmt.Sprintf(
				"keys %s (%s) are one key %q once converted to JSON: kubectl sends one of their values, at random; write the key once",
				joinWritten(dk.written), dupLines(lines), dk.key)}, true
		}
		what := fmt.Sprintf("duplicate key %q", dk.key)
		tail := fmt.Sprintf(" (%s): kubectl keeps the last value", dupLines(lines))
		if dk.parent == "" && !o.isItem && (dk.key == "apiVersion" || dk.key == "kind") {
			tail += `; two documents were probably concatenated without a "---" separator`
		}
		if d.stream.opts.Strict {
			return nil, &Error{Line: last, Field: dk.parent, Msg: what + tail}, false
		}
		if dk.parent != "" {
			what += " in " + dk.parent
		}
		warns = append(warns, Warning{Line: last, Msg: what + tail})
	}
	return warns, nil, false
}
