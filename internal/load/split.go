package load

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode"
	"unicode/utf8"

	"sigs.k8s.io/yaml"
)

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// stream holds the state of reading one named stream.
type stream struct {
	// jsonExtra is how many bytes longer than in the file the JSON values
	// decoded so far are in the stream kubectl reads (kubectlExtra).
	jsonExtra int64
	name      string
	opts      Options
	yield     func(Document) bool
	src       *source
	maxDoc    int64
	walked    bool // found by a directory walk: documents that are not objects are skipped
	index     int  // Index of the next non-empty document
	stopped   bool // yield returned false
	inYield   bool // yield is running
	// haltLine is the line of the error kubectl stops reading the stream
	// at, once emitted (IN-12): the documents after it are not created.
	haltLine int
	// seq numbers the documents queued (inFlight.seq). unread are the
	// documents left unread (Options.Unread) not yet checked for an error
	// that stops kubectl, unreadBytes their size; unreadHalts the errors
	// found in them, to apply from the next document on.
	seq         int
	unread      []unreadDoc
	unreadBytes int
	unreadHalts []unreadHalt
	err         *Error
	// origin is the offset of the stream's first byte after a byte order
	// mark; jsonPending a JSON error kubectl reports unless the YAML
	// document read next converts (IN-14).
	origin      int64
	jsonPending *pendingJSON

	workers   int         // documents converted at once (order.go)
	inFlight  []*inFlight // documents not yet emitted, in stream order
	batch     []*inFlight // documents gathered for the workers, not yet sent
	batchSize int         // their bytes
}

func newStream(name string, src *source, opts Options, yield func(Document) bool) *stream {
	maxDoc := opts.MaxDocumentBytes
	if maxDoc <= 0 {
		maxDoc = DefaultMaxDocumentBytes
	}
	return &stream{name: name, opts: opts, yield: yield, src: src, maxDoc: maxDoc, workers: workers()}
}

// readBytes splits data (the whole contents of one stream) into documents and
// yields them.
func readBytes(name string, data []byte, opts Options, yield func(Document) bool) *Error {
	s := newStream(name, memSource(fromUTF16(data)), opts, yield)
	s.read()
	return s.err
}

// readReader reads the stream r. size is its length if known, else -1.
func readReader(name string, r io.Reader, size int64, b *budget, opts Options, walked bool, yield func(Document) bool) *Error {
	var head [2]byte
	n, err := io.ReadFull(r, head[:])
	switch {
	case n == 2 && (head[0] == 0xFF && head[1] == 0xFE || head[0] == 0xFE && head[1] == 0xFF):
		r, size = newUTF16Reader(r, head[0] == 0xFE), -1
	case err == nil:
		r = io.MultiReader(bytes.NewReader(head[:n]), r)
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		r = bytes.NewReader(head[:n])
	default:
		r = io.MultiReader(bytes.NewReader(head[:n]), errReader{err})
	}
	s := newStream(name, nil, opts, yield)
	s.src = newSource(r, size, b, s.maxDoc)
	s.walked = walked
	s.read()
	s.src.release()
	return s.err
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// read reads the stream to its end, or until yield returns false or an
// error stops it.
func (s *stream) read() {
	defer func() {
		// Last line of defence against bugs: report a panic as an error
		// document rather than crashing. Panics raised by yield itself are
		// the caller's and are passed on.
		if r := recover(); r != nil {
			if s.inYield {
				panic(r)
			}
			s.flush(true)
			s.emit([]Document{{
				Pos: Position{File: s.name, Line: 1, Index: s.index, Item: -1},
				Err: &Error{File: s.name, Line: 1, Msg: fmt.Sprintf("internal error: %v", r)},
			}})
		}
	}()
	src := s.src
	for src.limit() < 3 && !src.done() {
		src.more(0)
	}
	off := int64(0)
	if bytes.HasPrefix(src.buf, utf8BOM) {
		off = 3
	}
	s.origin = off
	s.detect(off)
	s.flush(true)
}

// jsonSniff is how many bytes at the start of a stream kubectl looks at
// for the "{" that makes it JSON (the buffer size its StreamVisitor gives
// NewYAMLOrJSONDecoder): a "{" after that much white space is read as YAML
// (IN-14).
const jsonSniff = 4096

// detect skips the white space at the start of the stream and reads the
// stream as JSON if the first other character is '{' or '[' (but for "{{",
// a template's action), else as YAML.
// (Looking at the first line only would need all of it: a JSON stream may
// be a single long line.)
func (s *stream) detect(off int64) {
	src := s.src
	lineStart := off // start of the current line
	yamlLine := 1    // line number counting "\n", "\r\n" and "\r"
	jsonLine := 1    // line number counting "\n" only, as JSON errors do
	prevCR := false
	// The line of the first white space other than a space, a tab or a
	// line break, and its numbers: kubectl's YAML reading, and its JSON
	// decoder, which takes none of it, start before it.
	otherStart, otherYAML, otherJSON := int64(-1), 0, 0
	for {
		b := src.at(off)
		i := 0
		short := false // a character cut short: read on
	scan:
		for ; i < len(b); i++ {
			switch b[i] {
			case ' ', '\t':
				prevCR = false
				continue
			case '\r':
				yamlLine++
				prevCR = true
			case '\n':
				if !prevCR {
					yamlLine++
				}
				jsonLine++
				prevCR = false
			default:
				// kubectl looks past any Unicode white space for "{"
				// (IN-14).
				n := otherSpace(b[i:], src.done())
				if n > 0 {
					if otherStart < 0 {
						otherStart, otherYAML, otherJSON = lineStart, yamlLine, jsonLine
					}
					prevCR = false
					i += n - 1
					continue
				}
				short = n < 0
				break scan
			}
			lineStart = off + int64(i) + 1
		}
		off += int64(i)
		if short {
			if otherStart >= 0 {
				src.more(otherStart)
			} else {
				src.more(lineStart)
			}
			continue
		}
		if off-lineStart > s.maxDoc {
			// Leading white space longer than a document.
			s.tooLarge(yamlLine, "")
			return
		}
		if i < len(b) {
			if b[i] == '{' && off-s.origin < jsonSniff {
				// kubectl reads JSON first (a "{{" template action too),
				// then YAML if JSON fails on its first value (readJSON).
				if otherStart >= 0 {
					s.readJSON(otherStart, otherJSON)
				} else {
					s.readJSON(lineStart, jsonLine)
				}
				return
			}
			break
		}
		if src.done() {
			break
		}
		keep := lineStart
		if otherStart >= 0 {
			keep = otherStart
		}
		src.more(keep)
	}
	if otherStart >= 0 {
		s.readYAML(otherStart, otherYAML, 1)
		return
	}
	s.readYAML(lineStart, yamlLine, 1)
}

// emit yields the documents produced for one top-level document.
func (s *stream) emit(docs []Document) {
	for _, d := range docs {
		if s.stopped {
			return
		}
		if s.haltLine > 0 {
			// IN-12: kubectl stopped reading the file at an error before
			// this document (its own errors are still reported).
			notCreated(&d, fmt.Sprintf("not created: kubectl stops reading %s at the error on line %d", s.name, s.haltLine))
		}
		if d.Err != nil && d.Err.halts && s.haltLine == 0 {
			s.haltLine = d.Err.Line
		}
		s.inYield = true
		ok := s.yield(d)
		s.inYield = false
		if !ok {
			s.stopped = true
		}
	}
}

// notCreated makes d, an object, a document skipped for reason: kubectl
// never sends it. Its object stays, for a caller that reads what applies to
// the whole run (check's first look); one left unread stays so.
func notCreated(d *Document, reason string) {
	if d.Unread || d.Err != nil || d.Skip != "" {
		return
	}
	d.Skip, d.Halted = reason, true
	d.Prepared, d.Warnings = nil, nil
}

// note reports a Note.
func (s *stream) note(n Note) {
	if s.opts.Note != nil && !s.stopped {
		s.opts.Note(n)
	}
}

// rest says what of the stream was not read after a problem that stops it.
func (s *stream) rest() string {
	return "the rest of " + s.name + " was not read"
}

// tooLarge reports the current document as too large; reading stops.
func (s *stream) tooLarge(line int, source string) {
	if pj := s.jsonPending; pj != nil {
		// kubectl reads the YAML whole, fails on it, and says the JSON error.
		s.jsonPending = nil
		s.errorDoc(pj.startLine, pj.line, "", kubectlParseError(s.name, pj.msg))
		return
	}
	why := "the most kube-apiserver accepts in one request"
	if s.opts.MaxDocumentBytes > 0 && s.opts.MaxDocumentBytes != DefaultMaxDocumentBytes {
		why = "the limit for one document"
	}
	s.errorDoc(line, line, source, fmt.Sprintf("document is larger than %s, %s; %s", humanSize(s.maxDoc), why, s.rest()))
}

// errorDoc yields an error document.
func (s *stream) errorDoc(line, errLine int, source, msg string) {
	s.queue([]Document{{
		Pos: Position{File: s.name, Line: line, Item: -1, Source: source},
		Err: &Error{File: s.name, Line: errLine, Msg: msg},
	}}, true)
}

// ended handles the end of the data for a reason other than the end of the
// stream: a NUL byte (docLine is the line of the document it is in, nulLine
// its own line), the input limit or a read error.
// In a YAML document, the NUL is the error YAML gives for it, as kubectl
// prints it, the reason limitcheck stops after it in parentheses (IN-01).
func (s *stream) ended(docLine, nulLine int, source string, yaml bool) {
	src := s.src
	switch src.end {
	case endNUL:
		if yaml {
			s.errorDoc(docLine, nulLine, source, kubectlParseError(s.name, "error converting YAML to JSON: yaml: control characters are not allowed")+
				fmt.Sprintf(" (binary data, not YAML or JSON: a NUL byte at offset %d; %s)", src.nulAt, s.rest()))
			return
		}
		s.errorDoc(docLine, nulLine, source, fmt.Sprintf("binary data, not YAML or JSON (a NUL byte at offset %d); %s", src.nulAt, s.rest()))
	case endBudget:
		s.err = &Error{File: s.name, Line: nulLine, Msg: fmt.Sprintf("input is larger than %s, the limit for one run; stopped reading here", humanSize(src.budget.max))}
	case endReadErr:
		s.err = &Error{File: s.name, Msg: fmt.Sprintf("cannot read: %v", src.readErr)}
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

// absLine is a line of a stream, in absolute offsets.
type absLine struct {
	start, end int64 // content bytes, without the line break
	next       int64 // offset of the next line
}

type lineStatus int

const (
	lineOK      lineStatus = iota
	lineNone               // no more lines (see src.end for why)
	lineTooLong            // the document would grow past the limit
)

// readLine returns the line of the source starting at off, reading more as
// needed. keep is the first offset still needed; chunk is where the current
// document's bytes began. A last line without a line break is returned only
// if the stream ended normally.
//
// The size limit is checked on the content of the line as far as it is known
// (a line longer than the limit, or one that takes the document past it
// unless it may be a "---" line); the check gives the same answer whether the
// line arrives at once or a byte at a time.
func (s *stream) readLine(off, keep, chunk int64) (absLine, lineStatus) {
	src := s.src
	scan := off // bytes before scan hold no line break
	for {
		b := src.at(off)
		from := int(scan - off)
		var k int
		if src.hasCR {
			k = bytes.IndexAny(b[from:], "\r\n")
		} else {
			k = bytes.IndexByte(b[from:], '\n')
		}
		l, complete := absLine{off, src.limit(), src.limit()}, false
		if k >= 0 {
			k += from
			end := off + int64(k)
			switch {
			case b[k] == '\n':
				l, complete = absLine{off, end, end + 1}, true
			case k+1 < len(b) && b[k+1] == '\n':
				l, complete = absLine{off, end, end + 2}, true
			case k+1 < len(b) || src.done():
				l, complete = absLine{off, end, end + 1}, true
			default:
				scan = end // a "\r" at the end: is it "\r\n"?
				l.end = end
			}
		} else {
			scan = off + int64(len(b))
			complete = src.done() && len(b) > 0 && src.end == endEOF
		}
		if l.end-off > s.maxDoc || (l.end-chunk > s.maxDoc && !maybeSeparator(b[:l.end-off])) {
			return absLine{}, lineTooLong
		}
		if complete {
			return l, lineOK
		}
		if src.done() {
			return absLine{}, lineNone
		}
		src.more(keep)
	}
}

// maybeSeparator reports whether the start of a line may be that of a "---"
// or "..." line.
func maybeSeparator(b []byte) bool {
	n := min(len(b), 3)
	return string(b[:n]) == "---"[:n] || string(b[:n]) == "..."[:n]
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
	contentOff  int64 // offset of the first content line, -1 if none yet
	contentLine int   // line number of the first content line
	source      string
	badSep      string // text after an invalid "---" separator
	badSepLine  int
	lostAt      int // the line of the invalid separator that ends the document, if one does
	// kLine is the first line of the document kubectl's reader cuts, which
	// holds this one (blank lines and comments before it, and a "---"
	// line when kDash is set: one that follows another "---" line or
	// starts the stream); its syntax errors count lines from there.
	kLine int
	kDash bool
	// kEnd says the document ends one of kubectl's: some line was read
	// since the previous "---" line, or the stream's start.
	kEnd bool
	// ignored is the first line with content after a "..." line, which
	// kubectl reads as part of the document before it and never looks at.
	ignored int
}

func (d *yamlDoc) reset() {
	*d = yamlDoc{contentOff: -1}
}

// readYAML reads a YAML stream from off, the start of line lineNo, on;
// kLine is the line kubectl's reader starts its first document at (blank
// lines before lineNo are part of it).
func (s *stream) readYAML(off int64, lineNo, kLine int) {
	src := s.src
	var doc yamlDoc
	doc.reset()
	doc.kLine = kLine
	// kubectl's reader has read a line of its next document.
	kRead := kLine < lineNo
	// after "...": kubectl ignores the lines until the next "---".
	afterEnd := 0
	// afterEnd was set by a "---" line inside one of kubectl's lines.
	endedByCR := false
	// The line before ended with a lone "\r": kubectl's reader, which
	// splits lines at "\n" only, is in the middle of a line, where a "---"
	// or "..." separates nothing (IN-16).
	prevLoneCR := false
	chunk, chunkLine := off, lineNo // where the current document's bytes began
	docLine := func() int {
		if doc.contentOff >= 0 {
			return doc.contentLine
		}
		return chunkLine
	}
	for {
		if off-chunk > s.maxDoc {
			s.tooLarge(docLine(), doc.source)
			return
		}
		keep := off
		if doc.contentOff >= 0 {
			keep = doc.contentOff
		}
		l, st := s.readLine(off, keep, chunk)
		if st == lineTooLong {
			s.tooLarge(docLine(), doc.source)
			return
		}
		if st == lineNone {
			break
		}
		text := src.span(l.start, l.end)
		kind, rest := classify(text)
		inner, loneCR := prevLoneCR, loneCRAfter(src.span(l.end, l.next))
		prevLoneCR = loneCR
		sepLine, swallowed := lineNo, 0
		if inner && (kind == lineDocStart || kind == lineBadStart) {
			switch {
			case afterEnd > 0:
				kind = lineContent // still ignored
			case doc.contentOff >= 0:
				// YAML reads it as the start of another document, which
				// kubectl's converter, reading one, never reaches: it
				// ends the document as "..." does.
				kind, endedByCR = lineDocEnd, true
			}
			// Before any content, YAML's document starts after it, as
			// after a separator.
		}
		if !inner && loneCR && (kind == lineDocStart || kind == lineBadStart) {
			// kubectl's separator line goes on to the next "\n": all of
			// it follows the "---".
			k, r, sw, last, lastNo, st := s.separatorLine(text, l, min(keep, l.start), chunk, lineNo)
			if st == lineTooLong {
				s.tooLarge(docLine(), doc.source)
				return
			}
			kind, rest = k, r
			if kind == lineBadStart || kRead {
				// The line ends kubectl's document (or its reading):
				// what it took in is gone with it. A "---" line that
				// ends no document is the first line of the next one,
				// whose lines are read as they come.
				l, lineNo, swallowed, prevLoneCR = last, lastNo, sw, false
			}
		}
		if afterEnd > 0 && kind != lineDocStart && kind != lineBadStart {
			// kubectl's converter reads one YAML document: what follows
			// "..." up to the next "---" is never read.
			if kind == lineContent && doc.ignored == 0 {
				doc.ignored = lineNo
			}
			off = l.next
			lineNo++
			continue
		}
		switch kind {
		case lineDocStart, lineDocEnd, lineBadStart:
			if kind == lineBadStart {
				// kubectl's reader fails on the separator with the
				// document before it still unsent: it is lost (IN-12).
				doc.lostAt = sepLine
			}
			if afterEnd > 0 {
				s.ignoredAfterEnd(&doc, afterEnd, endedByCR)
				afterEnd, endedByCR = 0, false
			} else {
				doc.kEnd = kRead && kind != lineDocEnd
				s.yamlDocument(&doc, l.start)
			}
			if s.stopped {
				return
			}
			startsNext := !kRead && kind == lineDocStart
			doc.reset()
			chunk, chunkLine = l.next, lineNo+1
			doc.kLine, kRead = lineNo+1, false
			switch {
			case kind == lineDocEnd:
				afterEnd, kRead = lineNo, true
			case startsNext:
				// kubectl's reader takes a "---" line that ends no
				// document as the first line of the next.
				doc.kLine, doc.kDash, kRead = sepLine, true, true
			}
			if swallowed > 0 {
				s.queue([]Document{{
					Pos:  Position{File: s.name, Line: swallowed, Item: -1},
					Skip: fmt.Sprintf(`not read: kubectl's reader splits lines at line feeds only, and the line breaks after the "---" on line %d are carriage returns: it takes everything up to the next line feed for that separator's line, a comment after "---"; nothing of it is created (save the file with LF or CRLF line breaks)`, sepLine),
				}}, true)
			}
			if kind == lineBadStart {
				doc.badSep = rest
				doc.badSepLine = sepLine
			}
			if src, ok := helmSource([]byte(rest)); ok {
				doc.source = src
			}
		case lineComment:
			if doc.contentOff < 0 && doc.source == "" {
				if src, ok := helmSource(text); ok {
					doc.source = src
				}
			}
		case lineContent:
			if doc.contentOff < 0 {
				doc.contentOff = l.start
				doc.contentLine = lineNo
			}
		}
		if kind == lineBlank || kind == lineComment || kind == lineContent {
			kRead = true
		}
		off = l.next
		lineNo++
	}
	if src.end == endEOF {
		if afterEnd > 0 {
			s.ignoredAfterEnd(&doc, afterEnd, endedByCR)
			return
		}
		doc.kEnd = kRead
		s.yamlDocument(&doc, off)
		return
	}
	line := lineNo
	if doc.contentOff >= 0 {
		line = doc.contentLine
	}
	s.ended(line, lineNo, doc.source, true)
}

// yamlDocument processes the document accumulated in doc, which ends at end.
func (s *stream) yamlDocument(doc *yamlDoc, end int64) {
	if doc.badSep != "" {
		s.jsonPending = nil
		s.queue([]Document{{
			Pos: Position{File: s.name, Line: doc.badSepLine, Item: -1, Source: doc.source},
			Err: (&Error{File: s.name, Line: doc.badSepLine,
				Msg: kubectlParseError(s.name, kubectlSeparatorError(doc.badSep)) + separatorHint(doc.badSep)}).halting(),
		}}, true)
		return
	}
	if doc.contentOff < 0 {
		if doc.kEnd {
			s.jsonPending = nil // kubectl's document holds nothing: read
		}
		return // only blank lines and comments
	}
	// A JSON error kubectl reports if this, the first YAML document it
	// tries after it, does not convert either.
	pj := s.jsonPending
	s.jsonPending = nil
	contentLine, source := doc.contentLine, doc.source
	kLines, kDash := contentLine-doc.kLine, doc.kDash
	lost := ""
	if doc.lostAt > 0 {
		lost = fmt.Sprintf("not created: kubectl fails on the invalid separator on line %d before it sends this document, and stops reading %s there", doc.lostAt, s.name)
	}
	if pj == nil && s.opts.Select != nil && s.opts.Unread != nil && s.opts.Unread(s.src.span(doc.contentOff, end)) {
		s.queueKnown(Document{Pos: Position{File: s.name, Line: contentLine, Item: -1, Source: source}, Unread: true})
		s.keepUnread(s.src.span(doc.contentOff, end), contentLine)
		return
	}
	// The stream's buffer is reused for what follows: the document keeps a copy.
	text := bytes.Clone(s.src.span(doc.contentOff, end))
	s.convert(len(text), func(f *inFlight) {
		text, notUTF8 := asKubectlReads(text, contentLine)
		js, dups, renamed, err := yamlToJSON(text)
		if err == nil && isJSONNull(js) {
			return // "null", "~", ...: empty document
		}
		f.indexed = true
		if err != nil && pj != nil && s.walked && s.jsonWithoutKind() {
			// A devcontainer.json or tsconfig.json with comments (IN-03).
			f.docs = []Document{{Pos: Position{File: s.name, Line: pj.startLine, Item: -1}, Skip: `not a Kubernetes object: not valid JSON, and no "kind"`}}
			return
		}
		if err != nil && pj == nil && s.walked && s.opts.chart == "" && text[0] != '%' && !bytes.Contains(text, []byte("kind")) && !bytes.Contains(text, []byte("{{")) {
			// A document that is not YAML and names no kind cannot be an
			// object either (IN-03): a KEP's metadata, a broken tool file.
			// (A "%YAML" directive before a "---" line is a document of
			// its own for kubectl: it fails on it.)
			f.docs = []Document{{Pos: Position{File: s.name, Line: contentLine, Item: -1, Source: source}, Skip: "not a Kubernetes object: not valid YAML, and no kind"}}
			return
		}
		if err != nil {
			line, ymsg := yamlErrorLine(err, text)
			kmsg := kubectlYAMLError(kubectlDoc(text, kLines, kDash))
			if kmsg == "" {
				kmsg = "error converting YAML to JSON: " + strings.TrimPrefix(ymsg, "invalid YAML: ")
			}
			msg := kubectlParseError(s.name, kmsg)
			switch i := bytes.Index(text, []byte("{{")); {
			case i >= 0 && s.opts.chart != "":
				// A chart's template that is not YAML until rendered: the
				// same error as one that is (IN-08), not the parser's.
				line, msg = 1+bytes.Count(text[:i], []byte{'\n'}), "holds template actions ({{ … }}) ("+unrendered(s.opts.chart)+")"
			case pj != nil:
				// kubectl's JSON error: the stream's first byte said JSON.
				line, msg = pj.line-contentLine+1, kubectlParseError(s.name, pj.msg)+templateHint(text)
			default:
				if hint := templateHint(text); hint != "" {
					if strings.HasPrefix(ymsg, "invalid YAML: invalid map key") {
						// {{ x }} read as a flow mapping: yaml gives no line.
						line = 1 + bytes.Count(text[:i], []byte{'\n'})
					}
					msg += hint
					break
				}
				if name, ok := strings.CutPrefix(ymsg, "invalid YAML: unknown anchor '"); ok {
					// The parser gives no line: the alias's own.
					if i := bytes.Index(text, []byte("*"+strings.TrimSuffix(name, "' referenced"))); i >= 0 {
						line = 1 + bytes.Count(text[:i], []byte{'\n'})
					}
				}
				msg += aliasHint(text, line)
			}
			abs := contentLine
			if line > 0 {
				abs = contentLine + line - 1
			}
			e := &Error{File: s.name, Line: abs, Msg: msg}
			if s.opts.chart == "" {
				e.halting() // kubectl cannot read on (IN-12)
			}
			f.docs = []Document{{Pos: Position{File: s.name, Line: contentLine, Item: -1, Source: source}, Err: e}}
			return
		}
		src := &docSrc{stream: s, source: source, text: text, lineBase: contentLine, dups: dups, yaml: true, notes: &f.notes}
		src.pending = notUTF8
		if renamed {
			src.pending = append(src.pending, renamedKeyWarnings(text, contentLine)...)
		}
		f.docs = src.run(js, contentLine)
		f.selected = src.selected
		if lost != "" {
			for i := range f.docs {
				notCreated(&f.docs[i], lost)
			}
		}
	})
}

// ignoredAfterEnd accounts for what follows a "..." line (afterEnd) up to
// the next "---" line: kubectl's reader keeps it in the document before,
// whose conversion reads one YAML document and never looks at the rest.
func (s *stream) ignoredAfterEnd(doc *yamlDoc, afterEnd int, byCR bool) {
	if doc.ignored == 0 {
		return
	}
	why := fmt.Sprintf(`not read: kubectl reads one YAML document from "---" to "---", and ignores what follows the document end marker "..." on line %d`, afterEnd)
	if byCR {
		why = fmt.Sprintf(`not read: kubectl's reader splits lines at line feeds only, and the "---" on line %d follows a carriage return: it is no separator for kubectl, whose converter reads one YAML document and ignores what follows it up to the next "---" line (save the file with LF or CRLF line breaks)`, afterEnd)
	}
	s.queue([]Document{{
		Pos:  Position{File: s.name, Line: doc.ignored, Item: -1},
		Skip: why,
	}}, true)
}

// separatorHint explains an invalid separator whose text follows it on its
// line, or, when that text holds carriage returns, on the lines kubectl's
// reader took for one (IN-16).
func separatorHint(rest string) string {
	if strings.IndexByte(rest, '\r') >= 0 {
		return ` (kubectl's reader splits lines at line feeds only, and the line breaks after this "---" are carriage returns: all up to the next line feed is on the separator's line; save the file with LF or CRLF line breaks)`
	}
	return ` ("---" may only be followed by a comment on its line)`
}

// loneCRAfter reports whether a line's break is a lone "\r", which YAML
// takes for a line break and kubectl's reader does not (IN-16).
func loneCRAfter(brk []byte) bool {
	return len(brk) == 1 && brk[0] == '\r'
}

// separatorLine reads the rest of kubectl's line for a "---" line l (its
// text) that ends with a lone "\r": kubectl's reader takes everything up to
// the next "\n" as the separator line, and what follows "---" on it must be
// white space or a comment (IN-16). It returns the separator's kind and what
// follows it, the first line with content after the "---" line (0 if none),
// and the last line of kubectl's (lineNo is the first's) and its number;
// keep must keep l.
func (s *stream) separatorLine(text []byte, l absLine, keep, chunk int64, lineNo int) (lineKind, string, int, absLine, int, lineStatus) {
	src := s.src
	rest := bytes.Clone(text[3:])
	content := 0
	for loneCRAfter(src.span(l.end, l.next)) {
		next, st := s.readLine(l.next, keep, chunk)
		if st == lineTooLong {
			return 0, "", 0, l, lineNo, st
		}
		if st == lineNone {
			break
		}
		l = next
		lineNo++
		t := src.span(l.start, l.end)
		if k, _ := classify(t); k != lineBlank && k != lineComment && content == 0 {
			content = lineNo
		}
		rest = append(append(rest, '\r'), t...)
	}
	trimmed := strings.TrimSpace(string(rest))
	if trimmed == "" || trimmed[0] == '#' {
		return lineDocStart, trimmed, content, l, lineNo, lineOK
	}
	return lineBadStart, trimmed, 0, l, lineNo, lineOK
}

// maxUnreadKept bounds the unread documents a stream keeps until it knows
// whether it needs them (haltBefore); past it, the oldest is checked at once.
const maxUnreadKept = 1 << 20

// unreadDoc is a document left unread, kept to be checked for an error that
// stops kubectl only if a document read after it needs to know (IN-12).
type unreadDoc struct {
	text []byte
	line int
	seq  int
}

// unreadHalt is an error that stops kubectl, found in the unread document seq.
type unreadHalt struct {
	seq, line int
}

// keepUnread keeps a copy of the unread document text, the one queued last.
func (s *stream) keepUnread(text []byte, line int) {
	if s.haltLine > 0 || len(s.unreadHalts) > 0 {
		return // kubectl stops before it anyway
	}
	s.unread = append(s.unread, unreadDoc{text: bytes.Clone(text), line: line, seq: s.seq})
	s.unreadBytes += len(text)
	for s.unreadBytes > maxUnreadKept && len(s.unread) > 0 {
		s.checkUnread(s.unread[0])
		s.unreadBytes -= len(s.unread[0].text)
		s.unread[0] = unreadDoc{}
		s.unread = s.unread[1:]
	}
}

// checkUnread converts an unread document, as the other documents are, to
// find whether kubectl stops reading at it, and records where if so.
func (s *stream) checkUnread(u unreadDoc) {
	if s.haltLine > 0 || len(s.unreadHalts) > 0 {
		return // only the first such error matters
	}
	js, _, _, err := yamlToJSON(u.text)
	if err != nil {
		if s.opts.chart == "" {
			line, _ := yamlErrorLine(err, u.text)
			s.unreadHalts = append(s.unreadHalts, unreadHalt{seq: u.seq, line: u.line + max(line, 1) - 1})
		}
		return
	}
	if isJSONNull(js) {
		return
	}
	var notes []Note
	src := &docSrc{stream: s, text: u.text, lineBase: u.line, yaml: true, notes: &notes}
	for _, d := range src.run(js, u.line) {
		if d.Err != nil && d.Err.halts {
			s.unreadHalts = append(s.unreadHalts, unreadHalt{seq: u.seq, line: d.Err.Line})
			return
		}
	}
}

// haltBefore is called before the document seq is emitted: when it was read
// (selected), the unread documents before it are checked; an error that
// stops kubectl found in one of them takes effect (haltLine).
func (s *stream) haltBefore(seq int, selected bool) {
	if selected {
		k := 0
		for ; k < len(s.unread) && s.unread[k].seq < seq; k++ {
			s.checkUnread(s.unread[k])
			s.unreadBytes -= len(s.unread[k].text)
			s.unread[k] = unreadDoc{}
		}
		s.unread = s.unread[k:]
	}
	if s.haltLine == 0 && len(s.unreadHalts) > 0 && s.unreadHalts[0].seq < seq {
		s.haltLine = s.unreadHalts[0].line
		s.unread, s.unreadBytes, s.unreadHalts = nil, 0, nil
	}
}

// yamlToJSON is sigs.k8s.io/yaml.YAMLToJSON (what kubectl uses), turning any
// panic in the YAML library into an error. dups reports that the document may
// have duplicate mapping keys, which YAMLToJSON silently resolves (the last
// one wins). The fast conversion (fastyaml.go) gives the strict conversion's
// bytes for most documents; for the others, yamlToJSONRef runs.
// renamed says that a plain key may have been read as a boolean or a number
// (always so after the slow path, which does not say).
func yamlToJSON(text []byte) (js []byte, dups, renamed bool, err error) {
	if js, renamed, ok := fastYAMLToJSONSafe(text); ok {
		return js, false, renamed, nil
	}
	js, dups, err = yamlToJSONRef(text)
	return js, dups, true, err
}

// fastYAMLToJSONSafe is fastYAMLToJSON, declining on a panic.
func fastYAMLToJSONSafe(text []byte) (js []byte, renamed, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			js, renamed, ok = nil, false, false
		}
	}()
	return fastYAMLToJSON(text)
}

// yamlToJSONRef is yamlToJSON by sigs.k8s.io/yaml alone: the strict
// conversion is tried first, at no extra cost, and only when it fails is the
// lenient one run for the result.
func yamlToJSONRef(text []byte) (js []byte, dups bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			js, dups, err = nil, false, fmt.Errorf("internal error in YAML parser: %v", r)
		}
	}()
	js, err = yaml.YAMLToJSONStrict(text)
	if err == nil {
		// Keys written differently may still be one once converted (1 and
		// "1"): the strict conversion sees no duplicate, and the JSON holds
		// one of their values at random. The caller checks the nodes when
		// the text has a key that may be one.
		return js, mayCollide(text), nil
	}
	// The strict conversion also fails for keys that override keys merged
	// with "<<", which are not duplicates: the caller checks the nodes.
	dups = strings.Contains(err.Error(), " already set in map")
	js, err = yaml.YAMLToJSON(text)
	return js, dups && err == nil, err
}

// mayCollide reports whether a YAML document's text may hold a mapping key
// that yaml v2 resolves to a number or a boolean (plainKeyString): two keys
// need one to be one once converted to JSON without being duplicates. It
// looks for a plain scalar where a key can be (keyPosition) followed by ':'
// and a space, a line break, ',', '}' or the end of the text, or by ',' or
// '}' (a key of a flow mapping without a value, as in "{a, 0}"); a complex
// key ("? "); an explicit tag ("!!"). It errs towards true: the nodes
// decide (dupFinder.collisions).
func mayCollide(text []byte) bool {
	if bytes.Contains(text, []byte("!!")) {
		return true // an explicit !!int, !!float or !!bool key, perhaps
	}
	for i, c := range text {
		next := byte('\n')
		if i+1 < len(text) {
			next = text[i+1]
		}
		switch {
		case c == '?' && (next == ' ' || next == '\n' || next == '\r' || next == '\t'):
			return true
		case c == ',' || c == '}':
		case c != ':':
			continue
		case next != ' ' && next != '\n' && next != '\r' && next != '\t' && next != ',' && next != '}':
			continue
		}
		end := i
		for end > 0 && (text[end-1] == ' ' || text[end-1] == '\t') {
			end--
		}
		start := end
		for start > 0 && !scalarBoundary(text[start-1]) {
			start--
		}
		if start < end && mayResolve(text[start:end]) && keyPosition(text, start) {
			if _, str, _ := plainKeyString(string(text[start:end])); !str {
				return true
			}
		}
	}
	return false
}

func scalarBoundary(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '{' || c == '[' || c == ','
}

// keyPosition reports whether a scalar starting at start is where a mapping
// key can be: first on its line but for indentation, sequence indicators
// ("- "), a tag or an anchor, or after '{', '[', ',' or '?'. Text such as
// "step 1: do this" in a description or a comment is not.
func keyPosition(text []byte, start int) bool {
	for {
		j := start
		for j > 0 && (text[j-1] == ' ' || text[j-1] == '\t') {
			j--
		}
		if j == 0 {
			return true
		}
		switch c := text[j-1]; {
		case c == '\n' || c == '\r' || c == '{' || c == '[' || c == ',' || c == '?':
			return true
		case c == '-':
			start = j - 1 // a sequence indicator (or "---"): what comes before it decides
			continue
		}
		// A tag or an anchor before the key ("!t 1:", "&a 1:").
		k := j
		for k > 0 && !scalarBoundary(text[k-1]) {
			k--
		}
		if k == j || (text[k] != '!' && text[k] != '&') {
			return false
		}
		start = k
	}
}

func isJSONNull(js []byte) bool {
	return string(bytes.TrimSpace(js)) == "null"
}

// readJSON reads a stream of concatenated JSON values from off on; line is
// the line of off, counting "\n" only.
func (s *stream) readJSON(off int64, line int) {
	src := s.src
	// kubectl's decoder: the values it decoded, and where the last ended.
	decoded, prevEnd, prevLine := 0, off, line
	for {
		// Skip white space, counting lines. For reading the rest as YAML
		// (skipJSONSpace) once the buffer no longer holds the last value's
		// end: whether a line break follows it (broke), and where the line
		// of the next value starts, which is kept.
		broke, lineStart := false, int64(-1)
		for {
			b := src.at(off)
			i := 0
			for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
				if b[i] == '\n' {
					broke, lineStart = true, off+int64(i)+1
					line++
				}
				i++
			}
			off += int64(i)
			if i < len(b) || src.done() {
				break
			}
			keep := off
			if decoded <= 1 && broke && off-lineStart <= s.maxDoc {
				keep = lineStart
			}
			src.more(keep)
		}
		if off >= src.limit() {
			if !s.nulInJSON(off, line, decoded) {
				s.ended(line, line, "", false)
			}
			return
		}
		start, startLine := off, line
		f := &feed{src: src, pos: start, keep: prevEnd, limit: start + s.maxDoc + 1}
		dec := json.NewDecoder(f)
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if err == nil && int64(len(raw)) > s.maxDoc {
			err = errFeedLimit
		}
		if err != nil {
			switch {
			case err == errFeedLimit:
				s.tooLarge(startLine, "")
			case err == errFeedEnd:
				if !s.nulInJSON(start, startLine, decoded) {
					s.ended(startLine, startLine+bytes.Count(src.span(start, min(src.limit(), max(src.nulAt, start))), []byte{'\n'}), "", false)
				}
			case errors.Is(err, io.EOF):
			case decoded <= 1:
				// kubectl is not sure yet that the stream is JSON: it
				// reads the rest as YAML, from the end of the last value
				// (yamlDocument says the JSON error if that fails too).
				s.jsonPending = s.pendingJSON(err, start, startLine)
				switch {
				case prevEnd >= src.base:
					off, line = s.skipJSONSpace(prevEnd, prevLine)
					s.readYAML(off, line, line)
				case !broke: // skipJSONSpace would stop at the value
					s.readYAML(start, startLine, startLine)
				case lineStart >= src.base: // after white space lines
					s.readYAML(lineStart, startLine, prevLine+1)
				default: // a line of white space longer than a document
					s.readYAML(start, startLine, prevLine+1)
				}
			case s.walked && s.jsonWithoutKind():
				// A devcontainer.json or tsconfig.json with comments (IN-03).
				s.queue([]Document{{Pos: Position{File: s.name, Line: startLine, Item: -1}, Skip: `not a Kubernetes object: not valid JSON, and no "kind"`}}, true)
			default:
				s.jsonError(err, start, startLine)
			}
			return
		}
		off = start + dec.InputOffset()
		line += bytes.Count(raw, []byte{'\n'})
		s.jsonExtra += kubectlExtra(raw)
		decoded++
		prevEnd, prevLine = off, line
		if isJSONNull(raw) {
			continue
		}
		idx := s.index
		s.index++
		switch {
		case raw[0] != '{' && s.walked:
			s.emit([]Document{{Pos: Position{File: s.name, Line: startLine, Index: idx, Item: -1}, Skip: "not a Kubernetes object: not a JSON object"}})
		case raw[0] != '{':
			s.emit([]Document{{
				Pos: Position{File: s.name, Line: startLine, Index: idx, Item: -1},
				Err: &Error{File: s.name, Line: startLine, Msg: "expected a JSON object"},
			}})
		default:
			raw, notUTF8 := asKubectlReads(raw, startLine)
			d := &docSrc{stream: s, index: idx, text: raw, lineBase: startLine, pending: notUTF8}
			docs := d.run(raw, startLine)
			if needsKubectlForm(docs) {
				if js, dups, ok := kubectlJSON(raw); ok {
					d = &docSrc{stream: s, index: idx, text: raw, lineBase: startLine, dups: dups, pending: notUTF8}
					docs = d.run(js, startLine)
				}
			}
			s.emit(docs)
		}
		if s.stopped {
			return
		}
	}
}

// maxDrain bounds what is read of a stream of unknown size after a JSON
// syntax error, only to say how much was not read.
const maxDrain = 4 << 20

// jsonWithoutKind reports whether the file s reads, found not to be valid
// JSON, cannot hold a Kubernetes object: "kind" is nowhere in it, nor a
// template action. It is read again whole, once, if it is a regular file of
// at most a document's size.
func (s *stream) jsonWithoutKind() bool {
	info, err := os.Stat(s.name)
	if err != nil || !info.Mode().IsRegular() || info.Size() > s.maxDoc {
		return false
	}
	data, err := os.ReadFile(s.name)
	data = fromUTF16(data) // as the stream was read
	return err == nil && !bytes.Contains(data, []byte(`"kind"`)) && !bytes.Contains(data, []byte("{{"))
}

// nulInJSON reports a NUL byte in the JSON value starting at start (line
// startLine), after decoded values, as kubectl's JSON decoder words it (with
// its offset while kubectl may still read YAML, which fails on the NUL too),
// the reason limitcheck stops after it in parentheses (IN-01). It reports
// whether there was one.
func (s *stream) nulInJSON(start int64, startLine, decoded int) bool {
	src := s.src
	if src.end != endNUL || start < src.base || start > src.nulAt {
		return false
	}
	var raw json.RawMessage
	err := json.NewDecoder(bytes.NewReader(append(bytes.Clone(src.span(start, src.nulAt)), 0))).Decode(&raw)
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return false
	}
	msg := se.Error()
	if decoded <= 1 {
		msg = s.pendingJSON(se, start, startLine).msg
	}
	line := startLine + bytes.Count(src.span(start, src.nulAt), []byte{'\n'})
	s.errorDoc(startLine, line, "", kubectlParseError(s.name, msg)+fmt.Sprintf(" (binary data, not YAML or JSON: a NUL byte at offset %d; %s)", src.nulAt, s.rest()))
	return true
}

// pendingJSON is the JSON error err in the value starting at start, as
// kubectl words it when the YAML reading after it fails too: a syntax
// error with its offset in the stream.
func (s *stream) pendingJSON(err error, start int64, startLine int) *pendingJSON {
	p := &pendingJSON{msg: err.Error(), line: startLine, startLine: startLine}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		// The offset is in the stream kubectl decodes, where each byte
		// that is not UTF-8 has become U+FFFD, three bytes (IN-05).
		extra := s.jsonExtra
		if end := min(start+se.Offset, s.src.limit()); end > start {
			extra += kubectlExtra(s.src.span(start, end))
		}
		p.msg = fmt.Sprintf("json: offset %d: %s", start+se.Offset-s.origin+extra, se.Error())
		if bad := start + se.Offset - 1; se.Offset > 0 && bad < s.src.limit() {
			p.line += bytes.Count(s.src.span(start, bad), []byte{'\n'})
		}
	}
	return p
}

// skipJSONSpace skips, as kubectl does before it reads YAML after a JSON
// error, the white space from off (on line) up to the end of its line.
func (s *stream) skipJSONSpace(off int64, line int) (int64, int) {
	src := s.src
	for {
		for off+utf8.UTFMax > src.limit() && !src.done() {
			src.more(off)
		}
		if off >= src.limit() {
			return off, line
		}
		switch b := src.at(off); b[0] {
		case ' ', '\t', '\r':
			off++
		case '\n':
			return off + 1, line + 1
		default:
			n := otherSpace(b, true)
			if n <= 0 {
				return off, line
			}
			off += int64(n)
		}
	}
}

// otherSpace is the length of the white space character b starts with, as
// kubectl's unicode.IsSpace sees it, other than a space, a tab or a line
// break (a form feed, a no-break space, U+2003), or 0: kubectl skips them
// before it looks for the "{" of a JSON stream and before it reads YAML after
// JSON fails (IN-14). -1 when b holds only part of a character and more may
// come (done false).
func otherSpace(b []byte, done bool) int {
	if len(b) == 0 {
		return 0
	}
	if b[0] < utf8.RuneSelf {
		if b[0] == '\v' || b[0] == '\f' {
			return 1
		}
		return 0
	}
	if !done && !utf8.FullRune(b) {
		return -1
	}
	r, size := utf8.DecodeRune(b)
	if r != utf8.RuneError && unicode.IsSpace(r) {
		return size
	}
	return 0
}

// jsonError reports a JSON syntax error in the value starting at start; the
// rest of the stream cannot be read (there is no way to resynchronise).
// kubectl, sure by then that the stream is JSON, gives the decoder's words.
func (s *stream) jsonError(err error, start int64, startLine int) {
	src := s.src
	errLine := startLine
	msg := err.Error()
	var se *json.SyntaxError
	if errors.As(err, &se) {
		msg = se.Error()
		if bad := start + se.Offset - 1; se.Offset > 0 && bad < src.limit() {
			errLine += bytes.Count(src.span(start, bad), []byte{'\n'})
			if n, blank, ok := src.remaining(bad+1, maxDrain); !ok {
				msg += "; " + s.rest()
			} else if !blank {
				verb := "were"
				if n == 1 {
					verb = "was"
				}
				msg += fmt.Sprintf("; the remaining %s of %s %s not read", countBytes(n), s.name, verb)
			}
		}
	}
	s.errorDoc(startLine, errLine, "", kubectlParseError(s.name, msg))
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
