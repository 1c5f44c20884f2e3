package cli

import "fmt"

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
	line := fmt.Sprintf("%s (%d/%d) %s", label, i, n, item)
	pad := max(p.width-len(line), 0)
	fmt.Fprintf(p.e.stderr, "\r%s%*s", line, pad, "")
	p.width = len(line)
}

// done erases the progress line.
func (p *progress) done() {
	if p.on && p.width > 0 {
		fmt.Fprintf(p.e.stderr, "\r%*s\r", p.width, "")
		p.width = 0
	}
}
