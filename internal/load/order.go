package load

import (
	"fmt"
	"runtime"
	"sync"
)

// Documents of a YAML stream are converted and decoded on every core while
// the stream is split on one: each top-level document becomes an inFlight,
// queued in stream order, and the queue is emitted from its head as the
// documents finish, so what is yielded, and in which order, is the same
// whatever GOMAXPROCS is. A document takes its Index when it is emitted:
// only then is it known whether the documents before it were empty.
//
// Documents go to the workers in batches, and the workers live as long as
// the process: a goroutine and a channel handoff per document, and a fresh
// stack grown again by every document's recursive descent, cost more than
// a second core gives back.

// inFlight is one top-level document being converted.
type inFlight struct {
	done    chan struct{} // closed when docs and notes are set
	docs    []Document
	notes   []Note
	indexed bool // takes an Index (false: an empty document)
	work    func(f *inFlight)
	file    string // for an internal error
	// seq numbers the stream's documents in order (stream.seq); selected
	// says one of docs was decoded (Options.Select), which needs to know
	// whether a document before it, left unread, stops kubectl (IN-12).
	seq      int
	selected bool
}

const (
	// maxInFlight bounds the documents converted ahead of the one emitted
	// next, per core.
	maxInFlight = 64
	// batchDocs and batchBytes bound a batch: it is sent to a worker when
	// either is reached, or when the stream waits for one of its documents.
	batchDocs  = 16
	batchBytes = 32 << 10
)

// workers is how many documents of a stream are converted at once.
func workers() int { return runtime.GOMAXPROCS(0) }

var (
	poolOnce sync.Once
	poolJobs chan []*inFlight
)

// pool returns the channel of the process's conversion workers, starting
// them on first use.
func pool() chan<- []*inFlight {
	poolOnce.Do(func() {
		n := workers()
		poolJobs = make(chan []*inFlight, n)
		for range n {
			go func() {
				for batch := range poolJobs {
					for _, f := range batch {
						f.run()
					}
				}
			}()
		}
	})
	return poolJobs
}

// run does f's work and marks it done, turning a panic into an error
// document.
func (f *inFlight) run() {
	defer func() {
		if r := recover(); r != nil {
			f.docs = []Document{{Pos: Position{File: f.file, Line: 1, Item: -1},
				Err: &Error{File: f.file, Line: 1, Msg: fmt.Sprintf("internal error: %v", r)}}}
			f.indexed = true
		}
		f.work = nil
		close(f.done)
	}()
	f.work(f)
}

// queue adds a document whose outcome is already known (an error found while
// splitting) after those in flight.
func (s *stream) queue(docs []Document, indexed bool) {
	s.seq++
	if len(s.inFlight) == 0 {
		s.emitDone(&inFlight{docs: docs, indexed: indexed, seq: s.seq}) // nothing to wait for
		return
	}
	s.inFlight = append(s.inFlight, &inFlight{done: closed, docs: docs, indexed: indexed, seq: s.seq})
	s.flush(false)
}

// queueKnown is queue of one indexed document whose outcome is known, which
// is emitted at once, without a list of its own, when nothing is in flight
// (a first look's unread documents).
func (s *stream) queueKnown(d Document) {
	if len(s.inFlight) > 0 {
		s.queue([]Document{d}, true)
		return
	}
	s.seq++
	d.Pos.Index = s.index
	s.index++
	one := [1]Document{d}
	s.emit(one[:])
}

// closed is the done channel of a document whose outcome is known.
var closed = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// convert converts a document of size bytes with work, on another core when
// there is one.
func (s *stream) convert(size int, work func(f *inFlight)) {
	s.seq++
	f := &inFlight{done: make(chan struct{}), work: work, file: s.name, seq: s.seq}
	s.inFlight = append(s.inFlight, f)
	if s.workers <= 1 {
		f.run()
		s.flush(false)
		return
	}
	s.batch = append(s.batch, f)
	s.batchSize += size
	if len(s.batch) >= batchDocs || s.batchSize >= batchBytes {
		s.dispatch()
	}
	s.flush(false)
}

// dispatch sends the batch being gathered to the workers.
func (s *stream) dispatch() {
	if len(s.batch) == 0 {
		return
	}
	pool() <- s.batch
	s.batch, s.batchSize = nil, 0
}

// flush emits the finished documents at the head of the queue; with all, or
// when too many are in flight, it waits for them.
func (s *stream) flush(all bool) {
	for len(s.inFlight) > 0 {
		f := s.inFlight[0]
		if !all && len(s.inFlight) <= maxInFlight*s.workers {
			select {
			case <-f.done:
			default:
				return
			}
		}
		if len(s.batch) > 0 && s.batch[0] == f {
			s.dispatch() // the head is still being gathered
		}
		<-f.done
		s.inFlight[0] = nil
		s.inFlight = s.inFlight[1:]
		s.emitDone(f)
	}
}

// emitDone emits the notes and documents of f, whose work is done.
func (s *stream) emitDone(f *inFlight) {
	for _, n := range f.notes {
		s.note(n)
	}
	if f.selected || len(s.unreadHalts) > 0 {
		s.haltBefore(f.seq, f.selected)
	}
	if !f.indexed {
		return
	}
	idx := s.index
	s.index++
	for i := range f.docs {
		f.docs[i].Pos.Index = idx
	}
	s.emit(f.docs)
}
