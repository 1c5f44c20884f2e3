package format

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxNameLen is the longest package name, in characters: the Agent Skills
// specification's limit for a skill's name, which the agents that load
// skills apply.
const MaxNameLen = 64

// CheckName returns every way name breaks the package-name grammar, one
// reason per broken rule (for example "starts with a hyphen"), or nil when
// name is valid. The grammar is the Agent Skills specification's: 1 to
// MaxNameLen characters of lowercase ASCII letters, digits and hyphens,
// no hyphen at either end and no "--". The characters "@" and "/" get a
// reason of their own, because they are reserved for scoped names
// (@org/skill). Each reason completes a sentence that starts with the
// quoted name: `name "My_Skill" contains uppercase letters ("M", "S"); …`.
//
// Every module checks names with CheckName or ValidName, so that a name
// one of them accepts is accepted by all: skill.yaml and front matter
// (validate), references and skills.lock (resolve), registry indexes
// (registry) and new packages (scaffold).
func CheckName(name string) []string {
	if name == "" {
		return []string{"is empty"}
	}
	var reasons []string
	if n := utf8.RuneCountInString(name); n > MaxNameLen {
		reasons = append(reasons, fmt.Sprintf("is %d characters; the limit is %d", n, MaxNameLen))
	}
	var upper, reserved, other []string
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-':
		case r >= 'A' && r <= 'Z':
			upper = appendOnce(upper, strconv.Quote(string(r)))
		case r == '@' || r == '/':
			reserved = appendOnce(reserved, strconv.Quote(string(r)))
		default:
			other = appendOnce(other, strconv.QuoteRune(r))
		}
	}
	if len(upper) > 0 {
		reasons = append(reasons, "contains uppercase letters ("+strings.Join(upper, ", ")+"); names are lowercase")
	}
	if len(reserved) > 0 {
		reasons = append(reasons, "contains "+strings.Join(reserved, " and ")+", reserved for scoped names such as @org/skill")
	}
	if len(other) > 0 {
		reasons = append(reasons, "contains "+strings.Join(other, ", ")+"; only lowercase letters, digits and hyphens are allowed")
	}
	if strings.HasPrefix(name, "-") {
		reasons = append(reasons, "starts with a hyphen")
	}
	if strings.HasSuffix(name, "-") && len(name) > 1 {
		reasons = append(reasons, "ends with a hyphen")
	}
	if strings.Contains(name, "--") {
		reasons = append(reasons, `contains "--"`)
	}
	return reasons
}

// ValidName reports whether name follows the package-name grammar, that
// is whether CheckName returns no reason. Unlike CheckName it never
// allocates, for callers that check many names (index and lock decoding).
func ValidName(name string) bool {
	if name == "" || len(name) > MaxNameLen || name[0] == '-' || name[len(name)-1] == '-' {
		return false
	}
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		case c == '-' && name[i-1] != '-':
		default:
			return false
		}
	}
	return true
}

// SuggestName derives a valid package name from s, for messages that
// propose one: it lowercases ASCII letters, turns every run of other
// characters into one hyphen, trims hyphens at both ends and cuts the
// result to MaxNameLen characters. It returns "" when nothing valid
// remains (for example for "@@").
func SuggestName(s string) string {
	var b strings.Builder
	hyphen := false
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
			hyphen = false
		case r >= 'A' && r <= 'Z':
			b.WriteRune(r + ('a' - 'A'))
			hyphen = false
		default:
			if !hyphen && b.Len() > 0 {
				b.WriteByte('-')
				hyphen = true
			}
		}
	}
	out := strings.Trim(b.String(), "-")
	if len(out) > MaxNameLen {
		out = strings.TrimRight(out[:MaxNameLen], "-")
	}
	return out
}

// appendOnce appends s to list unless it is already there.
func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}
