package ui

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/redact"
	"github.com/agent-skills/agent-skills/cli/internal/termtext"
)

// Options configure a Printer.
type Options struct {
	// Color turns colour on for standard output (see WantColor).
	Color bool
	// ErrColor turns colour on for standard error. It is decided for
	// standard error's own stream: piping the results of a command to a
	// file must not take the colour off its warnings on the terminal, nor
	// a terminal on standard output put colour into a log of standard
	// error.
	ErrColor bool
	// Quiet prints only errors and the results a command exists for
	// (a list, a search, a plan, JSON): no progress, notices, warnings,
	// confirmations of what was done, or warning diagnostics.
	Quiet bool
	// Verbose also prints the lines of Printer.Verbose.
	Verbose bool
	// Cwd is the working folder paths are shown relative to.
	Cwd string
	// CI says the process runs in continuous integration: no progress
	// line.
	CI bool
}

// Printer writes a command's output: results on Out, everything else
// (progress, notices, warnings, errors) on Err. Both pass the terminal
// backstop, and each stream has its own style: the backstop of a stream
// lets through only the colours of that stream's style.
type Printer struct {
	// Out is standard output, behind the backstop.
	Out io.Writer
	// Err is standard error, behind the backstop.
	Err io.Writer
	// Style colours what is written to Out.
	Style Style
	// ErrStyle colours what is written to Err.
	ErrStyle Style

	out, err *termtext.Writer
	opts     Options
}

// New returns a Printer writing to stdout and stderr.
func New(stdout, stderr io.Writer, o Options) *Printer {
	st, est := Style{Color: o.Color}, Style{Color: o.ErrColor}
	p := &Printer{Style: st, ErrStyle: est, opts: o, out: guard(stdout, st), err: guard(stderr, est)}
	p.Out, p.Err = p.out, p.err
	return p
}

// guard wraps w in the terminal backstop: everything is escaped except
// the colour sequences st writes, and URL passwords are masked.
func guard(w io.Writer, st Style) *termtext.Writer {
	return termtext.NewWriter(w, termtext.Options{Allow: st.Sequences(), Filter: redact.Text})
}

// Quieted returns a Printer on the same streams that prints no notices,
// warnings or progress: for work that must stay quiet (hooks, MCP tools).
func (p *Printer) Quieted() *Printer {
	q := *p
	q.opts.Quiet = true
	return &q
}

// Quiet reports whether --quiet was given.
func (p *Printer) Quiet() bool { return p.opts.Quiet }

// Info prints a progress or summary line on Err unless quiet.
func (p *Printer) Info(format string, args ...any) {
	if !p.opts.Quiet {
		fmt.Fprintf(p.Err, format+"\n", args...)
	}
}

// Done prints on Out what a command did — "added …", "created …",
// "published …" — unless quiet: a confirmation, not a result a script
// reads (those are printed whatever --quiet says, or as --json).
func (p *Printer) Done(format string, args ...any) {
	if !p.opts.Quiet {
		fmt.Fprintf(p.Out, format+"\n", args...)
	}
}

// Note prints a notice (a registry skipped, a cache used) unless quiet.
func (p *Printer) Note(format string, args ...any) {
	if !p.opts.Quiet {
		fmt.Fprintf(p.Err, "%s %s\n", p.ErrStyle.Dim("note:"), fmt.Sprintf(format, args...))
	}
}

// Warn prints a warning unless quiet.
func (p *Printer) Warn(format string, args ...any) {
	if !p.opts.Quiet {
		fmt.Fprintf(p.Err, "%s %s\n", p.ErrStyle.Yellow("warning:"), fmt.Sprintf(format, args...))
	}
}

// Verbose prints a line only with --verbose (and not --quiet).
func (p *Printer) Verbose(format string, args ...any) {
	if p.opts.Verbose && !p.opts.Quiet {
		fmt.Fprintf(p.Err, format+"\n", args...)
	}
}

// JSON writes v to Out as indented JSON with a trailing new line: the
// --json form of every command. Control characters JSON leaves raw are
// written as \u escapes (termtext.JSON), so the value a program decodes
// is unchanged and the backstop, which still masks URL passwords, has
// nothing else to change.
func (p *Printer) JSON(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return askerr.Internal("cannot encode the result as JSON", err)
	}
	return writeIndented(p.Out, b)
}

// jsonPiece is about how much of a JSON document JSON hands the backstop
// at a time.
const jsonPiece = 32 << 10

// writeIndented writes b, JSON as json.Marshal gives it, to w as
// json.MarshalIndent(v, "", "  ") gives it, escaped by termtext.JSON and
// followed by a new line, in pieces of about jsonPiece that each end with
// a line. At 10,000 skills the --json of an install is 8 MB indented:
// MarshalIndent made it in a second buffer twice the compact one's size,
// fmt copied it, and the backstop, given it whole, copied it three times
// more to hold, escape and filter it. Given whole lines, the backstop
// writes the same bytes; termtext.JSON, which escapes character by
// character, gives the same for a document cut between lines.
func writeIndented(w io.Writer, b []byte) error {
	buf := make([]byte, 0, jsonPiece+1<<10)
	flush := func() error {
		_, err := w.Write(termtext.JSON(buf))
		buf = buf[:0]
		return err
	}
	depth := 0
	// As json's indenter: an object or array opened waits for its first
	// member before the new line, so that empty ones stay {} and [].
	opened, inString, escaped := false, false, false
	newline := func(depth int) error {
		buf = append(buf, '\n')
		if len(buf) >= jsonPiece {
			if err := flush(); err != nil {
				return err
			}
		}
		for range depth {
			buf = append(buf, "  "...)
		}
		return nil
	}
	for _, c := range b {
		if inString {
			buf = append(buf, c)
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		if opened && c != '}' && c != ']' {
			opened = false
			depth++
			if err := newline(depth); err != nil {
				return err
			}
		}
		switch c {
		case '"':
			inString = true
			buf = append(buf, c)
		case '{', '[':
			opened = true
			buf = append(buf, c)
		case ',':
			buf = append(buf, c)
			if err := newline(depth); err != nil {
				return err
			}
		case ':':
			buf = append(buf, c, ' ')
		case '}', ']':
			if opened {
				opened = false
			} else {
				depth--
				if err := newline(depth); err != nil {
					return err
				}
			}
			buf = append(buf, c)
		default:
			buf = append(buf, c)
		}
	}
	buf = append(buf, '\n')
	return flush()
}

// RawOut returns standard output without the backstop, for a protocol
// stream (MCP) that a program reads.
func (p *Printer) RawOut() io.Writer { return p.out.Raw() }

// RawErr returns standard error without the backstop, for a line that
// overwrites itself (progress) and escapes its parts itself.
func (p *Printer) RawErr() io.Writer { return p.err.Raw() }

// Flush writes out what the backstops hold back of an unfinished line:
// before waiting for input after a prompt, and before exiting.
func (p *Printer) Flush() {
	_ = p.out.Flush()
	_ = p.err.Flush()
}

// Rel returns path relative to the working folder when it lies below it,
// and path itself otherwise.
func (p *Printer) Rel(path string) string {
	r, err := filepath.Rel(p.opts.Cwd, path)
	if err != nil || strings.HasPrefix(r, "..") {
		return path
	}
	return r
}

// ErrIsTerminal reports whether standard error is a terminal.
func (p *Printer) ErrIsTerminal() bool { return IsTerminal(p.err.Unwrap()) }

// OutIsTerminal reports whether standard output is a terminal.
func (p *Printer) OutIsTerminal() bool { return IsTerminal(p.out.Unwrap()) }

// WantColor decides whether to colour output written to w: only when w
// itself is a terminal, never with NO_COLOR, TERM=dumb, CI, --no-color or
// --json. The CLI asks once for standard output and once for standard
// error.
func WantColor(w io.Writer, getenv func(string) string, args []string) bool {
	if getenv("NO_COLOR") != "" || getenv("TERM") == "dumb" || getenv("CI") != "" {
		return false
	}
	for _, a := range args {
		if a == "--no-color" || a == "--json" {
			return false
		}
	}
	return IsTerminal(w)
}
