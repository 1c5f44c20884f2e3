package termtext

import (
	"bytes"
	"unicode/utf8"
)

// JSON returns the JSON text b with every DEL, C1 control,
// bidirectional formatting character and line or paragraph separator
// written as a \uNNNN escape. encoding/json already escapes the C0
// controls and replaces invalid UTF-8; these are the characters it leaves
// raw. In JSON they can only occur inside strings, where the escape
// denotes the very same character, so the value b encodes is unchanged —
// a program reading the output sees exactly what the package said — while
// a terminal showing it receives nothing it would act on. b must be valid
// JSON as encoding/json writes it.
func JSON(b []byte) []byte {
	i := firstJSONUnsafe(b)
	if i < 0 {
		return b
	}
	out := bytes.NewBuffer(make([]byte, 0, len(b)+32))
	out.Write(b[:i])
	for i < len(b) {
		c := b[i]
		if c < utf8.RuneSelf {
			if c == 0x7f {
				out.WriteString(`\u007f`)
			} else {
				out.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError && unsafeRune(r, false) {
			writeRuneEscape(out, r)
		} else {
			out.Write(b[i : i+size])
		}
		i += size
	}
	return out.Bytes()
}

// firstJSONUnsafe returns the index of the first character JSON escapes,
// or -1.
func firstJSONUnsafe(b []byte) int {
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if c == 0x7f {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError && unsafeRune(r, false) {
			return i
		}
		i += size
	}
	return -1
}
