package scaffold

import (
	"fmt"
	"strings"
)

// Name limits of the package format (DESIGN §3.3). They mirror the rule in
// the validate module so that a scaffold never produces a name validate
// rejects.
const (
	minNameLen = 2
	maxNameLen = 64
)

// CheckName reports whether name is a valid package name: 2 to 64 characters
// of lowercase ASCII letters, digits and hyphens, starting and ending with a
// letter or digit, without "--". The error, when not nil, is an *Error with
// code ASK_NAME_INVALID that says exactly what is wrong.
func CheckName(name string) error {
	problem := nameProblem(name)
	if problem == "" {
		return nil
	}
	return &Error{
		Code:    "ASK_NAME_INVALID",
		Message: fmt.Sprintf("name %q is invalid: %s", name, problem),
		Hints: []string{
			"use 2 to 64 lowercase letters, digits and single hyphens, e.g. " + suggestName(name),
		},
	}
}

func nameProblem(name string) string {
	switch {
	case name == "":
		return "it is empty"
	case len(name) < minNameLen:
		return fmt.Sprintf("it is %d character; the minimum is %d", len(name), minNameLen)
	case len(name) > maxNameLen:
		return fmt.Sprintf("it is %d characters; the limit is %d", len(name), maxNameLen)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-':
		case c == '@' || c == '/':
			return fmt.Sprintf("%q is reserved for future scoped names", string(c))
		case c >= 'A' && c <= 'Z':
			return "it contains uppercase letters; names are lowercase"
		default:
			return fmt.Sprintf("character %q at byte %d is not a lowercase letter, digit or hyphen", rune(c), i+1)
		}
	}
	switch {
	case name[0] == '-':
		return "it starts with a hyphen"
	case name[len(name)-1] == '-':
		return "it ends with a hyphen"
	case strings.Contains(name, "--"):
		return `it contains "--"; use single hyphens between words`
	}
	return ""
}

// suggestName turns an arbitrary string into a name that passes CheckName,
// for use in hints. It lowercases letters, turns every run of other
// characters into one hyphen, trims hyphens and caps the length.
func suggestName(s string) string {
	var b strings.Builder
	hyphen := false
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if hyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			hyphen = false
			b.WriteRune(r)
			continue
		}
		hyphen = true
	}
	out := b.String()
	if len(out) > maxNameLen {
		out = strings.TrimRight(out[:maxNameLen], "-")
	}
	if len(out) < minNameLen {
		return "my-skill"
	}
	return out
}

// nameWords splits a valid name into its hyphen-separated words.
func nameWords(name string) []string {
	return strings.FieldsFunc(name, func(r rune) bool { return r == '-' })
}

// titleFromName turns "java-performance" into "Java Performance".
func titleFromName(name string) string {
	words := nameWords(name)
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, " ")
}

// phraseFromName turns "java-performance" into "java performance".
func phraseFromName(name string) string {
	return strings.Join(nameWords(name), " ")
}

// isStopWord reports whether w is left out of keywords derived from a name:
// such words carry no search signal.
func isStopWord(w string) bool {
	switch w {
	case "a", "an", "and", "as", "at", "by", "for", "from", "in", "into",
		"of", "on", "or", "the", "to", "with":
		return true
	}
	return false
}

// keywordsFromName returns the distinct words of a name that carry meaning,
// in order of appearance. A name made only of stop words yields the name
// itself, so the list is never empty.
func keywordsFromName(name string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range nameWords(name) {
		if isStopWord(w) || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	if len(out) == 0 {
		out = []string{name}
	}
	return out
}
