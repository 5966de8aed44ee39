// Package jsonstr quotes strings as encoding/json writes them, for the code
// that writes JSON by hand (the fast YAML path of internal/load, the report
// encoder of internal/render) and must give encoding/json's bytes.
package jsonstr

import (
	"unicode/utf8"
	"unsafe"
)

const hexDigits = "0123456789abcdef"

// Byte-wise tests on eight bytes at a time: ones has 0x01 in every byte,
// highs 0x80.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// plain8 reports whether none of the eight bytes of x needs more than
// copying: each is ASCII, not a control character, not `"` or `\`, and,
// with escapeHTML, not <, > or &. A byte equal to c is a zero byte of
// x^(c*ones), and (v-ones)&^v&highs is non-zero exactly when v has a zero
// byte; x-(0x20*ones) sets some byte's high bit when a byte is below 0x20.
// Either test may flag the wrong byte, never a word without one: the loop
// that finds it goes byte by byte.
func plain8(x uint64, escapeHTML bool) bool {
	t := x | (x - 0x20*ones) | zeroIn(x^('"'*ones)) | zeroIn(x^('\\'*ones))
	if escapeHTML {
		t |= zeroIn(x^('<'*ones)) | zeroIn(x^('>'*ones)) | zeroIn(x^('&'*ones))
	}
	return t&highs == 0
}

// skipPlain returns the index of the first word of eight bytes from i on
// that has a byte needing more than copying, or of the last incomplete one.
func skipPlain(s string, i int, escapeHTML bool) int {
	for ; i+8 <= len(s); i += 8 {
		w := s[i : i+8]
		x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
			uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
		if !plain8(x, escapeHTML) {
			break
		}
	}
	return i
}

func zeroIn(v uint64) uint64 { return (v - ones) &^ v }

// plain tells the ASCII bytes copied as they are: plain[0] without HTML
// escaping, plain[1] with it.
var plain = func() (t [2][256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[0][c] = c != '"' && c != '\\'
		t[1][c] = t[0][c] && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// Append appends s quoted as encoding/json quotes it: `"` and `\` escaped,
// control characters as \b, \f, \n, \r, \t or \u00XX, invalid UTF-8 as
// \ufffd, U+2028 and U+2029 escaped; with escapeHTML (encoding/json's
// default) also <, > and & as \u003c, \u003e and \u0026.
func Append[S []byte | string](b []byte, s S, escapeHTML bool) []byte {
	switch v := any(s).(type) {
	case string:
		return appendQuoted(b, v, escapeHTML)
	case []byte:
		return appendQuoted(b, unsafe.String(unsafe.SliceData(v), len(v)), escapeHTML)
	}
	panic("unreachable")
}

func appendQuoted(b []byte, s string, escapeHTML bool) []byte {
	b = append(b, '"')
	safe := &plain[0]
	if escapeHTML {
		safe = &plain[1]
	}
	start, i := 0, 0
	for {
		i = skipPlain(s, i, escapeHTML)
		for i < len(s) && safe[s[i]] {
			i++
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
