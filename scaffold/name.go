package scaffold

import (
	"cmp"
	"strings"

	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/validate"
)

// checkName applies validate's name rule (the grammar of format.CheckName)
// to the name of a new or adopted package.
func checkName(name string) error { return problemError(validate.CheckName(name)) }

// suggestName turns an arbitrary string into a valid name for use in
// hints: format.SuggestName, or "my-skill" when nothing valid can be
// derived.
func suggestName(s string) string { return cmp.Or(format.SuggestName(s), "my-skill") }

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
