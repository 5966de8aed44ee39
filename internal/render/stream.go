package render

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"

	"github.com/limitcheck/limitcheck/internal/check"
)

// A Streamer is a Format that takes a run's entries as check decides them
// (check.Options.Stream) and keeps only what it still needs, so that a run's
// memory does not grow with its input. Its output is byte for byte what
// Render writes for the same run.
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
	// errors are those of writing.
	Finish(r *check.Report) error
	// Discard releases what the stream held when the run ends without a
	// report (an input error).
	Discard()
}

// textStream keeps the entries the text report shows (findings, skipped
// documents) without their objects; the rest only count.
type textStream struct {
	w io.Writer
	o Options
}

func (textFormat) Stream(w io.Writer, o Options) Stream { return &textStream{w: w, o: o} }

func (t *textStream) Entry(e *check.Entry) bool {
	if !hasFinding(e) && !(e.Err == nil && e.Result.Skipped) {
		return false
	}
	// The text report reads the verdicts and messages, never the objects.
	e.Result.Object = nil
	if w := e.Result.Workload; w != nil {
		for i := range w.Created {
			w.Created[i].Object = nil
		}
	}
	return true
}

func (t *textStream) Finish(r *check.Report) error { return textFormat{}.Render(t.w, r, t.o) }

func (t *textStream) Discard() {}

// jsonStream encodes each entry it is handed into a spool, a temporary file
// (or memory, where no temporary file can be made), as records of the entry's
// Seq, the length and the encoded result; Finish writes the document, the
// report's own entries merged in by Seq.
type jsonStream struct {
	w     io.Writer
	o     Options
	file  *os.File
	mem   *bytes.Buffer
	spool *bufio.Writer
	enc   *indenter // encodes one result at a time
	n     int       // records in the spool
	err   error
}

func (jsonFormat) Stream(w io.Writer, o Options) Stream {
	return &jsonStream{w: w, o: o, enc: &indenter{}}
}

func (j *jsonStream) Entry(e *check.Entry) bool {
	if j.err != nil {
		return false
	}
	if j.spool == nil {
		if f, err := os.CreateTemp("", "limitcheck-report-*"); err == nil {
			j.file, j.spool = f, bufio.NewWriterSize(f, 64<<10)
		} else {
			j.mem = &bytes.Buffer{}
			j.spool = bufio.NewWriter(j.mem)
		}
	}
	b, err := j.enc.encode(newJSONResult(e), "    ")
	if err != nil {
		j.err = err
		return false
	}
	var head [2 * binary.MaxVarintLen64]byte
	n := binary.PutUvarint(head[:], uint64(e.Seq))
	n += binary.PutUvarint(head[n:], uint64(len(b)))
	if _, err := j.spool.Write(head[:n]); err != nil {
		j.err = err
		return false
	}
	if _, err := j.spool.Write(b); err != nil {
		j.err = err
		return false
	}
	j.n++
	return false
}

// spooled reads the spool's records back in order.
type spooled struct {
	r    *bufio.Reader
	left int
	seq  int
	body []byte
	err  error
}

// next reads the next record; false at the end or on an error (err).
func (s *spooled) next() bool {
	if s.left == 0 || s.err != nil {
		return false
	}
	s.left--
	seq, err := binary.ReadUvarint(s.r)
	if err != nil {
		s.err = err
		return false
	}
	size, err := binary.ReadUvarint(s.r)
	if err != nil {
		s.err = err
		return false
	}
	s.seq = int(seq)
	if uint64(cap(s.body)) < size {
		s.body = make([]byte, size)
	}
	s.body = s.body[:size]
	if _, err := io.ReadFull(s.r, s.body); err != nil {
		s.err = err
		return false
	}
	return true
}

func (j *jsonStream) Finish(r *check.Report) error {
	defer j.Discard()
	if j.err != nil {
		return j.err
	}
	sp := &spooled{left: j.n}
	if j.spool != nil {
		if err := j.spool.Flush(); err != nil {
			return err
		}
		if j.file != nil {
			sp.r = bufio.NewReaderSize(io.NewSectionReader(j.file, 0, 1<<62), 64<<10)
		} else {
			sp.r = bufio.NewReader(j.mem)
		}
	}
	doc := newJSONReport(r, j.o, false)
	// The document is jsonReport, written field by field and result by result
	// so that no more than one result is held encoded at a time; the bytes are
	// those of encoding jsonReport whole (TestJSONStreamed).
	e := newIndenter(j.w)
	e.raw("{\n")
	e.field("schemaVersion", doc.SchemaVersion)
	e.field("version", doc.Version)
	e.field("summary", doc.Summary)
	e.raw(`  "results": `)
	total := len(r.Entries) + j.n
	if total == 0 {
		e.raw("[],\n")
	} else {
		e.raw("[\n")
		written, held := 0, 0
		more := sp.next()
		for written < total && e.err == nil {
			e.raw("    ")
			if held < len(r.Entries) && (!more || r.Entries[held].Seq < sp.seq) {
				e.value(newJSONResult(&r.Entries[held]), "    ")
				held++
			} else if more {
				e.raw(string(sp.body))
				more = sp.next()
			} else {
				return errors.New("the report's spool ended early")
			}
			written++
			if written < total {
				e.raw(",")
			}
			e.raw("\n")
		}
		if sp.err != nil {
			return sp.err
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
	if j.file != nil {
		j.file.Close()
		os.Remove(j.file.Name())
		j.file = nil
	}
	j.mem, j.spool = nil, nil
}
