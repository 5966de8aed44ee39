package load

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"sigs.k8s.io/yaml"
)

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// stream holds the state of reading one named stream.
type stream struct {
	name    string
	opts    Options
	yield   func(Document) bool
	index   int  // Index of the next non-empty document
	stopped bool // yield returned false
	inYield bool // yield is running
}

// readBytes splits data (the whole contents of one stream) into documents and
// yields them.
func readBytes(name string, data []byte, opts Options, yield func(Document) bool) {
	s := &stream{name: name, opts: opts, yield: yield}
	defer func() {
		// Last line of defence against bugs: report a panic as an error
		// document rather than crashing. Panics raised by yield itself are
		// the caller's and are passed on.
		if r := recover(); r != nil {
			if s.inYield {
				panic(r)
			}
			s.emit([]Document{{
				Pos: Position{File: name, Line: 1, Index: s.index, Item: -1},
				Err: &Error{File: name, Line: 1, Msg: fmt.Sprintf("internal error: %v", r)},
			}})
		}
	}()
	data = bytes.TrimPrefix(data, utf8BOM)
	i := skipWS(data, 0)
	if i < len(data) && (data[i] == '{' || data[i] == '[') {
		s.readJSON(data)
		return
	}
	s.readYAML(data)
}

// emit yields the documents produced for one top-level document.
func (s *stream) emit(docs []Document) {
	for _, d := range docs {
		if s.stopped {
			return
		}
		s.inYield = true
		ok := s.yield(d)
		s.inYield = false
		if !ok {
			s.stopped = true
		}
	}
}

// line is one line of a YAML stream.
type line struct {
	start, end int // content bytes, without the line break
	next       int // offset of the next line
}

// nextLine returns the line starting at off. Line breaks are "\n", "\r\n"
// and a lone "\r" (as YAML counts them). hasCR says whether data contains
// any '\r' at all, so the common case is a single IndexByte.
func nextLine(data []byte, off int, hasCR bool) line {
	rest := data[off:]
	if !hasCR {
		if k := bytes.IndexByte(rest, '\n'); k >= 0 {
			return line{off, off + k, off + k + 1}
		}
		return line{off, len(data), len(data)}
	}
	k := bytes.IndexAny(rest, "\r\n")
	if k < 0 {
		return line{off, len(data), len(data)}
	}
	if rest[k] == '\r' && k+1 < len(rest) && rest[k+1] == '\n' {
		return line{off, off + k, off + k + 2}
	}
	return line{off, off + k, off + k + 1}
}

// lineKind classifies a YAML line for document splitting.
type lineKind int

const (
	lineBlank   lineKind = iota // only spaces/tabs
	lineComment                 // first non-blank character is '#'
	lineContent
	lineDocStart // "---" optionally followed by spaces and/or a comment
	lineDocEnd   // "..." optionally followed by spaces and/or a comment
	lineBadStart // "---" followed by something else
)

func classify(l []byte) (lineKind, string) {
	if len(l) >= 3 && (l[0] == '-' || l[0] == '.') && l[1] == l[0] && l[2] == l[0] {
		rest := bytes.TrimLeft(l[3:], " \t")
		if len(rest) == 0 || rest[0] == '#' {
			if l[0] == '-' {
				return lineDocStart, string(rest)
			}
			return lineDocEnd, ""
		}
		if l[0] == '-' {
			return lineBadStart, string(rest)
		}
		return lineContent, ""
	}
	for _, c := range l {
		switch c {
		case ' ', '\t':
			continue
		case '#':
			return lineComment, ""
		}
		return lineContent, ""
	}
	return lineBlank, ""
}

// helmSource returns the path of a Helm "# Source: path" comment.
func helmSource(comment []byte) (string, bool) {
	c := bytes.TrimLeft(comment, " \t")
	if len(c) == 0 || c[0] != '#' {
		return "", false
	}
	c = bytes.TrimLeft(c[1:], " \t")
	const prefix = "Source:"
	if !bytes.HasPrefix(c, []byte(prefix)) {
		return "", false
	}
	src := strings.TrimSpace(string(c[len(prefix):]))
	return src, src != ""
}

// yamlDoc accumulates one YAML document while splitting.
type yamlDoc struct {
	contentOff  int // offset of the first content line, -1 if none yet
	contentLine int // line number of the first content line
	source      string
	badSep      string // text after an invalid "---" separator
	badSepLine  int
}

func (d *yamlDoc) reset() {
	*d = yamlDoc{contentOff: -1}
}

func (s *stream) readYAML(data []byte) {
	hasCR := bytes.IndexByte(data, '\r') >= 0
	var doc yamlDoc
	doc.reset()
	lineNo := 1
	for off := 0; off < len(data); lineNo++ {
		l := nextLine(data, off, hasCR)
		kind, rest := classify(data[l.start:l.end])
		switch kind {
		case lineDocStart, lineDocEnd, lineBadStart:
			s.yamlDocument(data, &doc, l.start)
			if s.stopped {
				return
			}
			doc.reset()
			if kind == lineBadStart {
				doc.badSep = rest
				doc.badSepLine = lineNo
			}
			if src, ok := helmSource([]byte(rest)); ok {
				doc.source = src
			}
		case lineComment:
			if doc.contentOff < 0 && doc.source == "" {
				if src, ok := helmSource(data[l.start:l.end]); ok {
					doc.source = src
				}
			}
		case lineContent:
			if doc.contentOff < 0 {
				doc.contentOff = l.start
				doc.contentLine = lineNo
			}
		}
		off = l.next
	}
	s.yamlDocument(data, &doc, len(data))
}

// yamlDocument processes the document accumulated in doc, which ends at end.
func (s *stream) yamlDocument(data []byte, doc *yamlDoc, end int) {
	if doc.badSep != "" {
		idx := s.index
		s.index++
		s.emit([]Document{{
			Pos: Position{File: s.name, Line: doc.badSepLine, Index: idx, Item: -1, Source: doc.source},
			Err: &Error{File: s.name, Line: doc.badSepLine,
				Msg: fmt.Sprintf("invalid YAML document separator: %q may only be followed by a comment on its line (got %q)", "---", truncate(doc.badSep))},
		}})
		return
	}
	if doc.contentOff < 0 {
		return // only blank lines and comments
	}
	text := data[doc.contentOff:end]
	js, err := yamlToJSON(text)
	if err == nil && isJSONNull(js) {
		return // "null", "~", ...: empty document
	}
	idx := s.index
	s.index++
	if err != nil {
		line, msg := yamlErrorLine(err, text)
		abs := doc.contentLine
		if line > 0 {
			abs = doc.contentLine + line - 1
		}
		s.emit([]Document{{
			Pos: Position{File: s.name, Line: doc.contentLine, Index: idx, Item: -1, Source: doc.source},
			Err: &Error{File: s.name, Line: abs, Msg: msg},
		}})
		return
	}
	src := &docSrc{stream: s, index: idx, source: doc.source, text: text, lineBase: doc.contentLine}
	s.emit(src.run(js, doc.contentLine))
}

// yamlToJSON is sigs.k8s.io/yaml.YAMLToJSON (what kubectl uses), turning any
// panic in the YAML library into an error.
func yamlToJSON(text []byte) (js []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			js, err = nil, fmt.Errorf("internal error in YAML parser: %v", r)
		}
	}()
	return yaml.YAMLToJSON(text)
}

func isJSONNull(js []byte) bool {
	return string(bytes.TrimSpace(js)) == "null"
}

// readJSON reads a stream of concatenated JSON values.
func (s *stream) readJSON(data []byte) {
	dec := json.NewDecoder(bytes.NewReader(data))
	lc := lineCounter{data: data, line: 1}
	prevEnd := 0
	for {
		start := skipWS(data, prevEnd)
		if start >= len(data) {
			return
		}
		startLine := lc.lineAt(start)
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return
			}
			idx := s.index
			s.index++
			errLine := startLine
			var se *json.SyntaxError
			msg := err.Error()
			if errors.As(err, &se) {
				if se.Offset > 0 && se.Offset <= int64(len(data)) {
					errLine = lc.lineAt(int(se.Offset) - 1)
				}
				msg = se.Error()
			} else if errors.Is(err, io.ErrUnexpectedEOF) {
				msg = "unexpected end of input"
			}
			s.emit([]Document{{
				Pos: Position{File: s.name, Line: startLine, Index: idx, Item: -1},
				Err: &Error{File: s.name, Line: errLine, Msg: "invalid JSON: " + msg},
			}})
			return // cannot resynchronise after a syntax error
		}
		end := int(dec.InputOffset())
		if end < start || end > len(data) {
			return // cannot happen
		}
		prevEnd = end
		if isJSONNull(raw) {
			continue
		}
		idx := s.index
		s.index++
		// Use the stream's own bytes (not the decoder's copy) so line
		// lookups see exactly what was written.
		value := data[start:end]
		if value[0] != '{' {
			s.emit([]Document{{
				Pos: Position{File: s.name, Line: startLine, Index: idx, Item: -1},
				Err: &Error{File: s.name, Line: startLine, Msg: "expected a JSON object"},
			}})
		} else {
			src := &docSrc{stream: s, index: idx, text: value, lineBase: startLine}
			s.emit(src.run(value, startLine))
		}
		if s.stopped {
			return
		}
	}
}

// lineCounter maps increasing byte offsets to 1-based line numbers ("\n"
// separated) in amortised linear time.
type lineCounter struct {
	data []byte
	off  int // offsets before off have been counted
	line int // line number at off
}

func (c *lineCounter) lineAt(off int) int {
	if off > len(c.data) {
		off = len(c.data)
	}
	if off < c.off {
		// Not expected (offsets only increase); recount from the start.
		c.off, c.line = 0, 1
	}
	c.line += bytes.Count(c.data[c.off:off], []byte{'\n'})
	c.off = off
	return c.line
}

func truncate(s string) string {
	const max = 64
	if len(s) <= max {
		return s
	}
	// Do not cut a UTF-8 sequence in half.
	cut := max
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "..."
}
