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
// Input is read in chunks and bounded while it is read: a document larger
// than Options.MaxDocumentBytes, or a NUL byte (binary data), ends the
// reading of its stream with a document error, and more than
// Options.MaxInputBytes in the whole run stops the run. Memory use stays
// about MaxDocumentBytes however long a stream is.
//
// What is not a document is reported as a Note: paths skipped (named pipes
// and devices found in directories, ignored paths, files already read) and
// hints. A mapping key given twice in a YAML document is a Warning of the
// document (an error with Options.Strict): kubectl silently keeps the last.
//
// The package knows nothing about admission or terminals; the messages name
// the command-line flags -R and --ignore-path.
package load

import (
	"io"
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
	// Err is set when this document could not be read/decoded. The stream
	// continues, except after the problems that say so in their message
	// (a document too large, binary data, a JSON syntax error).
	Err *Error
	// Skip, when not "", says why this document was skipped rather than
	// read: in a file found by a directory walk (not named explicitly), a
	// document that is not a mapping or has no kind is not a Kubernetes
	// object (Helm values, Chart.yaml, ...). Err and Object are nil.
	Skip string
	// Warnings are problems that do not stop the document from being read,
	// such as a mapping key given twice.
	Warnings []Warning
	// Unread says the document was not read (Options.Unread): only Pos is
	// set.
	Unread bool
	// Halted says kubectl never reads the document: it stops reading the
	// file at an error before it (IN-12). Skip says so.
	Halted bool
	// Prepared is what Options.Prepare made of the document.
	Prepared any
}

// ToolConfigReason is why a tool's configuration file (a Kustomization, a
// kubeconfig, …) is skipped (API-01).
const ToolConfigReason = "a tool's configuration file, not an API object"

// Warning is a problem with a document that kubectl would not report.
type Warning struct {
	Line int // absolute line in the file
	Msg  string
}

// Note reports something about the input that is not a document: a path
// skipped, ignored or already read, a hint about a directory.
type Note struct {
	File string
	Line int // 0 if not about a line
	Msg  string
}

// String renders "FILE:LINE: MSG" like Error.Error.
func (n Note) String() string {
	return (&Error{File: n.File, Line: n.Line, Msg: n.Msg}).Error()
}

// Error is a per-document or per-path input error.
type Error struct {
	File  string
	Line  int
	Field string
	Msg   string
	// halts says kubectl stops reading the file at this error: one in
	// reading the YAML, or one of its client-side validation (an object
	// without apiVersion or kind, a list it refuses). It creates none of the
	// documents after it in the file (IN-12).
	halts bool
}

// halting marks e as an error kubectl stops reading the file at.
func (e *Error) halting() *Error {
	e.halts = true
	return e
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
	// CheckFields returns an empty typed object for kinds NewObject leaves
	// out whose fields are nonetheless checked as kube-apiserver decodes
	// them (unknown fields, values of the wrong type): the document is
	// decoded strictly into it, then leniently as for any other kind. Nil:
	// no such kinds.
	CheckFields func(apiVersion, kind string) runtime.Object
	// ListNotMapped says why a document with items, of a kind ending in
	// List, cannot be taken apart into its items (kubectl maps the list's
	// kind first), or returns "". Nil: every list is.
	ListNotMapped func(apiVersion, kind string) string
	// Strict makes a mapping key given twice in a YAML document an error of
	// the document (Document.Err) instead of a warning.
	Strict bool
	// MaxDocumentBytes is the size of the largest document read (0:
	// DefaultMaxDocumentBytes, 3 MiB, the largest request kube-apiserver
	// accepts). A larger document is an error and ends the reading of its
	// stream, so memory stays bounded by about this size.
	MaxDocumentBytes int64
	// MaxInputBytes bounds the bytes read in the whole run, all files and
	// stdin together (0: DefaultMaxInputBytes, 1 GiB). Reaching it stops
	// the run with an error.
	MaxInputBytes int64
	// Ignore holds path.Match patterns of paths not to read or descend
	// into. A pattern matches the slash form of a path as walked (the
	// argument joined with the names below it), or any trailing run of its
	// components: "values.yaml", "charts/*", "team-a/charts/*/values.yaml".
	Ignore []string
	// Note receives Notes; nil discards them.
	Note func(Note)
	// Reading, when set, is called with each file (StdinName for stdin) as
	// its reading starts, in walk order, on the goroutine that called Walk
	// (WalkAhead: its reading goroutine). A file named twice, or ignored,
	// is not read and not passed.
	Reading func(file string)
	// Select, when set, says which documents are decoded (NewObject); the
	// others are yielded with their header only (APIVersion, Kind,
	// Namespace, Name; JSON and Object nil), and a decoding error they may
	// hold goes unnoticed: a first look at the input that costs no
	// decoding.
	Select func(apiVersion, kind string) bool
	// Unread, with Select, spares a first look the reading of documents
	// that cannot matter to it: given the text of a YAML document, it
	// reports that Select would not take the document whatever it holds.
	// Such a document is yielded as Unread, with its position only: not
	// converted, not checked. It must report true only for text that is a
	// document (not empty, not null), as every document takes an Index.
	Unread func(text []byte) bool
	// Prepare, when set, is called with every object decoded into a typed
	// object (NewObject), on the goroutine that decoded it, which may not be
	// the caller's: what it returns is the Document's Prepared, and it may
	// change the object, which it owns from then on.
	Prepare func(runtime.Object) any
	// Copies, when set, keeps what is read from stdin and named pipes so
	// that a second Walk given the same Copies reads it again (Copies).
	Copies *Copies
	// SkipNonObjects reads the files named as arguments as files found in a
	// directory are read: a document that is not a Kubernetes object (no
	// kind, not a mapping: a Helm values.yaml, a CI workflow) is skipped
	// with the reason instead of being an error (IN-06).
	SkipNonObjects bool

	// chart is, for a file under a Helm chart's templates directory, the
	// chart's directory (IN-08).
	chart string

	// toolInputSkip is, for a file a directory walk reads that a kustomization
	// names as its input (IN-10), why its documents are skipped.
	toolInputSkip string
}

// ReadStream reads one named stream (file contents or stdin) and yields its
// documents. It returns an error (of type *Error) only when the stream cannot
// be read or Options.MaxInputBytes is exceeded; problems with individual
// documents are reported in Document.Err.
func ReadStream(name string, r io.Reader, opts Options, yield func(Document) bool) error {
	if r == nil {
		return &Error{File: name, Msg: "cannot read: nil reader"}
	}
	if err := readReader(name, r, -1, newBudget(opts.MaxInputBytes), opts, false, yield); err != nil {
		return err
	}
	return nil
}
