package validate

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Name limits of DESIGN §3.3: ^[a-z0-9]([a-z0-9-]*[a-z0-9])?$, 2..64 chars.
const (
	// MinNameLen is the shortest valid package name, in characters.
	MinNameLen = 2
	// MaxNameLen is the longest valid package name, in characters. It is
	// also the Agent Skills specification's limit for a front-matter name.
	MaxNameLen = 64
)

// CheckName reports whether name is a valid package name: 2 to 64
// characters of lowercase ASCII letters, digits and hyphens, starting and
// ending with a letter or digit, with no "--". The characters "@" and "/"
// are reserved for scoped names (@org/skill) and are refused with a message
// that says so. It returns nil or a *Problem with code ASK_NAME_INVALID whose
// message lists every broken rule and whose fix suggests a valid name.
func CheckName(name string) error {
	reasons := nameReasons(name, MinNameLen)
	if len(reasons) == 0 {
		return nil
	}
	return &Problem{
		Code:    "ASK_NAME_INVALID",
		Message: fmt.Sprintf("name %q %s", name, strings.Join(reasons, "; ")),
		Fix:     nameFix(name),
	}
}

// nameReasons lists every way name breaks the grammar. minLen is 2 for
// package names and 1 for front-matter names (the specification allows a
// one-character name, the package format does not).
func nameReasons(name string, minLen int) []string {
	if name == "" {
		return []string{"is empty"}
	}
	var reasons []string
	n := utf8.RuneCountInString(name)
	switch {
	case n > MaxNameLen:
		reasons = append(reasons, fmt.Sprintf("is %d characters; the limit is %d", n, MaxNameLen))
	case n < minLen:
		reasons = append(reasons, fmt.Sprintf("is %d character; the minimum is %d", n, minLen))
	}
	var upper, reserved, other []string
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-':
		case r >= 'A' && r <= 'Z':
			upper = appendOnce(upper, string(r))
		case r == '@' || r == '/':
			reserved = appendOnce(reserved, string(r))
		default:
			other = appendOnce(other, fmt.Sprintf("%q", r))
		}
	}
	if len(upper) > 0 {
		reasons = append(reasons, "contains uppercase letters ("+strings.Join(quoteAll(upper), ", ")+"); names are lowercase")
	}
	if len(reserved) > 0 {
		reasons = append(reasons, "contains "+strings.Join(quoteAll(reserved), " and ")+
			", reserved for scoped names such as @org/skill")
	}
	if len(other) > 0 {
		reasons = append(reasons, "contains "+strings.Join(other, ", ")+
			"; only lowercase letters, digits and hyphens are allowed")
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

// nameFix suggests a valid name derived from name, or a generic fix when
// no valid name can be derived.
func nameFix(name string) string {
	if s := SuggestName(name); s != "" && s != name {
		return fmt.Sprintf("rename it to %q (lowercase letters, digits and single hyphens, %d-%d characters)", s, MinNameLen, MaxNameLen)
	}
	return fmt.Sprintf("use %d-%d lowercase letters, digits and single hyphens, starting and ending with a letter or digit", MinNameLen, MaxNameLen)
}

// SuggestName derives a valid package name from s: it lowercases ASCII
// letters, turns every run of other characters into one hyphen, trims
// hyphens at both ends and cuts the result to MaxNameLen characters. It
// returns "" when nothing valid remains (for example for "@@" or "x").
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
	if len(out) < MinNameLen {
		return ""
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

// quoteAll quotes every string of list.
func quoteAll(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}
