package scan

import (
	"fmt"
	"strings"
	"unicode"
)

// Visible returns s with every character a terminal or a Markdown renderer
// would hide, reorder or interpret written as <U+XXXX>: C0 and C1 controls
// (a tab stays), format characters (bidirectional controls, zero-width
// characters, tags), Hangul fillers and invalid UTF-8 (<U+FFFD>).
func Visible(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if !hiddenRune(r) {
			b.WriteRune(r)
			continue
		}
		// A run of tag characters (which spell text invisibly) is written
		// as its ends and its length: the finding's message quotes what
		// it spells, and a line of <U+E00xx> helps nobody.
		j := i
		for j < len(rs) && isTag(rs[j]) {
			j++
		}
		if j-i > 3 {
			fmt.Fprintf(&b, "<U+%04X…U+%04X: %d tag characters>", rs[i], rs[j-1], j-i)
			i = j - 1
			continue
		}
		fmt.Fprintf(&b, "<U+%04X>", r)
	}
	return b.String()
}

func isTag(r rune) bool { return r >= 0xE0000 && r <= 0xE007F }

func needsEscape(s string) bool {
	for _, r := range s {
		if hiddenRune(r) {
			return true
		}
	}
	return false
}

func hiddenRune(r rune) bool {
	switch {
	case r == '\t':
		return false
	case r < 0x20, r >= 0x7f && r < 0xa0, r == unicode.ReplacementChar:
		return true
	case r == 0x115F, r == 0x1160, r == 0x3164, r == 0xFFA0, r == 0x180E:
		return true
	}
	return unicode.Is(unicode.Cf, r)
}
