package load

import (
	"bytes"
	"io"
	"os"
)

// Copies lets a second Walk over the same paths read what the first one
// read. Regular files are simply opened again; stdin and named pipes (bash's
// <(command)) can be read once only, so the first Walk given a Copies copies
// everything it reads from them into a temporary file (or, where no
// temporary file can be made, into memory), and a later Walk given the same
// Copies reads the copy under the stream's own name. Remove deletes the
// copies.
type Copies struct {
	streams map[string]*copied
}

type copied struct {
	file *os.File      // the copy, written by the first Walk
	mem  *bytes.Buffer // the copy when no temporary file could be made
}

// NewCopies returns an empty Copies.
func NewCopies() *Copies { return &Copies{streams: map[string]*copied{}} }

// reader returns what to read of the once-only stream name: the copy a
// previous Walk made, or r with everything read from it copied.
func (c *Copies) reader(name string, r io.Reader) io.Reader {
	if cp, ok := c.streams[name]; ok {
		if cp.mem != nil {
			return bytes.NewReader(cp.mem.Bytes())
		}
		return io.NewSectionReader(cp.file, 0, 1<<62)
	}
	cp := &copied{}
	c.streams[name] = cp
	f, err := os.CreateTemp("", "limitcheck-input-*")
	if err != nil {
		cp.mem = &bytes.Buffer{}
		return io.TeeReader(r, cp.mem)
	}
	cp.file = f
	return io.TeeReader(r, f)
}

// has reports whether a previous Walk copied the stream name.
func (c *Copies) has(name string) bool {
	_, ok := c.streams[name]
	return ok
}

// Remove deletes the copies; c is empty afterwards.
func (c *Copies) Remove() error {
	var first error
	for name, cp := range c.streams {
		if cp.file != nil {
			if err := cp.file.Close(); err != nil && first == nil {
				first = err
			}
			if err := os.Remove(cp.file.Name()); err != nil && first == nil {
				first = err
			}
		}
		delete(c.streams, name)
	}
	return first
}
