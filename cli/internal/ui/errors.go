package ui

import (
	"fmt"
	"io"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/termtext"
)

// Error writes err to Err in the standard shape of design §8:
//
//	error: <message>
//	  <detail lines>
//	Try: <next action>
//	     <next action>
//	code: ASK_…
func (p *Printer) Error(err error) { RenderError(p.Err, err, p.ErrStyle) }

// RenderError writes err to w in the standard shape (see Printer.Error).
// It reads the code, the detail lines and the next actions through
// askerr's interfaces, from the error or any error it wraps, and the
// message from Error(). Messages carry names, paths, URLs and git output
// from packages and sources, so every line is escaped (termtext.Line): a
// new line inside one is shown as \n, never as a line of its own.
func RenderError(w io.Writer, err error, st Style) {
	fmt.Fprintf(w, "%s %s\n", st.Red("error:"), termtext.Line(strings.TrimRight(err.Error(), "\n")))
	for _, l := range askerr.DetailOf(err) {
		fmt.Fprintf(w, "  %s\n", termtext.Line(l))
	}
	for i, t := range askerr.TryOf(err) {
		lead := "     "
		if i == 0 {
			lead = st.Bold("Try:") + " "
		}
		fmt.Fprintf(w, "%s%s\n", lead, termtext.Line(t))
	}
	fmt.Fprintf(w, "code: %s\n", askerr.CodeOf(err))
}
