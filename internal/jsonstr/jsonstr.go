// Package jsonstr quotes strings as encoding/json writes them, for the code
// that writes JSON by hand (the fast YAML path of internal/load, the report
// encoder of internal/render) and must give encoding/json's bytes.
package jsonstr

import "unicode/utf8"

const hexDigits = "0123456789abcdef"

// Append appends s quoted as encoding/json quotes it: `"` and `\` escaped,
// control characters as \b, \f, \n, \r, \t or \u00XX, invalid UTF-8 as
// \ufffd, U+2028 and U+2029 escaped; with escapeHTML (encoding/json's
// default) also <, > and & as \u003c, \u003e and \u0026.
func Append[S []byte | string](b []byte, s S, escapeHTML bool) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && (!escapeHTML || c != '<' && c != '>' && c != '&') {
				i++
				continue
			}
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
		r, size := utf8.DecodeRuneInString(string(s[i:min(len(s), i+utf8.UTFMax)]))
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
