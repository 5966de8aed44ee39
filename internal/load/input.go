package load

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	xunicode "golang.org/x/text/encoding/unicode"
)

// Reading is bounded while it happens: a stream is read in chunks and only
// the part still needed (the current document, or the current JSON value) is
// kept, so memory stays proportional to Options.MaxDocumentBytes however long
// the stream is.

const (
	// DefaultMaxDocumentBytes is the default Options.MaxDocumentBytes:
	// kube-apiserver refuses request bodies larger than 3 MiB.
	DefaultMaxDocumentBytes = 3 << 20
	// DefaultMaxInputBytes is the default Options.MaxInputBytes.
	DefaultMaxInputBytes = 1 << 30
)

const (
	minRead  = 32 << 10 // read at least this much at a time
	firstBuf = 64 << 10 // initial buffer size
	// wholeFile: a file of a known size below this is read into a buffer of
	// its size (and a byte more), not grown to it.
	wholeFile = 4 << 20
)

// budget is the input still allowed in the run (Options.MaxInputBytes).
type budget struct {
	max  int64
	used int64
}

func newBudget(max int64) *budget {
	if max <= 0 {
		max = DefaultMaxInputBytes
	}
	return &budget{max: max}
}

// endKind says why a source has no more data.
type endKind int

const (
	endNone    endKind = iota // more data may come
	endEOF                    // the stream ended
	endNUL                    // a NUL byte: binary data; nulAt is its offset
	endBudget                 // Options.MaxInputBytes was reached
	endReadErr                // reading failed: readErr
)

// source reads one stream in chunks. Offsets are absolute (from the start of
// the stream, a byte order mark included); buf[0] is at offset base.
type source struct {
	r       io.Reader
	buf     []byte
	base    int64
	end     endKind
	nulAt   int64
	pastNUL int64 // bytes read from the NUL byte on (not buffered)
	readErr error
	hasCR   bool    // buffered data has contained a '\r'
	budget  *budget // nil: unlimited
	size    int64   // the stream's length if known (a regular file), else -1
	retain  int     // buffer growth beyond this is not needed to hold one document
	spare   []byte  // the whole of a spare buffer buf was taken from (release)
}

func newSource(r io.Reader, size int64, b *budget, maxDoc int64) *source {
	return &source{r: r, size: size, budget: b, retain: int(min(maxDoc, 1<<30)) + 2*minRead}
}

// release gives the source's buffer to the next source read. Nothing may
// use the source, or a span of it, afterwards: documents keep copies of
// their text.
func (s *source) release() {
	if s.spare != nil {
		spareBuffers.put(s.spare)
	} else {
		spareBuffers.put(s.buf[:0:cap(s.buf)])
	}
	s.buf, s.spare = nil, nil
}

// spareBuffers holds the buffers of sources read to their end, so that the
// files of a directory, read one after another, are read into the same few
// buffers rather than each into a new one.
var spareBuffers buffers

type buffers struct {
	mu   sync.Mutex
	free [][]byte
}

// maxSpare bounds the buffers kept: a few files are read at once.
const maxSpare = 4

// get returns an empty spare buffer of at least size bytes (its whole
// capacity), or nil.
func (b *buffers) get(size int) []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	best := -1
	for i, f := range b.free {
		if cap(f) >= size && (best < 0 || cap(f) < cap(b.free[best])) {
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	f := b.free[best]
	b.free[best] = b.free[len(b.free)-1]
	b.free = b.free[:len(b.free)-1]
	return f[:0]
}

// put keeps buf for a later get, if it is of a size worth keeping; a full
// list gives up its smallest buffer for a larger one.
func (b *buffers) put(buf []byte) {
	if cap(buf) < firstBuf || cap(buf) > wholeFile {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.free) < maxSpare {
		b.free = append(b.free, buf)
		return
	}
	small := 0
	for i, f := range b.free {
		if cap(f) < cap(b.free[small]) {
			small = i
		}
	}
	if cap(buf) > cap(b.free[small]) {
		b.free[small] = buf
	}
}

// memSource is a source over data that is all in memory.
func memSource(data []byte) *source {
	s := &source{buf: data, end: endEOF, size: int64(len(data))}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		s.buf, s.end, s.nulAt = data[:i], endNUL, int64(i)
	}
	s.hasCR = bytes.IndexByte(s.buf, '\r') >= 0
	return s
}

// done reports whether no more data will come.
func (s *source) done() bool { return s.end != endNone }

// limit is the offset just past the buffered data.
func (s *source) limit() int64 { return s.base + int64(len(s.buf)) }

// at returns the buffered bytes from offset off on.
func (s *source) at(off int64) []byte { return s.buf[off-s.base:] }

// span returns the buffered bytes [from, to).
func (s *source) span(from, to int64) []byte { return s.buf[from-s.base : to-s.base] }

// more reads at least one more byte unless the stream has ended, dropping
// buffered bytes before keep (which must not be past limit()).
func (s *source) more(keep int64) {
	if s.done() {
		return
	}
	if drop := keep - s.base; drop > 0 {
		n := copy(s.buf, s.buf[drop:])
		s.buf = s.buf[:n]
		s.base = keep
	}
	if room := int64(cap(s.buf) - len(s.buf)); room < minRead && (room == 0 || s.size < 0 || s.limit()+room <= s.size) {
		c := 2 * cap(s.buf)
		if c > s.retain {
			c = s.retain
		}
		if c < len(s.buf)+minRead {
			c = len(s.buf) + minRead
		}
		if cap(s.buf) == 0 && c < firstBuf {
			c = firstBuf
		}
		if cap(s.buf) == 0 && s.size >= 0 && s.size < wholeFile {
			c = int(s.size) + 1 // the whole file, and a byte more to see it end
		}
		var nb []byte
		if cap(s.buf) == 0 {
			if s.spare = spareBuffers.get(c); s.spare != nil {
				nb = s.spare[:0:c] // capped at c: reads as a new buffer would
			}
		}
		if nb == nil {
			nb = make([]byte, len(s.buf), c)
		}
		copy(nb, s.buf)
		s.buf = nb
	}
	p := s.buf[len(s.buf):cap(s.buf)]
	room := int64(-1)
	if s.budget != nil {
		room = s.budget.max - s.budget.used
		if int64(len(p)) > room+1 {
			p = p[:room+1]
		}
	}
	var n int
	var err error
	for tries := 0; n == 0 && err == nil; tries++ {
		if tries == 100 {
			err = io.ErrNoProgress
			break
		}
		n, err = s.r.Read(p)
	}
	over := false
	if room >= 0 && int64(n) > room {
		n, over = int(room), true
	}
	got := p[:n]
	if i := bytes.IndexByte(got, 0); i >= 0 {
		s.pastNUL = int64(len(got) - i)
		got, over = got[:i], false
		s.end, s.nulAt = endNUL, s.limit()+int64(i)
	}
	if !s.hasCR && bytes.IndexByte(got, '\r') >= 0 {
		s.hasCR = true
	}
	if s.budget != nil {
		s.budget.used += int64(len(got))
	}
	s.buf = s.buf[:len(s.buf)+len(got)]
	switch {
	case s.end != endNone:
	case over:
		s.end = endBudget
	case err == io.EOF:
		s.end = endEOF
	case err != nil:
		s.end, s.readErr = endReadErr, err
	}
}

// remaining returns the number of bytes of the stream from offset off on, and
// whether they are all white space, as far as it can be known without reading
// more than maxDrain further bytes (which are discarded).
func (s *source) remaining(off int64, maxDrain int64) (n int64, blank, ok bool) {
	switch s.end {
	case endEOF:
		rest := s.at(min(off, s.limit()))
		return int64(len(rest)), isBlank(rest), true
	case endNUL:
		// The rest includes the NUL byte and what was read after it.
		if s.size >= off {
			return s.size - off, false, true
		}
	case endNone:
	default:
		return 0, false, false
	}
	rest := s.at(min(off, s.limit()))
	n, blank = int64(len(rest)), isBlank(rest)
	if s.end == endNUL {
		n, blank = n+s.pastNUL, false
	}
	var chunk [32 << 10]byte
	drained := int64(0)
	for drained <= maxDrain {
		k, err := s.r.Read(chunk[:])
		drained += int64(k)
		n += int64(k)
		if blank && !isBlank(chunk[:k]) {
			blank = false
		}
		if err == io.EOF {
			return n, blank, true
		}
		if err != nil {
			return 0, false, false
		}
	}
	if s.size >= 0 && s.size >= off {
		return s.size - off, false, true
	}
	return 0, false, false
}

func isBlank(b []byte) bool {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\n', '\r':
		default:
			return false
		}
	}
	return true
}

// utf16Reader wraps r, whose first two bytes were a UTF-16 byte order mark
// (already consumed), so that it reads as UTF-8.
type utf16Reader struct {
	r       io.Reader
	big     bool
	in      []byte // undecoded input
	out     []byte // decoded, not yet returned
	eof     bool
	pending rune // a high surrogate waiting for its pair, or -1
}

func newUTF16Reader(r io.Reader, bigEndian bool) *utf16Reader {
	return &utf16Reader{r: r, big: bigEndian, pending: -1}
}

func (u *utf16Reader) Read(p []byte) (int, error) {
	for len(u.out) == 0 {
		if u.eof {
			if len(u.in) > 0 || u.pending >= 0 {
				// A dangling byte or surrogate: decode as U+FFFD.
				u.in, u.pending = nil, -1
				u.out = utf8.AppendRune(u.out, utf8.RuneError)
				break
			}
			return 0, io.EOF
		}
		var chunk [16 << 10]byte
		n, err := u.r.Read(chunk[:])
		u.in = append(u.in, chunk[:n]...)
		if err == io.EOF {
			u.eof = true
		} else if err != nil {
			return 0, err
		}
		u.decode()
	}
	n := copy(p, u.out)
	u.out = u.out[n:]
	if len(u.out) == 0 {
		u.out = u.out[:0:0]
	}
	return n, nil
}

func (u *utf16Reader) decode() {
	i := 0
	for ; i+1 < len(u.in); i += 2 {
		var c rune
		if u.big {
			c = rune(u.in[i])<<8 | rune(u.in[i+1])
		} else {
			c = rune(u.in[i+1])<<8 | rune(u.in[i])
		}
		if u.pending >= 0 {
			r := utf16.DecodeRune(u.pending, c)
			u.pending = -1
			if r != utf8.RuneError {
				u.out = utf8.AppendRune(u.out, r)
				continue
			}
			u.out = utf8.AppendRune(u.out, utf8.RuneError)
		}
		if utf16.IsSurrogate(c) && c < 0xDC00 {
			u.pending = c
			continue
		}
		if utf16.IsSurrogate(c) {
			c = utf8.RuneError
		}
		u.out = utf8.AppendRune(u.out, c)
	}
	u.in = append(u.in[:0], u.in[i:]...)
}

// fromUTF16 is data in UTF-8 when it starts with a UTF-16 byte order mark,
// as kubectl reads it (IN-05), else data.
func fromUTF16(data []byte) []byte {
	if len(data) >= 2 && (data[0] == 0xFF && data[1] == 0xFE || data[0] == 0xFE && data[1] == 0xFF) {
		return decodeUTF16(data[2:], data[0] == 0xFE)
	}
	return data
}

// decodeUTF16 converts data (after its byte order mark) to UTF-8.
func decodeUTF16(data []byte, bigEndian bool) []byte {
	u := newUTF16Reader(bytes.NewReader(data), bigEndian)
	out, _ := io.ReadAll(u)
	return out
}

// feed is the reader a json.Decoder decodes one value from: the source's
// bytes from pos on, refusing to go past limit.
type feed struct {
	src       *source
	pos, keep int64
	limit     int64
}

var (
	errFeedLimit = errors.New("value too large")
	errFeedEnd   = errors.New("input ended")
)

func (f *feed) Read(p []byte) (int, error) {
	for {
		if f.pos >= f.limit {
			return 0, errFeedLimit
		}
		if lim := f.src.limit(); f.pos < lim {
			b := f.src.span(f.pos, min(lim, f.limit))
			n := copy(p, b)
			f.pos += int64(n)
			return n, nil
		}
		if f.src.done() {
			if f.src.end == endEOF {
				return 0, io.EOF
			}
			return 0, errFeedEnd
		}
		f.src.more(f.keep)
	}
}

// humanSize renders a size in bytes for messages: "3 MiB", "1.5 GiB",
// "512 bytes".
func humanSize(n int64) string {
	const unit = 1024
	if n < unit {
		if n == 1 {
			return "1 byte"
		}
		return strconv.FormatInt(n, 10) + " bytes"
	}
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	v := float64(n) / unit
	i := 0
	for v >= unit && i < len(units)-1 {
		v /= unit
		i++
	}
	s := strconv.FormatFloat(v, 'f', 1, 64)
	if len(s) > 2 && s[len(s)-2:] == ".0" {
		s = s[:len(s)-2]
	}
	return s + " " + units[i]
}

// countBytes renders a byte count exactly ("1 byte", "1834 bytes") below
// 10 KiB and humanly ("2.5 MiB") above.
func countBytes(n int64) string {
	if n < 10<<10 {
		if n == 1 {
			return "1 byte"
		}
		return strconv.FormatInt(n, 10) + " bytes"
	}
	return humanSize(n)
}

// asKubectlReads is a document's text as kubectl reads it: cli-runtime's
// FileVisitor decodes every file with x/text's UTF-8 decoder, which
// replaces each ill-formed UTF-8 sequence (its maximal subpart) with U+FFFD.
// A text that is valid UTF-8 is returned as is; otherwise the warning says
// where the first such byte is (base is the line of text's first line).
// kubectlExtra is how many bytes longer text is once read as kubectl reads
// it (asKubectlReads): each ill-formed sequence replaced by U+FFFD.
func kubectlExtra(text []byte) int64 {
	if utf8.Valid(text) {
		return 0
	}
	out, err := xunicode.UTF8.NewDecoder().Bytes(text)
	if err != nil {
		return 0
	}
	return int64(len(out) - len(text))
}

func asKubectlReads(text []byte, base int) ([]byte, []Warning) {
	if utf8.Valid(text) {
		return text, nil
	}
	out, err := xunicode.UTF8.NewDecoder().Bytes(text)
	if err != nil {
		return text, nil
	}
	first := 0
	for first < len(text) {
		r, size := utf8.DecodeRune(text[first:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		first += size
	}
	line := base + bytes.Count(text[:first], []byte{'\n'})
	n := bytes.Count(out, []byte("\uFFFD")) - bytes.Count(text, []byte("\uFFFD"))
	more := ""
	if n > 1 {
		more = fmt.Sprintf(" (and %d more)", n-1)
	}
	msg := fmt.Sprintf("line %d: byte 0x%02X is not UTF-8%s: kubectl sends U+FFFD (\uFFFD) in place of each such byte, so the object holds \uFFFD where the file has them: save the file as UTF-8 (it looks like Latin-1 or Windows-1252)",
		line, text[first], more)
	return out, []Warning{{Line: line, Msg: msg}}
}
