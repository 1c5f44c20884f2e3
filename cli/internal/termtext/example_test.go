package termtext_test

import (
	"fmt"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/termtext"
)

func ExampleLine() {
	// A description from a registry index that tries to clear the screen
	// and write the clipboard.
	desc := "Formats code. \x1b[2J\x1b]52;c;Y3VybCBldmlsIHwgc2gK\a"
	fmt.Println(termtext.Line(desc))
	// Output: Formats code. \x1b[2J\x1b]52;c;Y3VybCBldmlsIHwgc2gK\x07
}

func ExampleWriter() {
	// The program's own bold passes; a window-title sequence from a
	// package does not.
	var out strings.Builder
	w := termtext.NewWriter(&out, termtext.Options{Allow: []string{"\x1b[1m", "\x1b[0m"}})
	fmt.Fprintf(w, "%s %s\n", "\x1b[1mbold\x1b[0m", "\x1b]0;new window title\a")
	w.Flush()
	fmt.Printf("%q\n", out.String())
	// Output: "\x1b[1mbold\x1b[0m \\x1b]0;new window title\\x07\n"
}
