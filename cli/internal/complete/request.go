package complete

import (
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/posener/complete"
)

// Request is one completion request: the command line up to the cursor.
type Request struct {
	// Line is the line typed so far, cut at the cursor; its first word
	// is the program's name.
	Line string
}

// FromEnv returns the request a shell made through COMP_LINE and
// COMP_POINT (the byte offset of the cursor; the end of the line when
// it is absent or out of range), and false when COMP_LINE is empty: the
// run is not a completion.
func FromEnv(getenv func(string) string) (Request, bool) {
	line := getenv("COMP_LINE")
	if line == "" {
		return Request{}, false
	}
	if p, err := strconv.Atoi(getenv("COMP_POINT")); err == nil && p >= 0 && p < len(line) {
		line = line[:p]
	}
	return Request{Line: line}, true
}

// Args splits the line into the words posener/complete predicts from, as
// its own reader does: a line that ends in a space is completing a new,
// empty word, and a last word "--flag=value" is the two words "--flag"
// and "value" (posener splits any last word at every "="; this splits
// only a flag, at its first).
func (r Request) Args() complete.Args {
	parts := strings.Fields(r.Line)
	if n := len(r.Line); n > 0 && unicode.IsSpace(rune(r.Line[n-1])) {
		parts = append(parts, "")
	}
	if n := len(parts); n > 0 {
		if flag, value, ok := strings.Cut(parts[n-1], "="); ok && strings.HasPrefix(flag, "-") {
			parts = append(parts[:n-1], flag, value)
		}
	}
	var a complete.Args
	if len(parts) == 0 {
		return a
	}
	a.All = parts[1:]
	if n := len(a.All); n > 0 {
		a.Completed = a.All[:n-1]
	}
	a.Last = parts[len(parts)-1]
	if n := len(a.Completed); n > 0 {
		a.LastCompleted = a.Completed[n-1]
	}
	return a
}

// Command returns the first word after the program's name that is not a
// flag: the top-level command being typed ("" when there is none yet).
// The global flags take no values, so every word before it is a flag.
func (r Request) Command() string {
	a := r.Args()
	for _, w := range a.Completed {
		if !strings.HasPrefix(w, "-") {
			return w
		}
	}
	return ""
}

// Candidates returns what cmd predicts for the request: the predictions
// that start with the word being typed, sorted, without duplicates, and
// without any that holds a space or a control character (a skill name
// read from a hostile receipt must not become two words or a terminal
// sequence in the user's shell).
//
// A line whose command is not one of cmd's offers nothing: posener would
// offer the commands again after an unknown word.
func Candidates(cmd complete.Command, r Request) []string {
	if c := r.Command(); c != "" {
		if _, ok := cmd.Sub[c]; !ok {
			return nil
		}
	}
	a := r.Args()
	var out []string
	for _, c := range cmd.Predict(a) {
		if c != "" && strings.HasPrefix(c, a.Last) && printable(c) {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// printable reports whether s is one shell word of visible characters.
func printable(s string) bool {
	for _, r := range s {
		if unicode.IsSpace(r) || !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}
