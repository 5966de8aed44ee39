package render

import (
	"bufio"
	"bytes"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/limitcheck/limitcheck/internal/check"
)

// A Streamer is a Format that takes a run's entries as check decides them
// (check.Options.Stream) and keeps nothing of them in memory but where it
// put them, so that a run's memory does not grow with its input. Its output
// is byte for byte what Render writes for the same run.
type Streamer interface {
	Format
	// Stream starts a report written to w.
	Stream(w io.Writer, o Options) Stream
}

// A Stream writes one report: Entry takes each entry check hands out, in
// order; Finish then writes the report, whose Entries are all the others.
type Stream interface {
	// Entry takes one entry; it returns true when the report must keep it.
	Entry(e *check.Entry) (keep bool)
	// Finish writes the report and releases what the stream held; the only
	// errors are those of writing (to the output or the spool).
	Finish(r *check.Report) error
	// Discard releases what the stream held when the run ends without a
	// report (an input error).
	Discard()
}

// spool holds what a stream will print later: a temporary file, or memory
// where no temporary file can be made.
type spool struct {
	file *os.File
	mem  *bytes.Buffer
	w    *bufio.Writer
	size int64
	err  error
}

// write appends b and returns where it starts.
func (s *spool) write(b []byte) int64 {
	if s.w == nil && s.err == nil {
		if f, err := os.CreateTemp("", "limitcheck-report-*"); err == nil {
			s.file, s.w = f, bufio.NewWriterSize(f, 64<<10)
		} else {
			s.mem = &bytes.Buffer{}
			s.w = bufio.NewWriter(s.mem)
		}
	}
	off := s.size
	if s.err == nil {
		_, s.err = s.w.Write(b)
		s.size += int64(len(b))
	}
	return off
}

// reader returns a reader of everything written, from the start.
func (s *spool) reader() (io.Reader, error) {
	if s.err != nil || s.w == nil {
		return bytes.NewReader(nil), s.err
	}
	if err := s.w.Flush(); err != nil {
		return nil, err
	}
	if s.file != nil {
		return bufio.NewReaderSize(io.NewSectionReader(s.file, 0, s.size), 64<<10), nil
	}
	return bytes.NewReader(s.mem.Bytes()), nil
}

// readAt reads len(b) bytes written at off (after reader flushed them).
func (s *spool) readAt(b []byte, off int64) error {
	if s.file != nil {
		_, err := s.file.ReadAt(b, off)
		return err
	}
	copy(b, s.mem.Bytes()[off:])
	return nil
}

// writeRange writes the bytes written from off to end to w (after reader
// flushed them).
func (s *spool) writeRange(w io.Writer, off, end int64) error {
	if s.file != nil {
		_, err := io.Copy(w, io.NewSectionReader(s.file, off, end-off))
		return err
	}
	_, err := w.Write(s.mem.Bytes()[off:end])
	return err
}

// remove deletes the spool.
func (s *spool) remove() {
	if s.file != nil {
		s.file.Close()
		os.Remove(s.file.Name())
	}
	*s = spool{}
}

// textStream writes each finding of an entry to the spool as it comes,
// remembering only its namespace and place, and counts the skipped
// documents; Finish prints the findings grouped by namespace.
type textStream struct {
	w       io.Writer
	o       Options
	p       palette
	spool   spool
	groups  map[string]*textGroup
	skipped map[string]map[string]int // reason → kind → count
}

// textGroup is the findings of one namespace ("" for none), in entry order.
type textGroup struct {
	ns    string
	items []textItem
}

// textItem is one entry's findings: in the spool at off (n bytes), or the
// report's entry e.
type textItem struct {
	seq int
	e   *check.Entry
	off int64
	n   int
}

func (textFormat) Stream(w io.Writer, o Options) Stream {
	return &textStream{w: w, o: o, p: newPalette(o.Color), groups: map[string]*textGroup{}, skipped: map[string]map[string]int{}}
}

// take files an entry: its findings under its namespace, a skipped object
// under its reason.
func (t *textStream) take(e *check.Entry, held bool) {
	// The cluster's own classes (--from-cluster) are not the input's. A
	// document that is no object at all is listed on its own line, or with
	// Quiet only counted, under no kind.
	counted := e.Err == nil && e.Result.Skipped && !e.Live && (e.Result.Kind != "" || t.o.Quiet)
	if counted {
		kinds := t.skipped[e.Result.SkipReason]
		if kinds == nil {
			kinds = map[string]int{}
			t.skipped[e.Result.SkipReason] = kinds
		}
		kinds[e.Result.Kind]++
	}
	if !hasFinding(e) || counted && e.Result.Kind == "" {
		return
	}
	g := t.groups[e.Result.Namespace]
	if g == nil {
		g = &textGroup{ns: e.Result.Namespace}
		t.groups[g.ns] = g
	}
	item := textItem{seq: e.Seq}
	if held {
		item.e = e
	} else {
		var b strings.Builder
		writeFinding(&b, t.p, e)
		item.off, item.n = t.spool.write([]byte(b.String())), b.Len()
	}
	g.items = append(g.items, item)
}

func (t *textStream) Entry(e *check.Entry) bool {
	t.take(e, false)
	return false
}

func (t *textStream) Finish(r *check.Report) error {
	defer t.Discard()
	for i := range r.Entries {
		t.take(&r.Entries[i], true)
	}
	if _, err := t.spool.reader(); err != nil {
		return err
	}
	// Namespaces in order of their first finding, findings in entry order;
	// those without a namespace (documents that could not be read,
	// cluster-scoped objects) first, under no header.
	groups := make([]*textGroup, 0, len(t.groups))
	for _, g := range t.groups {
		slices.SortStableFunc(g.items, func(a, b textItem) int { return a.seq - b.seq })
		groups = append(groups, g)
	}
	slices.SortFunc(groups, func(a, b *textGroup) int {
		switch {
		case a.ns == "":
			return -1
		case b.ns == "":
			return 1
		}
		if d := a.items[0].seq - b.items[0].seq; d != 0 {
			return d
		}
		return strings.Compare(a.ns, b.ns) // entries without Seq (a report built by hand)
	})
	out := bufio.NewWriterSize(t.w, 64<<10)
	var buf []byte
	for _, g := range groups {
		if g.ns != "" {
			out.WriteString(t.p.header.Sprint("namespace "+Escape(g.ns)+":") + "\n")
		}
		for _, it := range g.items {
			if it.e != nil {
				var b strings.Builder
				writeFinding(&b, t.p, it.e)
				out.WriteString(b.String())
				continue
			}
			buf = slices.Grow(buf[:0], it.n)[:it.n]
			if err := t.spool.readAt(buf, it.off); err != nil {
				return err
			}
			out.Write(buf)
		}
	}
	var b strings.Builder
	writeTail(&b, t.p, r, t.skipped, t.o)
	out.WriteString(b.String())
	return out.Flush()
}

func (t *textStream) Discard() { t.spool.remove() }

// jsonStream encodes each entry it is handed into the spool as the report
// prints it, indented and followed by ",\n"; Finish writes the document,
// copying the spool's bytes and putting the report's own entries in among
// them by Seq.
//
// Entry only builds the result (newJSONResult), on the caller's goroutine:
// the result holds nothing of the engine's objects, so it is encoded and
// spooled on a goroutine of its own (encode), in the order given, while the
// caller goes on admitting.
type jsonStream struct {
	w     io.Writer
	o     Options
	spool spool
	n     int // results in the spool

	queue chan queuedResult // to encode; nil until the first entry
	done  chan struct{}     // closed when encode has spooled the last
	buf   []byte            // one result encoded (encode's)
	enc   jw                // the encoder of every result, its scratch reused (encode's)
	// last is the Seq of the last result spooled; gaps, where a result
	// whose Seq does not follow it starts: the report's own entries go
	// there (encode's, read by Finish after drain).
	last int
	gaps []spoolGap
}

// spoolGap is where, in the spool, a result follows a gap in the Seqs.
type spoolGap struct {
	seq int   // the result's
	off int64 // where it starts
}

type queuedResult struct {
	seq int
	r   jsonResult
}

func (jsonFormat) Stream(w io.Writer, o Options) Stream {
	return &jsonStream{w: w, o: o, last: -1}
}

func (j *jsonStream) Entry(e *check.Entry) bool {
	r := newJSONResult(e)
	if p := r.jsonPod; p != nil {
		p.Annotations = maps.Clone(p.Annotations) // the Pod's own map
	}
	if j.queue == nil {
		j.queue, j.done = make(chan queuedResult, 64), make(chan struct{})
		go j.encode()
	}
	j.queue <- queuedResult{e.Seq, r}
	j.n++
	return false
}

// resultIndent starts each result of the report's list.
const resultIndent = "    "

// encode spools the queued results.
func (j *jsonStream) encode() {
	defer close(j.done)
	for q := range j.queue {
		if q.seq != j.last+1 {
			j.gaps = append(j.gaps, spoolGap{q.seq, j.spool.size})
		}
		j.last = q.seq
		j.buf = append(j.buf[:0], resultIndent...)
		j.buf = j.enc.result(j.buf, &q.r, resultIndent)
		j.buf = append(j.buf, ",\n"...)
		j.spool.write(j.buf)
	}
}

// drain waits until every result handed to Entry is spooled.
func (j *jsonStream) drain() {
	if j.queue != nil {
		close(j.queue)
		<-j.done
		j.queue = nil
	}
}

// before returns where in the spool the report's entry of Seq seq goes:
// before the first result spooled after it.
func (j *jsonStream) before(seq int) int64 {
	if j.n == 0 || seq > j.last {
		return j.spool.size
	}
	i, _ := slices.BinarySearchFunc(j.gaps, seq, func(g spoolGap, seq int) int { return g.seq - seq })
	return j.gaps[i].off // a gap follows every Seq not spooled
}

func (j *jsonStream) Finish(r *check.Report) error {
	defer j.Discard()
	j.drain()
	if _, err := j.spool.reader(); err != nil {
		return err
	}
	doc := newJSONReport(r, j.o, false)
	// The document is jsonReport, written field by field, the results
	// copied from the spool, so that no more than one result is held
	// encoded at a time; the bytes are those of encoding jsonReport whole
	// (TestJSONStreamed).
	e := newIndenter(j.w)
	e.raw("{\n")
	e.field("schemaVersion", doc.SchemaVersion)
	e.field("version", doc.Version)
	e.field("summary", doc.Summary)
	e.raw(`  "results": `)
	if len(r.Entries)+j.n == 0 {
		e.raw("[],\n")
	} else {
		e.raw("[\n")
		// Every result but the last is followed by ",\n".
		var at int64
		for i := range r.Entries {
			to := j.before(r.Entries[i].Seq)
			e.copy(&j.spool, at, to)
			at = to
			res := newJSONResult(&r.Entries[i])
			j.buf = append(j.buf[:0], resultIndent...)
			j.buf = j.enc.result(j.buf, &res, resultIndent)
			if i < len(r.Entries)-1 || at < j.spool.size {
				j.buf = append(j.buf, ',')
			}
			e.rawBytes(append(j.buf, '\n'))
		}
		if at < j.spool.size {
			e.copy(&j.spool, at, j.spool.size-2)
			e.raw("\n")
		}
		e.raw("  ],\n")
	}
	e.field("notes", doc.Notes)
	e.raw(`  "quotas": `)
	e.value(doc.Quotas, "  ")
	e.raw("\n}\n")
	return e.flush()
}

func (j *jsonStream) Discard() {
	j.drain()
	j.spool.remove()
}
