package load

import (
	"fmt"
	"runtime"
)

// Documents of a YAML stream are converted and decoded on every core while
// the stream is split on one: each top-level document becomes an inFlight,
// queued in stream order, and the queue is emitted from its head as the
// documents finish, so what is yielded, and in which order, is the same
// whatever GOMAXPROCS is. A document takes its Index when it is emitted:
// only then is it known whether the documents before it were empty.

// inFlight is one top-level document being converted.
type inFlight struct {
	done    chan struct{} // closed when docs and notes are set
	docs    []Document
	notes   []Note
	indexed bool // takes an Index (false: an empty document)
}

// maxInFlight bounds the documents converted ahead of the one emitted next,
// per core.
const maxInFlight = 8

// workers is how many documents of a stream are converted at once.
func workers() int { return runtime.GOMAXPROCS(0) }

// queue adds a document whose outcome is already known (an error found while
// splitting) after those in flight.
func (s *stream) queue(docs []Document, indexed bool) {
	f := &inFlight{done: make(chan struct{}), docs: docs, indexed: indexed}
	close(f.done)
	s.inFlight = append(s.inFlight, f)
	s.flush(false)
}

// convert converts a document with work, on another core when there is one.
func (s *stream) convert(work func(f *inFlight)) {
	f := &inFlight{done: make(chan struct{})}
	s.inFlight = append(s.inFlight, f)
	if s.workers <= 1 {
		work(f)
		close(f.done)
		s.flush(false)
		return
	}
	if s.slots == nil {
		s.slots = make(chan struct{}, s.workers)
	}
	s.slots <- struct{}{}
	go func() {
		defer func() {
			if r := recover(); r != nil {
				f.docs = []Document{{Pos: Position{File: s.name, Line: 1, Item: -1},
					Err: &Error{File: s.name, Line: 1, Msg: fmt.Sprintf("internal error: %v", r)}}}
				f.indexed = true
			}
			<-s.slots
			close(f.done)
		}()
		work(f)
	}()
	s.flush(false)
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
		<-f.done
		s.inFlight[0] = nil
		s.inFlight = s.inFlight[1:]
		for _, n := range f.notes {
			s.note(n)
		}
		if !f.indexed {
			continue
		}
		idx := s.index
		s.index++
		for i := range f.docs {
			f.docs[i].Pos.Index = idx
		}
		s.emit(f.docs)
	}
}
