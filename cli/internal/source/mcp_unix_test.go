//go:build unix

package source

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/registry"
)

// A server that never answers is abandoned after the idle limit and its
// process killed, not left behind.
func TestMCPHangKilled(t *testing.T) {
	cmd := fixture(t)
	pidfile := filepath.Join(t.TempDir(), "pid")
	t.Setenv("SEP_FIXTURE", "hang")
	t.Setenv("SEP_FIXTURE_PIDFILE", pidfile)
	start := time.Now()
	_, err := Fetch(context.Background(), Ref{Kind: KindMCP, Command: cmd, Input: "mcp:" + cmd},
		Options{CacheDir: t.TempDir(), List: true, HTTPTimeouts: registry.HTTPTimeouts{Idle: 300 * time.Millisecond}})
	if !askerr.Is(err, CodeSourceUnavailable) || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("Fetch = %v; want ASK_SOURCE_UNAVAILABLE, timed out", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Fetch took %s", d)
	}
	data, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatal("the fixture wrote no pid:", err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	if pid <= 0 {
		t.Fatalf("pid file holds %q", data)
	}
	if err := syscall.Kill(pid, 0); err == nil {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the server (pid %d) is still running", pid)
	}
}
