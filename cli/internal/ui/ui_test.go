package ui

import (
	"bytes"
	"fmt"
	"io/fs"
	"strings"
	"syscall"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
)

// TestBackstopPassesOnlyOwnColours checks that every colour Style writes
// survives the terminal backstop when colour is on, and that nothing
// else — another SGR sequence, an OSC, a C1 control, colour when it is
// off — reaches the terminal raw.
func TestBackstopPassesOnlyOwnColours(t *testing.T) {
	for _, color := range []bool{true, false} {
		var out bytes.Buffer
		p := New(&out, &bytes.Buffer{}, Options{Color: color})
		st := p.Style
		own := st.Red("r") + st.Yellow("y") + st.Green("g") + st.Bold("b") + st.Dim("d")
		fmt.Fprintf(p.Out, "%s|\x1b[8mhidden\x1b]52;c;eA==\a\u009b2J\n", own)
		p.Flush()
		got := out.String()
		if !strings.HasPrefix(got, own+"|") {
			t.Errorf("color=%v: backstop wrote %q, want it to start with the style's own %q", color, got, own)
		}
		rest := strings.TrimPrefix(got, own)
		if want := `|\x1b[8mhidden\x1b]52;c;eA==\x07\u009b2J` + "\n"; rest != want {
			t.Errorf("color=%v: backstop wrote %q after the colours, want %q", color, rest, want)
		}
		if !color && strings.Contains(got, "\x1b") {
			t.Errorf("color=false: backstop wrote a raw ESC: %q", got)
		}
	}
}

// TestRenderErrorEscapesEveryLine: a message, a detail line and a next
// action from a package are escaped, and a new line inside a detail line
// stays on it, shown as \n, rather than forging a line of its own.
func TestRenderErrorEscapesEveryLine(t *testing.T) {
	err := &askerr.Error{Code: "ASK_SOURCE_NOT_FOUND", Message: "no skill \x1b[2Jhere",
		Detail: []string{"git: \x1b]52;c;eA==\a", "two\nlines\u202e"}, Try: []string{"run \x1b[31mthis"}}
	var out bytes.Buffer
	RenderError(&out, err, Style{})
	got := out.String()
	if strings.ContainsAny(got, "\x1b\a\u202e") {
		t.Errorf("RenderError wrote a control character: %q", got)
	}
	for _, want := range []string{`error: no skill \x1b[2Jhere`, `  git: \x1b]52;c;eA==\x07`, "  two\\nlines\\u202e\n", `Try: run \x1b[31mthis`} {
		if !strings.Contains(got, want) {
			t.Errorf("RenderError wrote %q, want it to contain %q", got, want)
		}
	}
}

// TestRenderErrorShape: the message, the detail lines indented, the next
// actions aligned under "Try:", the code last; an uncoded I/O failure is
// ASK_IO with the generic next action.
func TestRenderErrorShape(t *testing.T) {
	var out bytes.Buffer
	RenderError(&out, &askerr.Error{Code: "ASK_X", Message: "m", Detail: []string{"d1", "d2"}, Try: []string{"t1", "t2"}}, Style{})
	if got, want := out.String(), "error: m\n  d1\n  d2\nTry: t1\n     t2\ncode: ASK_X\n"; got != want {
		t.Errorf("RenderError = %q, want %q", got, want)
	}
	out.Reset()
	RenderError(&out, &fs.PathError{Op: "write", Path: "/full/x", Err: syscall.ENOSPC}, Style{})
	if got := out.String(); !strings.Contains(got, "no space left on device") || !strings.Contains(got, "Try: check the free disk space") ||
		!strings.HasSuffix(got, "code: ASK_IO\n") {
		t.Errorf("RenderError(ENOSPC) = %q, want the cause, a next action and ASK_IO", got)
	}
}

func TestRel(t *testing.T) {
	p := New(&bytes.Buffer{}, &bytes.Buffer{}, Options{Cwd: "/w/proj"})
	for in, want := range map[string]string{"/w/proj/.claude/skills/x": ".claude/skills/x", "/elsewhere/y": "/elsewhere/y"} {
		if got := p.Rel(in); got != want {
			t.Errorf("Rel(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestEachStreamHasItsOwnColours: colour is decided per stream. With
// standard error a terminal and standard output a file, warnings and
// errors are coloured and results are not, and the reverse; and each
// stream's backstop lets only its own style's colours through, so a
// colour sequence meant for one stream is escaped on the other.
func TestEachStreamHasItsOwnColours(t *testing.T) {
	for _, tc := range []struct{ out, err bool }{{false, true}, {true, false}, {true, true}, {false, false}} {
		var out, errb bytes.Buffer
		p := New(&out, &errb, Options{Color: tc.out, ErrColor: tc.err})
		if p.Style.Color != tc.out || p.ErrStyle.Color != tc.err {
			t.Errorf("New(Color: %v, ErrColor: %v) styles = %v, %v", tc.out, tc.err, p.Style.Color, p.ErrStyle.Color)
		}
		p.Warn("w")
		p.Error(askerr.Usage("bad"))
		fmt.Fprintf(p.Out, "%s\n", p.Style.Green("installed"))
		// A colour of the other stream's style written to this one.
		fmt.Fprintf(p.Out, "%s\n", Style{Color: true}.Red("x"))
		fmt.Fprintf(p.Err, "%s\n", Style{Color: true}.Green("y"))
		p.Flush()
		wantErr := "warning: w\nerror: bad\n"
		if tc.err {
			wantErr = "\x1b[33mwarning:\x1b[0m w\n\x1b[31merror:\x1b[0m bad\n"
		}
		if !strings.HasPrefix(errb.String(), wantErr) {
			t.Errorf("out=%v err=%v: stderr = %q, want it to start with %q", tc.out, tc.err, errb.String(), wantErr)
		}
		wantOut := "installed\n"
		if tc.out {
			wantOut = "\x1b[32minstalled\x1b[0m\n"
		}
		if !strings.HasPrefix(out.String(), wantOut) {
			t.Errorf("out=%v err=%v: stdout = %q, want it to start with %q", tc.out, tc.err, out.String(), wantOut)
		}
		// Red is Out's own colour only when Out is coloured; green on Err
		// only when Err is.
		if got := strings.Contains(out.String(), "\x1b[31mx"); got != tc.out {
			t.Errorf("out=%v: raw red on stdout = %v", tc.out, got)
		}
		if got := strings.Contains(errb.String(), "\x1b[32my"); got != tc.err {
			t.Errorf("err=%v: raw green on stderr = %v", tc.err, got)
		}
	}
}
