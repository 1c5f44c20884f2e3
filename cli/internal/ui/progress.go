package ui

import (
	"fmt"

	"github.com/agent-skills/agent-skills/cli/internal/termtext"
)

// Progress shows "label (i/n) item" on one self-overwriting line of
// standard error. It never appears in pipes, under --quiet or --json, or
// in CI.
type Progress struct {
	p     *Printer
	on    bool
	width int
}

// Progress starts a progress line; with off it shows nothing.
func (p *Printer) Progress(off bool) *Progress {
	on := !off && !p.opts.Quiet && !p.opts.CI && p.ErrIsTerminal()
	return &Progress{p: p, on: on}
}

// Step shows the i-th of n steps.
func (g *Progress) Step(i, n int, label, item string) {
	if g == nil || !g.on {
		return
	}
	// The line overwrites itself with a carriage return, which the
	// terminal backstop would escape: it goes out raw, its parts escaped
	// here.
	line := fmt.Sprintf("%s (%d/%d) %s", termtext.Line(label), i, n, termtext.Line(item))
	pad := max(g.width-len(line), 0)
	fmt.Fprintf(g.p.RawErr(), "\r%s%*s", line, pad, "")
	g.width = len(line)
}

// Done erases the progress line.
func (g *Progress) Done() {
	if g != nil && g.on && g.width > 0 {
		fmt.Fprintf(g.p.RawErr(), "\r%*s\r", g.width, "")
		g.width = 0
	}
}
