package render

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Escape makes text taken from the input (file names, names, kinds, Helm
// Source paths, messages quoting input) safe to print on a terminal, so that
// nothing in a manifest can recolour the output, move the cursor or forge a
// line of a report. It extends kubectl's printers.WriteEscaped (ESC as ^[ and
// CR as \r, which is all kubectl escapes) to every control character:
//
//   - ESC → ^[ and CR → \r, as kubectl;
//   - the other C0 controls (newline and tab included) → \n, \t, \a, \b, \f,
//     \v or \xNN; DEL → \x7f;
//   - the C1 controls U+0080..U+009F (CSI is U+009B) → \u0080..\u009f;
//   - bytes that are not UTF-8 (a lone 0x9b is CSI to an 8-bit terminal) →
//     \xNN.
//
// Everything else, printable Unicode included, is kept.
func Escape(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\x1b':
			b.WriteString("^[")
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			b.WriteString(c0Escape(r))
		case r >= 0x80 && r <= 0x9f:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func c0Escape(r rune) string {
	switch r {
	case '\n':
		return `\n`
	case '\t':
		return `\t`
	case '\a':
		return `\a`
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	case '\v':
		return `\v`
	}
	return fmt.Sprintf(`\x%02x`, r)
}

// needsEscape reports whether s holds a control character or invalid UTF-8.
func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f {
			return true
		} else if c >= 0x80 {
			// Multi-byte: C1 controls are U+0080..U+009F, encoded 0xC2 0x80..0x9F.
			r, size := utf8.DecodeRuneInString(s[i:])
			if (r == utf8.RuneError && size == 1) || r <= 0x9f {
				return true
			}
			i += size - 1
		}
	}
	return false
}
