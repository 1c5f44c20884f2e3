package scan

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// hiddenRule returns the rule a character falls under, or "" for a visible
// character. Legitimate uses are decided by the caller, which sees the
// neighbours.
func hiddenRule(r rune) string {
	switch {
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069:
		return RuleHiddenBidi
	case r >= 0x200B && r <= 0x200D, r >= 0x2060 && r <= 0x2064, r == 0xFEFF, r == 0x180E,
		r == 0x115F, r == 0x1160, r == 0x3164, r == 0xFFA0:
		return RuleHiddenZeroWidth
	case r >= 0xE0000 && r <= 0xE007F:
		return RuleHiddenTag
	}
	return ""
}

// checkHidden reports runs of hidden characters in f's text: one finding
// per run of characters of one rule, so that a tag sequence spelling a
// sentence is one finding that quotes the sentence.
func checkHidden(s *scanner, f *file) {
	data := f.data
	var prev rune
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r < 0x180E || (r > 0x180E && r < 0x200B) {
			prev = r
			i += size
			continue
		}
		rule := hiddenRule(r)
		if rule == "" {
			prev = r
			i += size
			continue
		}
		start := i
		var run []rune
		for i < len(data) {
			r2, size2 := utf8.DecodeRune(data[i:])
			if hiddenRule(r2) != rule {
				break
			}
			run = append(run, r2)
			i += size2
		}
		next, _ := utf8.DecodeRune(data[i:])
		if legitimateHidden(rule, run, prev, next, start) {
			prev = run[len(run)-1]
			continue
		}
		s.add(rule, f, start, i, hiddenMessage(rule, run))
		prev = run[len(run)-1]
	}
}

// legitimateHidden reports the uses of invisible characters that text
// needs: a byte-order mark at the start of a file, joiners inside emoji
// sequences and in scripts that join or break words with them, and tag
// characters inside an emoji flag sequence (U+1F3F4 … U+E007F).
func legitimateHidden(rule string, run []rune, prev, next rune, off int) bool {
	switch rule {
	case RuleHiddenZeroWidth:
		if len(run) == 1 && run[0] == 0xFEFF && off == 0 {
			return true
		}
		if len(run) != 1 {
			return false
		}
		switch run[0] {
		case 0x200D: // zero-width joiner: emoji sequences, joining scripts
			return (emojiLike(prev) && emojiLike(next)) || joiningScript(prev) || joiningScript(next)
		case 0x200C: // zero-width non-joiner: Persian, Indic scripts
			return joiningScript(prev) || joiningScript(next)
		case 0x200B: // zero-width space: word breaks in scripts without spaces
			return spacelessScript(prev) || spacelessScript(next)
		}
	case RuleHiddenTag:
		if prev != 0x1F3F4 || run[len(run)-1] != 0xE007F || len(run) < 2 {
			return false
		}
		for _, r := range run[:len(run)-1] {
			if !(r >= 0xE0061 && r <= 0xE007A) && !(r >= 0xE0030 && r <= 0xE0039) {
				return false
			}
		}
		return true
	}
	return false
}

func emojiLike(r rune) bool {
	return unicode.Is(unicode.So, r) || r == 0xFE0F || (r >= 0x1F3FB && r <= 0x1F3FF) || r == 0x20E3
}

var joiningScripts = []*unicode.RangeTable{
	unicode.Arabic, unicode.Syriac, unicode.Nko, unicode.Mongolian, unicode.Devanagari,
	unicode.Bengali, unicode.Gurmukhi, unicode.Gujarati, unicode.Oriya, unicode.Tamil,
	unicode.Telugu, unicode.Kannada, unicode.Malayalam, unicode.Sinhala,
}

func joiningScript(r rune) bool { return unicode.IsOneOf(joiningScripts, r) }

var spacelessScripts = []*unicode.RangeTable{
	unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar, unicode.Tibetan,
	unicode.Han, unicode.Hiragana, unicode.Katakana,
}

func spacelessScript(r rune) bool { return unicode.IsOneOf(spacelessScripts, r) }

func hiddenMessage(rule string, run []rune) string {
	names := make([]string, 0, min(len(run), 4))
	for _, r := range run[:min(len(run), 4)] {
		names = append(names, fmt.Sprintf("U+%04X", r))
	}
	list := strings.Join(names, " ")
	if len(run) > 4 {
		list += fmt.Sprintf(" and %d more", len(run)-4)
	}
	switch rule {
	case RuleHiddenBidi:
		return fmt.Sprintf("bidirectional control %s: the text displays in a different order than an agent reads it", list)
	case RuleHiddenTag:
		if spelled := tagText(run); spelled != "" {
			return fmt.Sprintf("%d Unicode tag characters, invisible when shown, spell %q", len(run), spelled)
		}
		return fmt.Sprintf("Unicode tag characters %s, invisible when shown", list)
	}
	return fmt.Sprintf("invisible character %s", list)
}

// tagText decodes tag characters to the ASCII they mirror, bounded to 80
// characters.
func tagText(run []rune) string {
	var b strings.Builder
	for _, r := range run {
		if c := r - 0xE0000; c >= 0x20 && c < 0x7F {
			b.WriteRune(c)
			if b.Len() >= 80 {
				b.WriteString("…")
				break
			}
		}
	}
	return b.String()
}

// checkName reports hidden characters in a file's path: a name that reads
// differently than it is (B12's "gpj.<U+202E>md").
func (s *scanner) checkName(name string) {
	for _, r := range name {
		rule := hiddenRule(r)
		if rule == "" {
			continue
		}
		k := countKey{rule, name}
		s.counts[k]++
		s.report.Findings = append(s.report.Findings, Finding{
			Rule: rule, Severity: ruleSeverity(rule), File: name,
			Message: fmt.Sprintf("the file name holds %s U+%04X", describeRule(rule), r),
			Excerpt: Visible(name), Fix: "rename the file without invisible or control characters",
		})
		return
	}
}

func describeRule(rule string) string {
	switch rule {
	case RuleHiddenBidi:
		return "the bidirectional control"
	case RuleHiddenTag:
		return "the tag character"
	}
	return "the invisible character"
}
