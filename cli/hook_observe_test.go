package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHookObserveNeverBlocks: a host that never closes stdin, and an
// oversized payload, get one stderr line, the neutral output and exit 0,
// within the 2 s bound.
func TestHookObserveNeverBlocks(t *testing.T) {
	home := t.TempDir()
	pr, pw := io.Pipe()
	defer pw.Close()
	var out, errb bytes.Buffer
	start := time.Now()
	code := run(context.Background(), []string{"hook", "observe", "--host", "gemini"}, pr, &out, &errb, hookEnv(home))
	if took := time.Since(start); took > hookTimeout+time.Second {
		t.Errorf("took %v", took)
	}
	if code != 0 || out.String() != "{}\n" || !strings.Contains(errb.String(), "gave up after 2s") || strings.Count(errb.String(), "\n") != 1 {
		t.Errorf("stalled stdin: %d, %q, %q", code, out.String(), errb.String())
	}

	out.Reset()
	errb.Reset()
	big := io.MultiReader(strings.NewReader(`{"x":"`), io.LimitReader(zeros{}, 17<<20))
	code = run(context.Background(), []string{"hook", "observe", "--host", "claude"}, big, &out, &errb, hookEnv(home))
	if code != 0 || out.String() != "" || !strings.Contains(errb.String(), "over 16 MiB") || strings.Count(errb.String(), "\n") != 1 {
		t.Errorf("oversized payload: %d, %q, %q", code, out.String(), errb.String())
	}
	if _, err := os.Stat(filepath.Join(home, ".agents")); !os.IsNotExist(err) {
		t.Errorf("a failed hook made %s/.agents (err %v)", home, err)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	return len(p), nil
}
