package cli

import (
	"fmt"

	"github.com/agent-skills/agent-skills/cli/internal/termtext"
)

// progress shows "label (i/n) item" on one self-overwriting terminal line.
// It never appears in pipes, under --quiet or --json, or in CI.
type progress struct {
	e     *env
	on    bool
	width int
}

// newProgress starts a progress line when standard error is a terminal.
func (e *env) newProgress(json bool) *progress {
	on := !json && !e.g.Quiet && e.getenv("CI") == "" && isTerminal(e.stderr)
	return &progress{e: e, on: on}
}

// step shows the i-th of n steps.
func (p *progress) step(i, n int, label, item string) {
	if !p.on {
		return
	}
	// The line overwrites itself with a carriage return, which the
	// terminal backstop would escape: it goes out raw, its parts escaped
	// here.
	line := fmt.Sprintf("%s (%d/%d) %s", termtext.Line(label), i, n, termtext.Line(item))
	pad := max(p.width-len(line), 0)
	fmt.Fprintf(raw(p.e.stderr), "\r%s%*s", line, pad, "")
	p.width = len(line)
}

// done erases the progress line.
func (p *progress) done() {
	if p.on && p.width > 0 {
		fmt.Fprintf(raw(p.e.stderr), "\r%*s\r", p.width, "")
		p.width = 0
	}
}
