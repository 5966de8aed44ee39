package load

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/limitcheck/limitcheck/internal/jsonstr"
)

// A faster YAML to JSON conversion. The reference is sigs.k8s.io/yaml's
// YAMLToJSON (what kubectl uses): go.yaml.in/yaml/v2 decodes the document into
// interface{} values, resolving plain scalars by YAML 1.1 rules, non-string
// mapping keys are turned into strings and encoding/json marshals the result
// (keys sorted, <, > and & escaped).
//
// fastYAMLToJSON reads the subset of YAML that Kubernetes manifests are
// mostly written in and writes the JSON bytes directly: block mappings and
// sequences indented with spaces, plain, single- and double-quoted scalars
// (over several lines too: plainLines, quotedLines), literal block scalars,
// one-line flow mappings and sequences, and comments. It resolves
// plain scalars as yaml v2 does. For anything else it declines (ok false)
// and the caller runs the reference: tabs, carriage returns, control
// characters, U+0085, U+2028, U+2029 and U+FEFF anywhere in the text;
// block scalars but literal ones "|" and "|-" of a simple form (folded
// ones ">"); flow collections over several lines; anchors, aliases, tags, "?" keys and merge
// keys "<<"; directives and document markers; two keys of one mapping that
// are the same once turned into strings (duplicates, which the strict
// reference rejects, or 1 and "1"); null keys and integer keys above the
// int64 range (the reference fails); .inf and .nan values (encoding/json
// fails); documents that are a scalar or a flow collection; any syntax it
// does not know to be valid. FuzzYAMLToJSON checks on arbitrary input that it
// gives exactly the reference's bytes whenever it does not decline. See
// IN-05 in docs/behaviour.md.

// maxFastDepth bounds the nesting the fast path follows (it recurses).
const maxFastDepth = 200

// maxFastKey is the longest key the fast path takes: the YAML scanner of
// the reference rejects "simple keys" longer than 1024 characters, in block
// and flow mappings.
const maxFastKey = 512

// fastYAMLToJSON converts one YAML document to JSON as sigs.k8s.io/yaml's
// YAMLToJSONStrict does, or returns ok false.
// renamed says whether a plain mapping key was read as a boolean or a
// number (yes, n, 0755), whose name in the JSON is not as written.
func fastYAMLToJSON(text []byte) (js []byte, renamed, ok bool) {
	p := fastParsers.Get().(*fastParser)
	defer p.release()
	p.text = text
	if !p.splitLines() || len(p.lines) == 0 {
		return nil, false, false
	}
	first := p.lines[0]
	if c := text[first.start+first.indent]; c == '[' || c == '{' {
		return nil, false, false
	}
	if !p.blockNode(first.indent, 0) || p.pos != len(p.lines) {
		return nil, false, false
	}
	// The document keeps its JSON: no spare capacity.
	return append(make([]byte, 0, len(p.buf)), p.buf...), p.renamed, true
}

// fastParsers keeps the scratch slices of parsers for reuse.
var fastParsers = sync.Pool{New: func() any { return new(fastParser) }}

// maxFastScratch is the largest scratch buffer kept for reuse.
const maxFastScratch = 1 << 20

func (p *fastParser) release() {
	if cap(p.buf) > maxFastScratch || cap(p.tmp) > maxFastScratch || cap(p.fold) > maxFastScratch || cap(p.lines) > maxFastScratch/16 {
		return
	}
	clear(p.ents[:cap(p.ents)]) // their keys share the text's bytes
	*p = fastParser{lines: p.lines[:0], buf: p.buf[:0], tmp: p.tmp[:0], fold: p.fold[:0], ents: p.ents[:0]}
	fastParsers.Put(p)
}

type fastLine struct {
	start, end int // the line without its line break
	indent     int // leading spaces
}

type fastParser struct {
	text  []byte
	lines []fastLine // lines with content: no blank or comment-only lines
	pos   int        // the current line
	buf   []byte     // JSON output
	tmp   []byte     // scratch for sorting mapping entries
	fold  []byte     // scratch for a plain scalar over several lines
	ents  []fastEntry
	// renamed: a plain key was read as a boolean or a number.
	renamed bool
}

// fastEntry is one entry of a mapping: its key and where its value's JSON
// is in buf.
type fastEntry struct {
	key        string
	start, end int
}

// splitLines finds the content lines, and fails on the bytes the fast path
// does not take and on document markers and directives.
func (p *fastParser) splitLines() bool {
	text := p.text
	for start := 0; start < len(text); {
		end := start
		for end < len(text) && text[end] == ' ' {
			end++
		}
		indent := -1
		if end < len(text) && text[end] != '\n' {
			indent = end - start
		}
		for ; end < len(text); end++ {
			end = skipPrintable(text, end)
			if end >= len(text) {
				break
			}
			c := text[end]
			if c == '\n' {
				break
			}
			if c >= utf8.RuneSelf {
				// Characters yaml v2 reads as printable and not as line
				// breaks (it takes U+0085, U+2028 and U+2029 for breaks).
				r, size := utf8.DecodeRune(text[end:])
				if r < 0xA0 || r == 0x2028 || r == 0x2029 || r >= 0xD800 && r < 0xE000 || r == 0xFEFF || r == 0xFFFE || r == 0xFFFF || r == utf8.RuneError {
					return false
				}
				end += size - 1
				continue
			}
			if c < 0x20 || c == 0x7f {
				return false
			}
		}
		if indent >= 0 {
			c := text[start+indent]
			switch {
			case indent == 0 && (c == '%' || end-start >= 3 && (string(text[start:start+3]) == "---" || string(text[start:start+3]) == "...")):
				return false
			case c != '#':
				p.lines = append(p.lines, fastLine{start, end, indent})
			}
		}
		start = end + 1
	}
	return true
}

// skipPrintable returns the index of the first word of eight bytes of text
// from i on that holds a byte other than printable ASCII (0x20 to 0x7e), or
// of the last incomplete word. A byte below 0x20 borrows into a high bit in
// x-0x20*ones, 0x7f carries into one in x+ones, and a byte from 0x80 up
// has its own: each test may flag another byte of the word, never a word
// without one.
func skipPrintable(text []byte, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(text); i += 8 {
		w := text[i : i+8]
		x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
			uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
		if (x|(x-0x20*ones)|(x+ones))&highs != 0 {
			break
		}
	}
	return i
}

// blockNode reads the block mapping or sequence starting on the current
// line, whose indentation is indent.
func (p *fastParser) blockNode(indent, depth int) bool {
	l := p.lines[p.pos]
	if isSeqEntry(p.text, l.start+l.indent, l.end) {
		return p.blockSeq(indent, depth)
	}
	return p.blockMap(indent, l.start+l.indent, depth)
}

// nodeBelow reads the value of a mapping key or sequence entry that starts
// on the current line, below it: a block collection, or a scalar or flow
// collection (inlineValue), in a collection indented by parent.
func (p *fastParser) nodeBelow(parent, depth int) bool {
	l := p.lines[p.pos]
	i := l.start + l.indent
	// A line without a colon holds no key; one with a colon is read as
	// a block collection (a scalar holding one is declined there).
	if bytes.IndexByte(p.text[i:l.end], ':') < 0 && !isSeqEntry(p.text, i, l.end) {
		return p.inlineValue(i, l.end, parent, depth)
	}
	return p.blockNode(l.indent, depth)
}

// isSeqEntry reports whether the text at i (up to end) starts with "-"
// followed by a space or the end of the line.
func isSeqEntry(text []byte, i, end int) bool {
	return i < end && text[i] == '-' && (i+1 == end || text[i+1] == ' ')
}

func (p *fastParser) blockSeq(indent, depth int) bool {
	if depth > maxFastDepth {
		return false
	}
	p.buf = append(p.buf, '[')
	for n := 0; p.pos < len(p.lines); n++ {
		l := p.lines[p.pos]
		if l.indent != indent || !isSeqEntry(p.text, l.start+l.indent, l.end) {
			break
		}
		if n > 0 {
			p.buf = append(p.buf, ',')
		}
		i := skipSpaces(p.text, l.start+l.indent+1, l.end)
		if restIsEmpty(p.text, i, l.end) {
			// The item is on the following lines, or null.
			p.pos++
			if p.pos < len(p.lines) && p.lines[p.pos].indent > indent {
				if !p.nodeBelow(indent, depth+1) {
					return false
				}
			} else {
				p.buf = append(p.buf, "null"...)
			}
			continue
		}
		if isSeqEntry(p.text, i, l.end) {
			return false // "- - x"
		}
		if p.isKey(i, l.end) {
			if !p.blockMap(i-l.start, i, depth+1) {
				return false
			}
			continue
		}
		if !p.inlineValue(i, l.end, indent, depth+1) {
			return false
		}
	}
	p.buf = append(p.buf, ']')
	return true
}

// isKey reports whether a mapping key (a plain or quoted scalar followed by
// ':') starts at i.
func (p *fastParser) isKey(i, end int) bool {
	_, j, ok := p.key(i, end)
	return ok && j > i
}

// key reads a mapping key at i: the key and the offset after its ": ".
func (p *fastParser) key(i, end int) (string, int, bool) {
	text := p.text
	var k string
	var j int
	switch text[i] {
	case '"', '\'':
		s, e, ok := p.quoted(i, end)
		if !ok || e >= end || text[e] != ':' {
			return "", 0, false
		}
		k, j = string(s), e
	default:
		e, colon := scanPlain(text, i, end)
		if !colon {
			return "", 0, false
		}
		var ok bool
		if k, ok = p.plainKey(text[i:e]); !ok {
			return "", 0, false
		}
		j = e
		for j < end && text[j] == ' ' {
			j++
		}
	}
	// text[j] is ':'; a space or the end of the line must follow.
	if j-i > maxFastKey || j+1 < end && text[j+1] != ' ' {
		return "", 0, false
	}
	return k, j + 1, true
}

// plainKey returns the string sigs.k8s.io/yaml makes of a plain key.
func (p *fastParser) plainKey(raw []byte) (string, bool) {
	if !mayResolve(raw) {
		return keyOf(raw), true
	}
	k, str, ok := plainKeyString(string(raw))
	if str {
		return keyOf(raw), ok
	}
	p.renamed = p.renamed || k != string(raw)
	return k, ok
}

// plainKeyString is the JSON member name sigs.k8s.io/yaml makes of a plain,
// untagged mapping key: the key itself when yaml v2 resolves it to a string
// (str), else its number or boolean written as that library writes it. ok
// is false for keys it has no name for (null, uint64, merge keys).
func plainKeyString(raw string) (k string, str, ok bool) {
	switch v := resolveV2(raw); v.kind {
	case v2String:
		return raw, true, true
	case v2Bool, v2Int, v2Float:
		return v2Name(v), false, true
	}
	return "", false, false
}

// v2Name is how sigs.k8s.io/yaml writes a boolean, integer or float key.
func v2Name(v v2Value) string {
	switch v.kind {
	case v2Bool:
		if v.b {
			return "true"
		}
		return "false"
	case v2Int:
		return strconv.FormatInt(v.i, 10)
	}
	s := strconv.FormatFloat(v.f, 'g', -1, 32)
	switch s {
	case "+Inf":
		s = ".inf"
	case "-Inf":
		s = "-.inf"
	case "NaN":
		s = ".nan"
	}
	return s
}

// entryKey writes the key of a mapping entry (with the ',' before it and
// the ':' after it) and returns where the entry starts in buf.
func (p *fastParser) entryKey(k string, entStart int) int {
	start := len(p.buf)
	if len(p.ents) > entStart {
		p.buf = append(p.buf, ',')
	}
	p.buf = jsonstr.Append(p.buf, k, true)
	p.buf = append(p.buf, ':')
	return start
}

// sortEntries puts the entries of the mapping written from mapStart on in
// the order of their keys, as encoding/json does, and fails on two equal
// keys.
func (p *fastParser) sortEntries(mapStart, entStart int) bool {
	ents := p.ents[entStart:]
	cmp := func(a, b fastEntry) int { return strings.Compare(a.key, b.key) }
	if slices.IsSortedFunc(ents, cmp) {
		for i := 1; i < len(ents); i++ {
			if ents[i].key == ents[i-1].key {
				return false
			}
		}
		return true
	}
	slices.SortFunc(ents, cmp)
	for i := 1; i < len(ents); i++ {
		if ents[i].key == ents[i-1].key {
			return false // a duplicate, or keys that are once converted
		}
	}
	p.tmp = append(p.tmp[:0], p.buf[mapStart:]...)
	p.buf = p.buf[:mapStart]
	for i, e := range ents {
		if i > 0 {
			p.buf = append(p.buf, ',')
		}
		from := e.start - mapStart
		if p.tmp[from] == ',' {
			from++
		}
		p.buf = append(p.buf, p.tmp[from:e.end-mapStart]...)
	}
	return true
}

// keyOf returns raw, a key in the text, as a string that shares its bytes:
// a key is used only while its document is read (to sort and compare the
// entries of its mapping; buf gets a copy), and the text does not change.
func keyOf(raw []byte) string {
	return unsafe.String(unsafe.SliceData(raw), len(raw))
}

// blockMap reads a block mapping whose first key is at offset first of the
// current line, in column indent.
func (p *fastParser) blockMap(indent, first, depth int) bool {
	if depth > maxFastDepth {
		return false
	}
	p.buf = append(p.buf, '{')
	mapStart := len(p.buf)
	entStart := len(p.ents)
	defer func() { p.ents = p.ents[:entStart] }()
	for i := first; ; {
		l := p.lines[p.pos]
		k, j, ok := p.key(i, l.end)
		if !ok {
			return false
		}
		start := p.entryKey(k, entStart)
		j = skipSpaces(p.text, j, l.end)
		if restIsEmpty(p.text, j, l.end) {
			// The value is on the following lines, or null.
			p.pos++
			switch {
			case p.pos < len(p.lines) && p.lines[p.pos].indent > indent:
				if !p.nodeBelow(indent, depth+1) {
					return false
				}
			case p.pos < len(p.lines) && p.lines[p.pos].indent == indent && isSeqEntry(p.text, p.lines[p.pos].start+indent, p.lines[p.pos].end):
				if !p.blockSeq(indent, depth+1) {
					return false
				}
			default:
				p.buf = append(p.buf, "null"...)
			}
		} else if !p.inlineValue(j, l.end, indent, depth+1) {
			return false
		}
		p.ents = append(p.ents, fastEntry{k, start, len(p.buf)})
		if p.pos >= len(p.lines) || p.lines[p.pos].indent != indent {
			break
		}
		next := p.lines[p.pos]
		if isSeqEntry(p.text, next.start+indent, next.end) {
			break
		}
		i = next.start + indent
	}
	if !p.sortEntries(mapStart, entStart) {
		return false
	}
	p.buf = append(p.buf, '}')
	return true
}

// inlineValue reads the value at i, which ends with its line (but for a
// comment): a scalar or a flow collection, or a literal block scalar whose
// lines follow. parent is the indentation of the collection it is in. The
// current line becomes the one after the value.
func (p *fastParser) inlineValue(i, end, parent, depth int) bool {
	text := p.text
	var j int
	switch c := text[i]; c {
	case '|':
		return p.literal(i, end, parent)
	case '[', '{':
		var ok bool
		if j, ok = p.flowNode(i, end, depth); !ok {
			return false
		}
	case '"', '\'':
		s, e, ok := p.quoted(i, end)
		if !ok {
			if s, e, ok = p.quotedLines(i); !ok {
				return false
			}
			end = p.lines[p.pos].end
		}
		p.buf = jsonstr.Append(p.buf, s, true)
		j = e
	default:
		e, colon := scanPlain(text, i, end)
		if colon || e == i {
			return false
		}
		if skipSpaces(text, e, end) == end && p.pos+1 < len(p.lines) && p.lines[p.pos+1].indent > parent {
			return p.plainLines(i, e, parent)
		}
		if !p.plain(text[i:e]) {
			return false
		}
		j = e
	}
	p.pos++
	return restIsEmpty(text, skipSpaces(text, j, end), end) && (j == end || text[j] == ' ')
}

// plainLines reads a plain scalar whose first line, on the current line,
// is text[i:e] (no comment after it), and which goes on over the following
// lines indented more than parent, the indentation of the collection it
// is in. yaml v2 folds it: each line trimmed of its spaces, the lines
// joined by a space, or by one line break per empty line between them. It
// declines a comment within or between its lines and a ": " in them (the
// reference fails: a key cannot span lines). The current line becomes the
// one after the scalar.
func (p *fastParser) plainLines(i, e, parent int) bool {
	text := p.text
	v := append(p.fold[:0], text[i:e]...)
	for p.pos+1 < len(p.lines) && p.lines[p.pos+1].indent > parent {
		prev, l := p.lines[p.pos], p.lines[p.pos+1]
		empty := 0
		for ls := prev.end + 1; ls < l.start; {
			le := ls
			for le < l.start && text[le] != '\n' {
				le++
			}
			if skipSpaces(text, ls, le) != le {
				return false // a comment line ends the scalar, and the next fails
			}
			empty++
			ls = le + 1
		}
		cs := l.start + l.indent
		ce, colon := scanPlainRest(text, cs, l.end)
		if colon || ce == cs || skipSpaces(text, ce, l.end) != l.end {
			return false
		}
		if empty == 0 {
			v = append(v, ' ')
		}
		for ; empty > 0; empty-- {
			v = append(v, '\n')
		}
		v = append(v, text[cs:ce]...)
		p.pos++
	}
	p.fold = v
	p.pos++
	return p.plain(v)
}

// literal reads the literal block scalar whose header "|" or "|-", with or
// without an indentation indicator ("|2-", "|-2"), is at i (the end of its
// line), in a collection indented by parent: with the indicator, its lines
// are indented by parent and the indicator. It declines other headers
// (folded, keep, comments), leading empty lines without an indicator, lines
// of spaces longer than the block's indentation, an empty scalar and a last
// line without a line break.
func (p *fastParser) literal(i, end, parent int) bool {
	text := p.text
	strip := false
	blockIndent := -1
	h := i + 1
	for k := 0; k < 2 && h < end; k++ {
		switch c := text[h]; {
		case c == '-' && !strip:
			strip = true
			h++
		case c >= '1' && c <= '9' && blockIndent < 0:
			blockIndent = parent + int(c-'0')
			if parent < 0 {
				blockIndent = int(c - '0')
			}
			h++
		}
	}
	if skipSpaces(text, h, end) != end || end >= len(text) {
		return false
	}
	var val []byte
	content := false
	breaks := 0 // line breaks not yet written: of the last content line and of empty lines after it
	blockEnd := len(text)
	for ls := end + 1; ls < len(text); {
		le := ls
		for le < len(text) && text[le] != '\n' {
			le++
		}
		sp := skipSpaces(text, ls, le) - ls
		switch {
		case ls+sp == le: // only spaces
			if blockIndent < 0 || sp > blockIndent {
				return false
			}
			breaks++
		case blockIndent < 0:
			if sp <= parent {
				return false // an empty scalar
			}
			blockIndent = sp
			fallthrough
		case sp >= blockIndent:
			if le == len(text) {
				return false // no line break
			}
			content = true
			for ; breaks > 0; breaks-- {
				val = append(val, '\n')
			}
			val = append(val, text[ls+blockIndent:le]...)
			breaks = 1
		default:
			blockEnd = ls
		}
		if blockEnd < len(text) {
			break
		}
		ls = le + 1
	}
	if !content {
		return false
	}
	if !strip {
		val = append(val, '\n')
	}
	p.buf = jsonstr.Append(p.buf, val, true)
	for p.pos < len(p.lines) && p.lines[p.pos].start < blockEnd {
		p.pos++
	}
	return true
}

// plain writes the JSON of a plain scalar.
func (p *fastParser) plain(s []byte) bool {
	if !mayResolve(s) {
		p.buf = jsonstr.Append(p.buf, s, true)
		return true
	}
	v := resolveV2(string(s))
	switch v.kind {
	case v2String:
		p.buf = jsonstr.Append(p.buf, s, true)
	case v2Null:
		p.buf = append(p.buf, "null"...)
	case v2Bool:
		p.buf = strconv.AppendBool(p.buf, v.b)
	case v2Int:
		p.buf = strconv.AppendInt(p.buf, v.i, 10)
	case v2Uint:
		p.buf = strconv.AppendUint(p.buf, v.u, 10)
	case v2Float:
		if math.IsInf(v.f, 0) || math.IsNaN(v.f) {
			return false // encoding/json fails
		}
		p.buf = appendJSONFloat(p.buf, v.f)
	default:
		return false // merge
	}
	return true
}

// mayResolve reports whether a plain scalar may be something else than a
// string (see resolveV2).
func mayResolve(s []byte) bool {
	if len(s) == 0 {
		return true
	}
	switch c := s[0]; {
	case c == '+' || c == '-' || c == '.' || c >= '0' && c <= '9' || c == '~' || c == '<':
		return true
	case c == 'y' || c == 'Y' || c == 'n' || c == 'N' || c == 't' || c == 'T' || c == 'f' || c == 'F' || c == 'o' || c == 'O':
		return len(s) <= 5
	}
	return false
}

// scanPlain finds the end of the plain scalar (in block context) at i: the
// offset after its last non-space character, and whether a ':' followed by
// a space or the end of the line ends it (it is a key). e == i if no plain
// scalar the fast path takes starts at i.
func scanPlain(text []byte, i, end int) (e int, colon bool) {
	if !plainStart(text, i, end) {
		return i, false
	}
	return scanPlainRest(text, i, end)
}

// scanPlainRest is scanPlain without the test of how a plain scalar may
// start: for a line that goes on with one.
func scanPlainRest(text []byte, i, end int) (e int, colon bool) {
	e = i
	for j := i; j < end; j++ {
		switch text[j] {
		case ' ':
			continue
		case ':':
			if j+1 == end || text[j+1] == ' ' {
				return e, true
			}
		case '#':
			if text[j-1] == ' ' {
				return e, false // a comment
			}
		}
		e = j + 1
	}
	return e, false
}

// plainStart reports whether a plain scalar may start at i: not with an
// indicator, but for "-" followed by something else than a space.
func plainStart(text []byte, i, end int) bool {
	if i >= end {
		return false
	}
	switch text[i] {
	case '-':
		return i+1 < end && text[i+1] != ' ' && text[i+1] != '-'
	case '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', ' ':
		return false
	}
	return true
}

// quoted reads the one-line quoted scalar at i: its value and the offset
// after the closing quote.
func (p *fastParser) quoted(i, end int) ([]byte, int, bool) {
	text := p.text
	q := text[i]
	var val []byte
	plainRun := i + 1
	for j := i + 1; j < end; j++ {
		c := text[j]
		switch {
		case c == q && q == '\'' && j+1 < end && text[j+1] == '\'':
			val = append(val, text[plainRun:j+1]...)
			j++
			plainRun = j + 1
		case c == q:
			if val == nil {
				return text[i+1 : j], j + 1, true
			}
			return append(val, text[plainRun:j]...), j + 1, true
		case c == '\\' && q == '"':
			if j+1 >= end {
				return nil, 0, false
			}
			r, ok := quotedEscape(text[j+1])
			if !ok {
				return nil, 0, false
			}
			val = append(append(val, text[plainRun:j]...), r)
			j++
			plainRun = j + 1
		}
	}
	return nil, 0, false // not closed on this line
}

// quotedEscape is the byte an escape sequence of a double-quoted scalar
// stands for, for the ones the fast path takes.
func quotedEscape(c byte) (byte, bool) {
	switch c {
	case '\\', '"', ' ':
		return c, true
	case 'n':
		return '\n', true
	case 't':
		return '\t', true
	}
	return 0, false
}

// quotedLines reads the quoted scalar at i, on the current line, that goes
// on over the following lines (yaml v2 does not look at their
// indentation). It folds the lines as yaml v2 does: a
// line's spaces at either end dropped, one line break a space, or one
// line break per empty line after it; in a double-quoted scalar, an
// escaped line break is none. It returns the value and the offset after
// the closing quote; the current line becomes the one it is on. Its lines
// are read from the text: one starting with "#" is no comment.
func (p *fastParser) quotedLines(i int) ([]byte, int, bool) {
	text := p.text
	q := text[i]
	v := p.fold[:0]
	j := i + 1
	for {
		leadingBlanks := false
	chars:
		for j < len(text) && text[j] != ' ' && text[j] != '\n' {
			c := text[j]
			switch {
			case q == '\'' && c == '\'' && j+1 < len(text) && text[j+1] == '\'':
				v = append(v, '\'')
				j += 2
			case c == q:
				p.fold = v
				for p.pos+1 < len(p.lines) && p.lines[p.pos+1].start < j {
					p.pos++
				}
				if l := p.lines[p.pos]; j < l.start || j >= l.end {
					return nil, 0, false // on a line that reads as a comment
				}
				return v, j + 1, true
			case q == '"' && c == '\\' && j+1 < len(text) && text[j+1] == '\n':
				j += 2
				leadingBlanks = true
				break chars
			case q == '"' && c == '\\':
				if j+1 >= len(text) {
					return nil, 0, false
				}
				r, ok := quotedEscape(text[j+1])
				if !ok {
					return nil, 0, false
				}
				v = append(v, r)
				j += 2
			default:
				v = append(v, c)
				j++
			}
		}
		if j >= len(text) {
			return nil, 0, false
		}
		ws, leadingBreak, trailing := j, false, 0
		for j < len(text) && (text[j] == ' ' || text[j] == '\n') {
			if text[j] == '\n' {
				if !leadingBlanks {
					leadingBreak, leadingBlanks = true, true
				} else {
					trailing++
				}
			}
			j++
		}
		switch {
		case leadingBreak && trailing == 0:
			v = append(v, ' ')
		case leadingBlanks:
			for ; trailing > 0; trailing-- {
				v = append(v, '\n')
			}
		default:
			v = append(v, text[ws:j]...)
		}
	}
}

// flowNode reads the flow collection, quoted scalar or plain scalar at i
// (all on this line) and returns the offset after it.
func (p *fastParser) flowNode(i, end, depth int) (int, bool) {
	text := p.text
	if depth > maxFastDepth || i >= end {
		return 0, false
	}
	switch text[i] {
	case '[':
		p.buf = append(p.buf, '[')
		j := skipSpaces(text, i+1, end)
		if j < end && text[j] == ']' {
			p.buf = append(p.buf, ']')
			return j + 1, true
		}
		for n := 0; ; n++ {
			if n > 0 {
				p.buf = append(p.buf, ',')
			}
			var ok bool
			if j, ok = p.flowNode(j, end, depth+1); !ok {
				return 0, false
			}
			j = skipSpaces(text, j, end)
			if j >= end {
				return 0, false
			}
			switch text[j] {
			case ']':
				p.buf = append(p.buf, ']')
				return j + 1, true
			case ',':
				j = skipSpaces(text, j+1, end)
				if j >= end || text[j] == ']' {
					return 0, false
				}
			default:
				return 0, false
			}
		}
	case '{':
		return p.flowMap(i, end, depth)
	case '"', '\'':
		s, e, ok := p.quoted(i, end)
		if !ok {
			return 0, false
		}
		p.buf = jsonstr.Append(p.buf, s, true)
		return e, true
	}
	e, ok := scanFlowPlain(text, i, end)
	if !ok || !p.plain(text[i:e]) {
		return 0, false
	}
	return e, true
}

// scanFlowPlain finds the end of a plain scalar in a flow collection: before
// ',', ']', '}' or a ':' followed by a space, less trailing spaces. (A ':'
// followed by something else is part of the scalar.)
func scanFlowPlain(text []byte, i, end int) (int, bool) {
	if !plainStart(text, i, end) {
		return 0, false
	}
	e := i
	for j := i; j < end; j++ {
		switch text[j] {
		case ' ':
			continue
		case ',', ']', '}':
			return e, true
		case ':':
			if j+1 < end && text[j+1] == ' ' {
				return e, true
			}
			if j+1 == end || strings.IndexByte(",[]{}?", text[j+1]) >= 0 {
				return 0, false
			}
		case '#', '[', '{', '?', '"', '\'':
			return 0, false
		}
		e = j + 1
	}
	return 0, false // not closed on this line
}

func (p *fastParser) flowMap(i, end, depth int) (int, bool) {
	text := p.text
	p.buf = append(p.buf, '{')
	mapStart := len(p.buf)
	entStart := len(p.ents)
	defer func() { p.ents = p.ents[:entStart] }()
	j := skipSpaces(text, i+1, end)
	if j < end && text[j] == '}' {
		p.buf = append(p.buf, '}')
		return j + 1, true
	}
	for {
		if j >= end {
			return 0, false
		}
		var k string
		keyStart := j
		switch text[j] {
		case '"', '\'':
			s, e, ok := p.quoted(j, end)
			if !ok {
				return 0, false
			}
			k, j = string(s), e
		default:
			e, ok := scanFlowPlain(text, j, end)
			if !ok {
				return 0, false
			}
			raw := text[j:e]
			if k, ok = p.plainKey(raw); !ok {
				return 0, false
			}
			j = skipSpaces(text, e, end)
		}
		if j+1 >= end || text[j] != ':' || text[j+1] != ' ' || j-keyStart > maxFastKey {
			return 0, false
		}
		j = skipSpaces(text, j+1, end)
		start := p.entryKey(k, entStart)
		var ok bool
		if j, ok = p.flowNode(j, end, depth+1); !ok {
			return 0, false
		}
		p.ents = append(p.ents, fastEntry{k, start, len(p.buf)})
		j = skipSpaces(text, j, end)
		if j >= end {
			return 0, false
		}
		if text[j] == '}' {
			j++
			break
		}
		if text[j] != ',' {
			return 0, false
		}
		j = skipSpaces(text, j+1, end)
		if j >= end || text[j] == '}' {
			return 0, false
		}
	}
	if !p.sortEntries(mapStart, entStart) {
		return 0, false
	}
	p.buf = append(p.buf, '}')
	return j, true
}

func skipSpaces(text []byte, i, end int) int {
	for i < end && text[i] == ' ' {
		i++
	}
	return i
}

// restIsEmpty reports whether the line from i (after spaces) is empty or a
// comment.
func restIsEmpty(text []byte, i, end int) bool {
	return i >= end || text[i] == '#' && (i == 0 || text[i-1] == ' ')
}

type v2Kind uint8

const (
	v2String v2Kind = iota
	v2Null
	v2Bool
	v2Int
	v2Uint
	v2Float
	v2Merge
)

// v2Value is a plain scalar resolved as yaml v2 resolves it when decoding
// into interface{}.
type v2Value struct {
	kind v2Kind
	b    bool
	i    int64
	u    uint64
	f    float64
}

// resolveV2 resolves a plain, untagged scalar by yaml v2's rules (YAML 1.1
// booleans and nulls, integers in bases 2, 8, 10 and 16 with underscores,
// floats; a timestamp stays a string when decoded into interface{}).
func resolveV2(s string) v2Value {
	if s == "" {
		return v2Value{kind: v2Null}
	}
	switch c := s[0]; {
	case c == '+' || c == '-' || c >= '0' && c <= '9':
		return resolveV2Number(s)
	case c == '.':
		switch s {
		case ".nan", ".NaN", ".NAN":
			return v2Value{kind: v2Float, f: math.NaN()}
		case ".inf", ".Inf", ".INF":
			return v2Value{kind: v2Float, f: math.Inf(1)}
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return v2Value{kind: v2Float, f: f}
		}
	case strings.IndexByte("yYnNtTfFoO~<", c) >= 0:
		switch s {
		case "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON":
			return v2Value{kind: v2Bool, b: true}
		case "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF":
			return v2Value{kind: v2Bool}
		case "~", "null", "Null", "NULL":
			return v2Value{kind: v2Null}
		case "<<":
			return v2Value{kind: v2Merge}
		}
	}
	return v2Value{}
}

func resolveV2Number(s string) v2Value {
	switch s {
	case "+.inf", "+.Inf", "+.INF":
		return v2Value{kind: v2Float, f: math.Inf(1)}
	case "-.inf", "-.Inf", "-.INF":
		return v2Value{kind: v2Float, f: math.Inf(-1)}
	}
	if looksLikeTimestamp(s) {
		return v2Value{} // yaml v2 keeps it as the string
	}
	if strings.IndexFunc(s, notInNumber) >= 0 {
		return v2Value{} // "500m", "1Gi": no number syntax below takes them
	}
	plain := s
	if strings.IndexByte(s, '_') >= 0 {
		plain = strings.ReplaceAll(s, "_", "")
	}
	if i, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return v2Value{kind: v2Int, i: i}
	}
	if u, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return v2Value{kind: v2Uint, u: u}
	}
	if isYAMLStyleFloat(plain) {
		if f, err := strconv.ParseFloat(plain, 64); err == nil {
			return v2Value{kind: v2Float, f: f}
		}
	}
	if rest, ok := strings.CutPrefix(plain, "0b"); ok {
		if i, err := strconv.ParseInt(rest, 2, 64); err == nil {
			return v2Value{kind: v2Int, i: i}
		}
		if u, err := strconv.ParseUint(rest, 2, 64); err == nil {
			return v2Value{kind: v2Uint, u: u}
		}
	} else if rest, ok := strings.CutPrefix(plain, "-0b"); ok {
		if i, err := strconv.ParseInt("-"+rest, 2, 64); err == nil {
			return v2Value{kind: v2Int, i: i}
		}
	}
	return v2Value{}
}

// notInNumber reports whether r can be in no number strconv parses below:
// not a digit, sign, underscore, point, base prefix (0x, 0o, 0b), hex digit,
// exponent (e, p) or letter of inf, infinity or nan.
func notInNumber(r rune) bool {
	switch {
	case '0' <= r && r <= '9', 'a' <= r && r <= 'f', 'A' <= r && r <= 'F':
		return false
	}
	return !strings.ContainsRune("+-_.xXoOpPiInNtTyY", r)
}

// looksLikeTimestamp reports whether yaml v2 would resolve s as a timestamp:
// four digits and a '-', then one of its accepted layouts. Any such string is
// kept as it is, so only whether it parses matters.
func looksLikeTimestamp(s string) bool {
	if len(s) < 5 || s[4] != '-' {
		return false
	}
	for i := 0; i < 4; i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	// Whatever follows, the string is either a timestamp (kept as the
	// string) or resolved further; an integer or float cannot have a '-' at
	// offset 4 after four digits, so it is a string in both cases.
	return true
}

// isYAMLStyleFloat matches ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
func isYAMLStyleFloat(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i++
			digits()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// appendJSONFloat formats f as encoding/json does.
func appendJSONFloat(b []byte, f float64) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// "e-07" is written "e-7".
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}
