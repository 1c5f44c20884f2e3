package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestEvidenceDriverColdStart builds agent-skills as a release does and
// runs `GODEBUG=inittrace=1 agent-skills --version`: the SQLite driver's
// package inits, which every command pays before main, must stay within
// 1 ms and 64 KiB together (issue 20; docs/evidence-research.md §1). Until
// a command links the evidence store the binary has no driver and the test
// says so and skips. Slow (a full build): skipped with -short.
func TestEvidenceDriverColdStart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary: skipped with -short")
	}
	deps, err := exec.Command("go", "list", "-deps", "./cmd/agent-skills").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	if !strings.Contains(string(deps), "github.com/ncruces/go-sqlite3/driver\n") {
		t.Skip("agent-skills does not link the evidence store yet")
	}
	bin := filepath.Join(t.TempDir(), "agent-skills")
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", bin, "./cmd/agent-skills")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	line := regexp.MustCompile(`(?m)^init (\S+) @[0-9.]+ ms, ([0-9.]+) ms clock, ([0-9]+) bytes`)
	var clocks []float64
	var bytes int64
	for range 5 {
		cmd := exec.Command(bin, "--version")
		cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1", "AGENT_SKILLS_NO_UPDATE_NOTIFIER=1", "HOME="+t.TempDir())
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("--version: %v\n%s", err, out)
		}
		var clock float64
		var b int64
		found := false
		for _, m := range line.FindAllStringSubmatch(string(out), -1) {
			if strings.Contains(m[1], "sqlite") || strings.Contains(m[1], "ncruces") {
				c, _ := strconv.ParseFloat(m[2], 64)
				n, _ := strconv.ParseInt(m[3], 10, 64)
				clock, b, found = clock+c, b+n, true
			}
		}
		if !found {
			t.Fatalf("the binary links the driver but the trace shows no SQLite init:\n%s", out)
		}
		clocks, bytes = append(clocks, clock), max(bytes, b)
	}
	for i := range clocks {
		for j := i + 1; j < len(clocks); j++ {
			if clocks[j] < clocks[i] {
				clocks[i], clocks[j] = clocks[j], clocks[i]
			}
		}
	}
	t.Logf("SQLite driver init in agent-skills --version: median %.3f ms of 5, at most %d bytes", clocks[2], bytes)
	if clocks[2] > 1.0 || bytes > 64<<10 {
		t.Errorf("the SQLite driver's init costs %.3f ms and %d bytes in --version; the budget is 1 ms and 64 KiB", clocks[2], bytes)
	}
}
