package validate

import "strings"

// linkCandidates returns every string that may be the destination of a
// link or image of body as Links finds it, and ok; or ok false when it
// cannot be sure, and Links must parse. Every destination CommonMark can
// give starts right after "](" (an inline link or image) or "]:" (a
// reference definition, which reference links take theirs from), past
// optional whitespace, and runs to the next whitespace — or, for an inline
// link, to the next ")". The scan takes that text at every such place, in
// code spans and blocks too, so it finds a superset of the destinations.
// It declines what could make a destination differ from the bytes: a
// backslash escape, an entity (&), a percent-escape that classify would
// decode, an angle-bracketed destination (<), a "(" inside an inline
// destination (balanced parentheses belong to it), and control characters
// (a tab, a carriage return), whose role in a destination it leaves to
// goldmark.
func linkCandidates(body []byte) (dests []string, ok bool) {
	s := string(body)
	if strings.ContainsAny(s, "\\&%<") {
		return nil, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' && s[i] != '\n' || s[i] == 0x7f {
			return nil, false // tabs, carriage returns, other controls
		}
	}
	for i := 0; i+1 < len(s); i++ {
		if s[i] != ']' || s[i+1] != '(' && s[i+1] != ':' {
			continue
		}
		inline := s[i+1] == '('
		j := i + 2
		for j < len(s) && isSpaceByte(s[j]) {
			j++
		}
		k := j
		for k < len(s) && !isSpaceByte(s[k]) && !(inline && s[k] == ')') {
			if inline && s[k] == '(' {
				return nil, false
			}
			k++
		}
		dests = append(dests, s[j:k])
	}
	return dests, true
}

// isSpaceByte reports the whitespace that can surround a destination in
// the bodies linkCandidates scans.
func isSpaceByte(c byte) bool { return c == ' ' || c == '\n' }
