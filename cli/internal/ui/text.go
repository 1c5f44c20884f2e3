package ui

import (
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/termtext"
)

// Field returns a value from a package, index or source — a name, a
// version, a path, a registry — escaped to print as one field of a line.
func Field(s string) string { return termtext.Line(s) }

// Fields escapes each value like Field and joins them with sep.
func Fields(ss []string, sep string) string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = Field(s)
	}
	return strings.Join(out, sep)
}

// OneLine folds white space runs, new lines included, into single spaces
// and escapes what a terminal would act on: the form of every description
// printed in a table or a line.
func OneLine(s string) string { return termtext.Line(FoldSpace(s)) }

// FoldSpace folds white space runs, new lines included, into single
// spaces, for a value that a program, not a terminal, reads.
func FoldSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// Truncate shortens s to at most n runes, marking a cut with "…".
func Truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// Plural returns one when n is 1, else many.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Dash returns s, or "-" when it is empty: the empty cell of a table.
func Dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
