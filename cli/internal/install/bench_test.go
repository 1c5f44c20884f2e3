//go:build unix

package install

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/agent-skills/agent-skills/agents"
)

// BenchmarkInstall50 installs 50 small packages for Claude Code and Codex
// in project scope, into a fresh project and home each iteration: 100
// package folders and receipts. peak-RSS-MB is the process's peak
// resident set, setup included.
func BenchmarkInstall50(b *testing.B) {
	base := b.TempDir()
	var items []Item
	for i := range 50 {
		items = append(items, writePkg(b, base, pkgSpec{
			name: fmt.Sprintf("skill-%02d", i), version: "1.0.0",
			extra: map[string]string{"guide.md": "# Guide\n\nSome reference text.\n", "checklist.md": "- one\n- two\n"},
		}))
	}
	sel, err := agents.Default().Select([]string{"claude-code", "codex"})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		dir := filepath.Join(base, fmt.Sprintf("run-%d", i))
		opts := Options{
			Scope:  agents.ScopeProject,
			Env:    agents.Env{Home: filepath.Join(dir, "home"), ProjectRoot: filepath.Join(dir, "project")},
			Agents: sel,
		}
		rep, err := Install(b.Context(), items, opts)
		if err != nil || len(rep.Results) != 100 {
			b.Fatalf("Install(50 packages) = %d results, %v", len(rep.Results), err)
		}
		b.StopTimer()
		os.RemoveAll(dir)
		b.StartTimer()
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MB")
	}
}
