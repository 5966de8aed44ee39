// Package load turns files, directories and stdin into a stream of
// Kubernetes object documents with exact positions, decoded the way
// kubectl and kube-apiserver decode them.
//
// YAML documents are converted to JSON with sigs.k8s.io/yaml.YAMLToJSON
// (exactly as kubectl does); JSON streams are used as written. Each
// document's JSON is then decoded once: strictly into a typed object when
// Options.NewObject asks for one, otherwise leniently into a
// *metav1.PartialObjectMetadata.
//
// The package knows nothing about admission, flags or terminals.
package load

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
)

// StdinName is the File name used for documents read from stdin.
const StdinName = "<stdin>"

// Position says where a document came from.
type Position struct {
	// File is the path as the user gave it (joined with the directory
	// walk); stdin is "<stdin>".
	File string
	// Line is the 1-based line (in the whole file) of the document's first
	// content line: not the "---", not leading comments. For JSON streams,
	// the line of the opening "{". For List items, the line of the item.
	Line int
	// Index is the 0-based index of the document within its file; empty
	// documents are not counted. Items of a List share the List document's
	// Index.
	Index int
	// Item is the 0-based index of the object among the objects expanded
	// from one List document (nested Lists are flattened, so Index+Item is
	// unique within a file), or -1 for documents that are not List items.
	Item int
	// Source is Helm's "# Source: chart/templates/x.yaml" path when present
	// in the document's leading comments, else "".
	Source string
}

// Document is one object read from the input.
type Document struct {
	Pos        Position
	APIVersion string
	Kind       string
	Namespace  string // metadata.namespace as written ("" if absent)
	Name       string // metadata.name as written
	// JSON is the object as JSON (after YAML->JSON conversion). It may share
	// memory with other documents of the same List; treat it as read-only.
	JSON []byte
	// Object is the decoded object (see Options.NewObject); nil when
	// Err != nil.
	Object runtime.Object
	// Err is set when this document could not be read/decoded; the stream
	// continues.
	Err *Error
}

// Error is a per-document or per-path input error.
type Error struct {
	File  string
	Line  int
	Field string
	Msg   string
}

// Error renders "FILE:LINE: FIELD: MSG", dropping ":LINE" when Line==0,
// "FIELD: " when Field=="" and "FILE:LINE: " when File=="".
func (e *Error) Error() string {
	if e == nil {
		return "<nil>"
	}
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(e.Line))
		}
		b.WriteString(": ")
	}
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Options control how input is read and decoded.
type Options struct {
	// Recursive makes Walk descend into subdirectories of directory
	// arguments.
	Recursive bool
	// NewObject returns an empty typed object (e.g. *corev1.Pod) for kinds
	// the caller wants decoded strictly into Go types, or nil for other
	// kinds. A nil func decodes nothing typed.
	NewObject func(apiVersion, kind string) runtime.Object
}

// manifestExts are the file extensions read from directories.
var manifestExts = map[string]bool{".yaml": true, ".yml": true, ".json": true}

// Walk reads every path in order ("-" = stdin, read once; a second "-" is an
// error) and calls yield for each document in input order; it stops early if
// yield returns false.
//
// Every path is checked before anything is read, so a missing path fails the
// run before any document is yielded. Walk returns an error (always of type
// *Error) only for failures that stop the whole run: a path that does not
// exist or cannot be read, or "-" given twice. Problems with individual
// documents are reported in Document.Err.
func Walk(paths []string, stdin io.Reader, opts Options, yield func(Document) bool) error {
	stdinSeen := false
	for _, p := range paths {
		if p == "-" {
			if stdinSeen {
				return &Error{Msg: `"-" (stdin) given more than once`}
			}
			stdinSeen = true
			continue
		}
		if _, err := os.Stat(p); err != nil {
			return pathError(p, err)
		}
	}

	w := walker{opts: opts, yield: yield}
	for _, p := range paths {
		var err error
		if p == "-" {
			if stdin == nil {
				return &Error{File: StdinName, Msg: "cannot read: no stdin reader"}
			}
			err = w.stream(StdinName, stdin)
		} else {
			err = w.path(p)
		}
		if err != nil {
			return err
		}
		if w.stopped {
			return nil
		}
	}
	return nil
}

type walker struct {
	opts    Options
	yield   func(Document) bool
	stopped bool
}

func (w *walker) stream(name string, r io.Reader) error {
	return ReadStream(name, r, w.opts, func(d Document) bool {
		if !w.yield(d) {
			w.stopped = true
			return false
		}
		return true
	})
}

// path reads a path given on the command line: a file (whatever its
// extension) or a directory.
func (w *walker) path(p string) error {
	info, err := os.Stat(p)
	if err != nil {
		return pathError(p, err)
	}
	if info.IsDir() {
		return w.dir(p, 0)
	}
	return w.file(p)
}

const maxDirDepth = 1000

func (w *walker) dir(dir string, depth int) error {
	if depth > maxDirDepth {
		return &Error{Msg: fmt.Sprintf("directory %q is nested too deeply", dir)}
	}
	entries, err := os.ReadDir(dir) // sorted by file name
	if err != nil {
		return pathError(dir, err)
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		isDir := e.IsDir()
		if e.Type()&fs.ModeSymlink != 0 {
			// Follow symlinks to files; like kubectl (filepath.Walk), do
			// not descend into symlinked directories.
			info, err := os.Stat(p)
			if err != nil {
				return pathError(p, err)
			}
			if info.IsDir() {
				continue
			}
		}
		if isDir {
			if !w.opts.Recursive {
				continue
			}
			if err := w.dir(p, depth+1); err != nil {
				return err
			}
		} else if manifestExts[filepath.Ext(p)] {
			if err := w.file(p); err != nil {
				return err
			}
		}
		if w.stopped {
			return nil
		}
	}
	return nil
}

func (w *walker) file(p string) error {
	data, err := os.ReadFile(p)
	if err != nil {
		return pathError(p, err)
	}
	readBytes(p, data, w.opts, func(d Document) bool {
		if !w.yield(d) {
			w.stopped = true
			return false
		}
		return true
	})
	return nil
}

func pathError(p string, err error) *Error {
	if errors.Is(err, fs.ErrNotExist) {
		return &Error{Msg: fmt.Sprintf("path %q does not exist", p)}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &Error{Msg: fmt.Sprintf("cannot read path %q: %v", p, err)}
}

// ReadStream reads one named stream (file contents or stdin) and yields its
// documents. It returns an error (of type *Error) only when r cannot be
// read; problems with individual documents are reported in Document.Err.
func ReadStream(name string, r io.Reader, opts Options, yield func(Document) bool) error {
	if r == nil {
		return &Error{File: name, Msg: "cannot read: nil reader"}
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return &Error{File: name, Msg: fmt.Sprintf("cannot read: %v", err)}
	}
	readBytes(name, data, opts, yield)
	return nil
}
