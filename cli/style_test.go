package cli

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestBackstopPassesOnlyOwnColours checks that every colour style writes
// survives the terminal backstop when colour is on, and that nothing
// else — another SGR sequence, an OSC, a C1 control, colour when it is
// off — reaches the terminal raw.
func TestBackstopPassesOnlyOwnColours(t *testing.T) {
	for _, color := range []bool{true, false} {
		st := style{color: color}
		var out bytes.Buffer
		g := guard(&out, st)
		own := st.red("r") + st.yellow("y") + st.green("g") + st.bold("b") + st.dim("d")
		fmt.Fprintf(g, "%s|\x1b[8mhidden\x1b]52;c;eA==\a\u009b2J\n", own)
		g.Flush()
		got := out.String()
		if !strings.HasPrefix(got, own+"|") {
			t.Errorf("color=%v: backstop wrote %q, want it to start with style's own %q", color, got, own)
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

func TestRenderErrorEscapesEveryLine(t *testing.T) {
	err := &Error{Code: "ASK_SOURCE_NOT_FOUND", Summary: "no skill \x1b[2Jhere",
		Detail: []string{"git: \x1b]52;c;eA==\a", "two\nlines\u202e"}, Try: []string{"run \x1b[31mthis"}}
	var out bytes.Buffer
	renderError(&out, err, style{})
	got := out.String()
	if strings.ContainsAny(got, "\x1b\a\u202e") {
		t.Errorf("renderError wrote a control character: %q", got)
	}
	for _, want := range []string{`error: no skill \x1b[2Jhere`, `  git: \x1b]52;c;eA==\x07`, "  two\n  lines\\u202e\n", `Try: run \x1b[31mthis`} {
		if !strings.Contains(got, want) {
			t.Errorf("renderError wrote %q, want it to contain %q", got, want)
		}
	}
}
