package load

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// manifestExts are the file extensions read from directories.
var manifestExts = map[string]bool{".yaml": true, ".yml": true, ".json": true}

// Walk reads every path in order ("-" = stdin, read once; a second "-" is an
// error) and calls yield for each document in input order; it stops early if
// yield returns false.
//
// Every path is checked before anything is read, so a missing path, a device
// or a bad Options.Ignore pattern fails the run before any document is
// yielded. Walk returns an error (always of type *Error) only for failures
// that stop the whole run: a path that does not exist or cannot be read, a
// device, "-" given twice, more input than Options.MaxInputBytes. Problems
// with individual documents are reported in Document.Err.
//
// A path named explicitly is read whatever it is (a file of any extension, a
// named pipe such as bash's <(command)), except a device or a socket. A
// directory is read for its *.yaml, *.yml and *.json regular files (and, with
// Options.Recursive, its subdirectories); anything else found there with such
// a name (a named pipe, a socket, a device) is skipped with a Note, never
// opened. A file reached twice (the same path given twice, a directory walk
// reaching a file named before, a symbolic link to a file already read) is
// read the first time only, with a Note the second time. Every path given and
// every file found is accounted for: read, skipped with a Note, or an error.
func Walk(paths []string, stdin io.Reader, opts Options, yield func(Document) bool) error {
	ign, e := newIgnorer(opts.Ignore)
	if e != nil {
		return e
	}
	infos := make([]fs.FileInfo, len(paths))
	stdinSeen := false
	for i, p := range paths {
		if p == "-" {
			if stdinSeen {
				return &Error{Msg: `"-" (stdin) given more than once`}
			}
			stdinSeen = true
			continue
		}
		info, err := os.Stat(p)
		if err != nil {
			return pathError(p, err)
		}
		if what := notAFile(info.Mode()); what != "" {
			return &Error{Msg: fmt.Sprintf("cannot read path %q: %s", p, what)}
		}
		infos[i] = info
	}

	w := &walker{opts: opts, ign: ign, budget: newBudget(opts.MaxInputBytes), seen: newSeenFiles(),
		par:    parallelFiles && opts.Select != nil && workers() > 1,
		inputs: findToolInputs(paths, infos, opts, ign)}
	w.yield = func(d Document) bool {
		if !yield(d) {
			w.stopped = true
			return false
		}
		return true
	}
	for i, p := range paths {
		var err error
		if p == "-" {
			if stdin == nil {
				return &Error{File: StdinName, Msg: "cannot read: no stdin reader"}
			}
			if opts.Reading != nil {
				opts.Reading(StdinName)
			}
			r := stdin
			if opts.Copies != nil {
				r = opts.Copies.reader(StdinName, stdin)
			}
			if w.flush(); w.stopped {
				return w.err
			}
			if e := readReader(StdinName, r, -1, w.budget, opts, false, w.yield); e != nil {
				return e
			}
		} else {
			err = w.path(p, infos[i])
		}
		// What files are still being read comes before err.
		if w.flush(); w.err != nil {
			return w.err
		}
		if err != nil {
			return err
		}
		if w.stopped {
			return nil
		}
	}
	w.noteKustomizeInputs()
	w.noteTransformed()
	return nil
}

// notAFile says why Walk refuses to read a path, or "".
func notAFile(m fs.FileMode) string {
	switch {
	case m&fs.ModeDevice != 0 || m&fs.ModeCharDevice != 0:
		return "a device, not a file"
	case m&fs.ModeSocket != 0:
		return "a socket, not a file"
	case m&fs.ModeIrregular != 0:
		return "not a regular file"
	}
	return ""
}

// irregular says why a directory entry that is neither a regular file nor a
// directory is skipped.
func irregular(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe, not a regular file; skipped"
	case m&fs.ModeSocket != 0:
		return "a socket, not a regular file; skipped"
	case m&fs.ModeDevice != 0 || m&fs.ModeCharDevice != 0:
		return "a device, not a regular file; skipped"
	}
	return "not a regular file; skipped"
}

type walker struct {
	opts   Options
	yield  func(Document) bool
	ign    *ignorer
	budget *budget
	seen   *seenFiles
	inputs toolInputs // the files tools' files of the walk name (IN-10)
	// transformed are the kustomizations whose resources the walk read
	// as written though they change them, in walk order (noteTransformed).
	transformed []kustomizeTransform
	patched     []skippedInputs // per kustomization, in walk order, the files skipped
	charts      map[string]bool // directories known to be a chart's or not (isChart)
	stopped     bool
	err         error // what stopped the walk, from a file read ahead

	// With par (a first look: Options.Select), small regular files are
	// read on goroutines of their own, up to one per core ahead, and what
	// each yields is kept and handed on in walk order (flush): a first
	// look keeps little of a document, and it is otherwise a phase of the
	// run where one core reads and splits while the other waits.
	par      bool
	pending  []*fileRead
	reserved int64 // the pending files' sizes, charged to the budget ahead
}

// parallelFiles lets a first look read files ahead (walker.par); tests turn
// it off to compare.
var parallelFiles = true

// parMaxFile is the largest file read ahead: what a pending file yields is
// held until its turn.
const parMaxFile = 4 << 20

// fileRead is a file being read ahead.
type fileRead struct {
	done  chan struct{}
	items []walkItem // its documents and notes, in order
	err   *Error
	b     *budget // the run's budget as it will be when the file's turn comes
	start int64
	size  int64
}

// walkItem is a note, a document or an unread document's position: most of
// a first look's documents are unread (Options.Unread), and a position is a
// quarter of a Document.
type walkItem struct {
	note   *Note
	doc    *Document
	unread Position
}

func (w *walker) note(n Note) {
	if w.flush(); w.opts.Note != nil && !w.stopped {
		w.opts.Note(n)
	}
}

// flush hands on, in order, what the files read ahead yielded, waiting for
// them. A file's error stops the walk (w.err), as it would have read in
// turn; so does a yield that returns false.
func (w *walker) flush() {
	for len(w.pending) > 0 {
		w.emitOldest()
	}
}

func (w *walker) emitOldest() {
	fr := w.pending[0]
	w.pending[0] = nil
	w.pending = w.pending[1:]
	<-fr.done
	w.reserved -= fr.size
	w.budget.used += fr.b.used - fr.start
	for _, it := range fr.items {
		if w.stopped {
			return
		}
		switch {
		case it.note != nil:
			if w.opts.Note != nil {
				w.opts.Note(*it.note)
			}
		case it.doc != nil:
			w.yield(*it.doc)
		default:
			w.yield(Document{Pos: it.unread, Unread: true})
		}
	}
	if fr.err != nil && !w.stopped {
		w.err, w.stopped = fr.err, true
	}
}

// readAhead starts reading the regular file f (at p, of size bytes) on
// another goroutine; f is closed when it is read.
func (w *walker) readAhead(p string, f *os.File, size int64, opts Options, walked bool) {
	fr := &fileRead{done: make(chan struct{}), size: size}
	fr.b = &budget{max: w.budget.max, used: w.budget.used + w.reserved}
	fr.start = fr.b.used
	w.reserved += size
	opts.Note = func(n Note) { fr.items = append(fr.items, walkItem{note: &n}) }
	go func() {
		defer close(fr.done)
		defer f.Close()
		fr.err = readReader(p, f, size, fr.b, opts, walked, func(d Document) bool {
			if d.Unread {
				fr.items = append(fr.items, walkItem{unread: d.Pos})
			} else {
				read := d // a copy of its own: d stays on the stack
				fr.items = append(fr.items, walkItem{doc: &read})
			}
			return true
		})
	}()
	w.pending = append(w.pending, fr)
	if len(w.pending) > workers() {
		w.emitOldest()
	}
}

// path reads a path given on the command line: a file (whatever its
// extension), a named pipe or a directory.
func (w *walker) path(p string, info fs.FileInfo) error {
	if pat, ok := w.ign.match(filepath.Clean(p)); ok {
		w.note(Note{File: p, Msg: fmt.Sprintf("ignored by --ignore-path %q", pat)})
		return nil
	}
	if !info.IsDir() {
		return w.file(p, info, w.opts.SkipNonObjects)
	}
	var st walkStats
	if err := w.dir(p, 0, &st); err != nil || w.stopped {
		return err
	}
	switch {
	case st.ignored == 1:
		w.note(Note{File: p, Msg: "1 path ignored by --ignore-path"})
	case st.ignored > 1:
		w.note(Note{File: p, Msg: fmt.Sprintf("%d paths ignored by --ignore-path", st.ignored)})
	}
	switch {
	case !w.opts.Recursive && w.isChart(p) && onlyChartFiles(p):
		// Its own files are Chart.yaml and values, its manifests templates.
		w.note(Note{File: p, Msg: "a Helm chart: check what it renders to, e.g. helm template " + p + " | limitcheck check -"})
	case st.own > 0:
	case !w.opts.Recursive && w.manifestsBelow(p):
		w.note(Note{File: p, Msg: "no manifests in this directory, only in its subdirectories; give -R to read them"})
	case st.found > 0 || st.ignored > 0:
	case w.opts.Recursive:
		w.note(Note{File: p, Msg: "no .yaml, .yml or .json files in this directory or its subdirectories"})
	default:
		w.note(Note{File: p, Msg: "no .yaml, .yml or .json files in this directory"})
	}
	return nil
}

// walkStats counts what the walk of one directory argument found.
type walkStats struct {
	own     int // manifest files in the directory itself
	found   int // entries named like manifests, and symlinked directories, read or not
	ignored int // paths not read because of Options.Ignore
}

// maxDirDepth bounds the nesting of directories below a directory argument.
const maxDirDepth = 1000

// dir reads the manifest files of dir (and its subdirectories with
// Options.Recursive), counting what it finds in st.
func (w *walker) dir(dir string, depth int, st *walkStats) error {
	if depth > maxDirDepth {
		return &Error{Msg: fmt.Sprintf("directory %q is nested more than %d levels deep; not read", dir, maxDirDepth)}
	}
	entries, err := os.ReadDir(dir) // sorted by file name
	if err != nil {
		return pathError(dir, err)
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		manifest := manifestExts[filepath.Ext(p)]
		typ := e.Type()
		var info fs.FileInfo
		if typ&fs.ModeSymlink != 0 {
			if !manifest && !w.opts.Recursive {
				continue
			}
			// Follow symlinks to files; like kubectl (filepath.Walk), do
			// not descend into symlinked directories.
			info, err = os.Stat(p)
			if err != nil {
				if !manifest {
					continue // would not be read anyway
				}
				st.found++
				if w.ign.ignored(p) {
					st.ignored++
					continue
				}
				// kubectl's directory walk fails on it too (os.Open) and
				// goes on with the other files (IN-02): an error of this
				// path, not of the run.
				if w.flush(); w.stopped {
					return nil
				}
				w.yield(Document{Pos: Position{File: p}, Err: brokenLink(p, err)})
				continue
			}
			if info.IsDir() {
				if !w.opts.Recursive {
					continue
				}
				st.found++
				if w.ign.ignored(p) {
					st.ignored++
					continue
				}
				w.note(Note{File: p, Msg: "a symbolic link to a directory; not followed"})
				continue
			}
			if !manifest {
				continue
			}
			typ = info.Mode().Type()
		}
		if manifest && !typ.IsDir() {
			st.found++
		}
		switch {
		case typ.IsDir():
			if !w.opts.Recursive {
				continue
			}
			if w.ign.ignored(p) {
				st.ignored++
				continue
			}
			if err := w.dir(p, depth+1, st); err != nil {
				return err
			}
		case !manifest:
			continue
		case w.ign.ignored(p):
			st.ignored++
			continue
		case !typ.IsRegular():
			// Never opened: opening a named pipe blocks until it has a
			// writer.
			w.note(Note{File: p, Msg: irregular(typ)})
			continue
		default:
			if depth == 0 {
				st.own++
			}
			if info == nil {
				if info, err = e.Info(); err != nil {
					return pathError(p, err)
				}
			}
			if err := w.file(p, info, true); err != nil {
				return err
			}
		}
		if w.stopped {
			return nil
		}
	}
	return nil
}

// file reads a file (walked: found by a directory walk) unless it was read
// before.
func (w *walker) file(p string, info fs.FileInfo, walked bool) error {
	if first, dup := w.seen.add(p, info); dup {
		w.note(Note{File: p, Msg: fmt.Sprintf("already read (as %s); read once", first)})
		return nil
	}
	if w.opts.Reading != nil {
		w.opts.Reading(p)
	}
	opts := w.opts
	opts.chart = w.chartOf(p)
	if walked {
		switch in, named := w.inputs.of(p); {
		case named && in.tool != "":
			opts.toolInputSkip = in.reason()
			w.skippedInput(in)
		case !named && conventionalAssertion.MatchString(filepath.Base(p)):
			opts.toolInputSkip = conventionalReason
		case !named:
			if c := w.chartValues(p); c != "" {
				opts.toolInputSkip = "values of the Helm chart in " + c + ", not an API object"
			}
		}
		if k, ok := w.inputs.transformed(p); ok && !slices.ContainsFunc(w.transformed, func(t kustomizeTransform) bool { return t.by == k.by }) {
			w.transformed = append(w.transformed, k)
		}
	}
	size := int64(-1)
	if info.Mode().IsRegular() {
		size = info.Size()
		ahead := &budget{max: w.budget.max, used: w.budget.used + w.reserved}
		if err := ahead.fits(p, size); err != nil {
			return err
		}
	} else if w.opts.Copies != nil && w.opts.Copies.has(p) {
		// A named pipe read by an earlier Walk: opening it again would
		// block until it has a writer.
		if w.flush(); w.stopped {
			return nil
		}
		if e := readReader(p, w.opts.Copies.reader(p, nil), -1, w.budget, opts, walked, w.yield); e != nil {
			return e
		}
		return nil
	}
	f, err := os.Open(p)
	if err != nil {
		return pathError(p, err)
	}
	var r io.Reader = f
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = fi.Size()
		if w.par && size <= parMaxFile {
			w.readAhead(p, f, size, opts, walked)
			return nil
		}
	} else if w.opts.Copies != nil {
		r = w.opts.Copies.reader(p, f)
	}
	defer f.Close()
	if w.flush(); w.stopped {
		return nil
	}
	if e := readReader(p, r, size, w.budget, opts, walked, w.yield); e != nil {
		return e
	}
	return nil
}

// fits refuses a regular file of size bytes that the rest of the budget
// cannot hold, before it is read.
func (b *budget) fits(p string, size int64) *Error {
	left := b.max - b.used
	switch {
	case size <= left:
		return nil
	case b.used == 0 || size > b.max:
		s, m := sizes(size, b.max)
		return &Error{File: p, Msg: fmt.Sprintf("file is %s, larger than %s, the input limit for one run; not read", s, m)}
	default:
		s, l := sizes(size, left)
		return &Error{File: p, Msg: fmt.Sprintf("file is %s, more than the %s left of %s, the input limit for one run; not read", s, l, humanSize(b.max))}
	}
}

// sizes renders two different sizes humanly, or exactly if humanly they
// would look the same.
func sizes(a, b int64) (string, string) {
	ha, hb := humanSize(a), humanSize(b)
	if ha == hb {
		return strconv.FormatInt(a, 10) + " bytes", strconv.FormatInt(b, 10) + " bytes"
	}
	return ha, hb
}

// maxHintEntries bounds the directory entries looked at to decide whether a
// directory has manifests in its subdirectories.
const maxHintEntries = 10000

// manifestsBelow reports whether a subdirectory of dir (at any depth) has a
// manifest file, looking at no more than maxHintEntries entries.
func (w *walker) manifestsBelow(dir string) bool {
	queue := []string{dir}
	seen := 0
	for len(queue) > 0 && seen < maxHintEntries {
		d := queue[0]
		queue = queue[1:]
		entries, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range entries {
			seen++
			p := filepath.Join(d, e.Name())
			if w.ign.ignored(p) {
				continue
			}
			typ := e.Type()
			if typ&fs.ModeSymlink != 0 {
				if d == dir || !manifestExts[filepath.Ext(p)] {
					continue
				}
				info, err := os.Stat(p)
				if err != nil {
					continue
				}
				typ = info.Mode().Type()
			}
			switch {
			case typ.IsDir():
				if strings.Count(p, string(filepath.Separator))-strings.Count(dir, string(filepath.Separator)) <= maxDirDepth {
					queue = append(queue, p)
				}
			case d != dir && typ.IsRegular() && manifestExts[filepath.Ext(p)]:
				return true
			}
		}
	}
	return false
}

// brokenLink is the error of a path found by a directory walk that is a
// symbolic link whose target cannot be read: kubectl's words for its open
// (open PATH: REASON), with a hint when the target does not exist.
func brokenLink(p string, err error) *Error {
	reason := err
	var pe *fs.PathError
	if errors.As(err, &pe) {
		reason = pe.Err
	}
	msg := fmt.Sprintf("open %s: %v", p, reason)
	if target, lerr := os.Readlink(p); lerr == nil && errors.Is(err, fs.ErrNotExist) {
		msg += fmt.Sprintf(" (a symbolic link to %q, which does not exist; --ignore-path %s leaves it out)", target, filepath.Base(p))
	}
	return &Error{File: p, Msg: msg}
}

func pathError(p string, err error) *Error {
	if errors.Is(err, fs.ErrNotExist) {
		if strings.HasPrefix(p, "http://") || strings.HasPrefix(p, "https://") {
			// kubectl -f fetches a URL (the kubernetes.io tasks apply their
			// examples so); limitcheck reads nothing from the network.
			return &Error{Msg: fmt.Sprintf("path %q does not exist: limitcheck reads local files only, not URLs (download it first, e.g. curl -LO %s)", p, p)}
		}
		return &Error{Msg: fmt.Sprintf("path %q does not exist", p)}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &Error{Msg: fmt.Sprintf("cannot read path %q: %v", p, err)}
}

// ignorer matches paths against Options.Ignore.
type ignorer struct {
	pats []ignorePat
}

type ignorePat struct {
	given string // as given, for notes
	pat   string // cleaned, slash-separated
	comps int    // number of path components pat matches
}

func newIgnorer(pats []string) (*ignorer, *Error) {
	ig := &ignorer{}
	for _, p := range pats {
		if p == "" {
			return nil, &Error{Msg: `--ignore-path "": empty pattern`}
		}
		if _, err := path.Match(p, ""); err != nil {
			return nil, &Error{Msg: fmt.Sprintf("--ignore-path %q: %v", p, err)}
		}
		c := path.Clean(filepath.ToSlash(p))
		ig.pats = append(ig.pats, ignorePat{given: p, pat: c, comps: strings.Count(c, "/") + 1})
	}
	return ig, nil
}

// match returns the first pattern matching the path p (as walked), if any.
// A pattern of n components is matched against the last n components of p.
func (ig *ignorer) match(p string) (string, bool) {
	if len(ig.pats) == 0 {
		return "", false
	}
	s := filepath.ToSlash(p)
	for _, ip := range ig.pats {
		cand := s
		i := len(s)
		for n := 0; n < ip.comps; n++ {
			i = strings.LastIndexByte(s[:i], '/')
			if i < 0 {
				break
			}
		}
		if i >= 0 {
			cand = s[i+1:]
		}
		if ok, _ := path.Match(ip.pat, cand); ok {
			return ip.given, true
		}
	}
	return "", false
}

func (ig *ignorer) ignored(p string) bool {
	_, ok := ig.match(p)
	return ok
}

// seenFiles remembers the files read, by identity (device and inode where
// the system has them), not by name.
type seenFiles struct {
	ids   map[fileID]string
	infos []seenInfo
}

type seenInfo struct {
	info fs.FileInfo
	name string
}

func newSeenFiles() *seenFiles { return &seenFiles{ids: map[fileID]string{}} }

// add records the file p; if it was recorded before, it returns the name it
// was first read as.
func (s *seenFiles) add(p string, info fs.FileInfo) (first string, dup bool) {
	if id, ok := fileIDOf(info); ok {
		if first, dup := s.ids[id]; dup {
			return first, true
		}
		s.ids[id] = p
		return "", false
	}
	for _, si := range s.infos {
		if os.SameFile(si.info, info) {
			return si.name, true
		}
	}
	s.infos = append(s.infos, seenInfo{info, p})
	return "", false
}

// aheadDocs bounds how far WalkAhead reads ahead of its caller.
const aheadDocs = 256

// WalkAhead is Walk with the reading (files, splitting, the workers'
// ordering) done on another goroutine, up to aheadDocs documents ahead:
// yield and Options.Note are called on the caller's goroutine, in Walk's
// order, and what Walk returns is returned. For a caller whose yield is
// the long part of the run.
func WalkAhead(paths []string, stdin io.Reader, opts Options, yield func(Document) bool) error {
	type item struct {
		doc   Document
		note  *Note
		end   bool
		err   error
		panic any
	}
	items := make(chan item, aheadDocs)
	stop := make(chan struct{})
	send := func(it item) bool {
		select {
		case items <- it:
			return true
		case <-stop:
			return false
		}
	}
	note := opts.Note
	if note != nil {
		opts.Note = func(n Note) { send(item{note: &n}) }
	}
	go func() {
		defer close(items)
		defer func() {
			if r := recover(); r != nil {
				send(item{end: true, panic: r})
			}
		}()
		err := Walk(paths, stdin, opts, func(d Document) bool { return send(item{doc: d}) })
		send(item{end: true, err: err})
	}()
	// However this returns (yield refused a document, or panicked), the
	// reading stops and is waited for.
	defer func() {
		close(stop)
		for range items {
		}
	}()
	for it := range items {
		switch {
		case it.panic != nil:
			panic(it.panic)
		case it.end:
			return it.err
		case it.note != nil:
			note(*it.note)
		case !yield(it.doc):
			return nil
		}
	}
	return nil
}

// onlyChartFiles reports whether the manifest files directly in dir, a
// chart's, are only the chart's own (Chart.yaml, values files), and it has
// templates.
func onlyChartFiles(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	templates := false
	for _, e := range entries {
		name := e.Name()
		switch {
		case e.IsDir():
			templates = templates || name == "templates"
		case !manifestExts[filepath.Ext(name)]:
		case name == "Chart.yaml", strings.HasPrefix(name, "values"):
		default:
			return false
		}
	}
	return templates
}
