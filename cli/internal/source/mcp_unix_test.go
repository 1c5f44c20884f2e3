//go:build unix

package source

import (
	"bufio"
	"context"
	"os"
	"os/exec"
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

// An mcp+http:// source on loopback: the fixture's streamable HTTP mode,
// listed and one skill read and verified, with the protocol version header
// sent after the handshake.
func TestMCPHTTPLoopback(t *testing.T) {
	py, server := fixtureArgs(t)
	log := filepath.Join(t.TempDir(), "requests.log")
	t.Setenv("SEP_FIXTURE_LOG", log)
	cmd := exec.Command(py, server, "--http")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	port, ok := strings.CutPrefix(strings.TrimSpace(line), "PORT ")
	if err != nil || !ok {
		t.Fatalf("the fixture printed %q, %v", line, err)
	}
	r, isSource, err := Parse("mcp+http://127.0.0.1:"+port+"/mcp", "/", nil)
	if err != nil || !isSource {
		t.Fatal(err)
	}
	res, err := Fetch(context.Background(), r, Options{CacheDir: t.TempDir(), List: true})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range res.Found {
		names = append(names, f.Name+"@"+f.Path)
	}
	if got := strings.Join(names, " "); got != "greeting@greeting refunds@acme/billing/refunds" {
		t.Errorf("listed %s", got)
	}
	if res.Source != "mcp+http://127.0.0.1:"+port+"/mcp" {
		t.Errorf("Source = %q", res.Source)
	}
	root := t.TempDir()
	if err := openMCP(context.Background(), r, root, "acme/billing/refunds", &Options{}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, "acme", "billing", "refunds", "scripts", "check.sh"))
	if err != nil || !strings.Contains(string(data), "binary-tail\xff") {
		t.Errorf("check.sh = %q, %v", data, err)
	}
	reqs, _ := os.ReadFile(log)
	lists := 0
	for _, l := range strings.Split(strings.TrimSpace(string(reqs)), "\n") {
		if strings.Contains(l, `"skills/list"`) {
			lists++
			if !strings.HasSuffix(l, "version=2025-11-25") {
				t.Errorf("skills/list went without the protocol version header: %s", l)
			}
		}
	}
	if lists != 2 {
		t.Errorf("the fixture logged %d skills/list requests, want 2:\n%s", lists, reqs)
	}
	// The server gone: the reason the transport gave, not only its code.
	cmd.Process.Kill()
	cmd.Wait()
	_, err = Fetch(context.Background(), r, Options{CacheDir: t.TempDir(), List: true})
	if !askerr.Is(err, CodeSourceUnavailable) || !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("Fetch of a stopped server = %v; want ASK_SOURCE_UNAVAILABLE saying the connection was refused", err)
	}
}
