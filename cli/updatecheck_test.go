package cli

import (
	"bufio"
	"io"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/notify"
)

// terminalReads answers like a terminal after ^D: one end of file, then
// whatever is typed next.
type terminalReads struct{ reads []string }

func (t *terminalReads) Read(p []byte) (int, error) {
	if len(t.reads) == 0 {
		return 0, io.EOF
	}
	r := t.reads[0]
	t.reads = t.reads[1:]
	if r == "" {
		return 0, io.EOF
	}
	return copy(p, r), nil
}

// TestEndOnce: after ^D at the first prompt, a later prompt gets end of
// input at once rather than the next line typed.
func TestEndOnce(t *testing.T) {
	in := bufio.NewReader(&endOnce{r: &terminalReads{reads: []string{"d\n", "", "u\n"}}})
	if a, ended := notify.ReadAnswer(in); a != "d" || ended {
		t.Fatalf("first answer %q (ended %v), want d", a, ended)
	}
	if a, ended := notify.ReadAnswer(in); a != "" || !ended {
		t.Fatalf("after ^D: %q (ended %v), want the end of input", a, ended)
	}
	if a, ended := notify.ReadAnswer(in); a != "" || !ended {
		t.Fatalf("after ^D, a later prompt read %q (ended %v), want the end of input again", a, ended)
	}
}
