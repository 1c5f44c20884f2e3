package termtext

import (
	"strings"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// Line returns s made safe to print as one line, or as one field of a
// line, on a terminal: every C0 control (new lines and tabs included),
// DEL, C1 control, bidirectional formatting character, line or paragraph
// separator and invalid UTF-8 byte is replaced by a visible escape —
// \n, \r, \t, \xNN for bytes and \uNNNN for code points. Any other text,
// including the backslash, is returned unchanged.
func Line(s string) string { return escape(s, false) }

// Text returns s made safe to print as multi-line text on a terminal: like
// Line, but new lines, tabs and the carriage return of a CRLF line end
// are kept, and so are bidirectional formatting characters, which
// right-to-left prose legitimately uses across lines.
func Text(s string) string { return escape(s, true) }

// escape implements Line (multiLine false) and Text (multiLine true).
func escape(s string, multiLine bool) string {
	i := firstUnsafe(s, multiLine)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if keepByte(s, i, multiLine) {
				b.WriteByte(c)
			} else {
				writeByteEscape(&b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			writeByteEscape(&b, c)
		case unsafeRune(r, multiLine):
			writeRuneEscape(&b, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// firstUnsafe returns the index of the first byte escape would change, or
// -1.
func firstUnsafe(s string, multiLine bool) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if !keepByte(s, i, multiLine) {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || unsafeRune(r, multiLine) {
			return i
		}
		i += size
	}
	return -1
}

// keepByte reports whether the ASCII byte s[i] is printed as it is.
func keepByte(s string, i int, multiLine bool) bool {
	c := s[i]
	switch {
	case c >= 0x20 && c != 0x7f:
		return true
	case !multiLine:
		return false
	case c == '\n', c == '\t':
		return true
	case c == '\r':
		// CR only before LF: a CRLF line end moves nowhere a LF alone
		// would not; a lone CR returns to the start of the line and lets
		// what follows overwrite it.
		return i+1 < len(s) && s[i+1] == '\n'
	}
	return false
}

// unsafeRune reports whether the non-ASCII code point r must be escaped.
func unsafeRune(r rune, multiLine bool) bool {
	switch {
	case r >= 0x80 && r <= 0x9f: // C1 controls (CSI, OSC, NEL, …)
		return true
	case multiLine:
		return false
	case r == 0x2028, r == 0x2029: // line and paragraph separators
		return true
	}
	return isBidi(r)
}

// isBidi reports whether r is a bidirectional formatting character: the
// embeddings, overrides and isolates of Unicode's bidi algorithm (the
// "Trojan Source" characters) and the three directional marks.
func isBidi(r rune) bool {
	switch {
	case r >= 0x202a && r <= 0x202e: // LRE, RLE, PDF, LRO, RLO
		return true
	case r >= 0x2066 && r <= 0x2069: // LRI, RLI, FSI, PDI
		return true
	case r == 0x200e, r == 0x200f, r == 0x061c: // LRM, RLM, ALM
		return true
	}
	return false
}

// byteStringWriter is what strings.Builder and bytes.Buffer both are.
type byteStringWriter interface {
	WriteByte(c byte) error
	WriteString(s string) (int, error)
}

// writeByteEscape writes the escape of one byte: \n, \r, \t or \xNN.
func writeByteEscape(b byteStringWriter, c byte) {
	switch c {
	case '\n':
		b.WriteString(`\n`)
	case '\r':
		b.WriteString(`\r`)
	case '\t':
		b.WriteString(`\t`)
	default:
		b.WriteString(`\x`)
		b.WriteByte(hexDigits[c>>4])
		b.WriteByte(hexDigits[c&0xf])
	}
}

// writeRuneEscape writes \uNNNN for a code point of the Basic
// Multilingual Plane (every rune unsafeRune reports is one).
func writeRuneEscape(b byteStringWriter, r rune) {
	b.WriteString(`\u`)
	for shift := 12; shift >= 0; shift -= 4 {
		b.WriteByte(hexDigits[(r>>uint(shift))&0xf])
	}
}
