package install

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/agents"
)

// TestPlanInOrder checks that planning on several goroutines (planAll)
// reports as one loop over the items would: the results in the order of
// the items and their roots, and, of several items that fail, the first
// one's error, every time, with nothing written.
func TestPlanInOrder(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("plans on one goroutine: nothing to order")
	}
	w := newWorld(t)
	opts := w.opts(t, agents.ScopeProject)
	var items []Item
	for i := range 24 {
		name := fmt.Sprintf("p%02d", i)
		items = append(items, writePkg(t, w.base, pkgSpec{name: name, version: "1.0.0", extra: map[string]string{name + ".md": name}}))
	}
	dry := opts
	dry.DryRun = true
	rep, err := Install(t.Context(), items, dry)
	if err != nil {
		t.Fatal(err)
	}
	var got, want []string
	for _, r := range rep.Results {
		got = append(got, r.Name+" "+r.Root)
	}
	for _, it := range items {
		for _, root := range []string{".agents/skills", ".claude/skills"} {
			want = append(want, it.Pkg.Name()+" "+filepath.Join(w.project, root))
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("Install(dry run) results:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, i := range []int{7, 15, 22} {
		if err := os.Remove(filepath.Join(items[i].Dir, "references", items[i].Pkg.Name()+".md")); err != nil {
			t.Fatal(err)
		}
	}
	for range 20 {
		_, err := Install(t.Context(), items, opts)
		if err == nil || !strings.Contains(err.Error(), "p07.md") {
			t.Fatalf("Install with p07, p15 and p22 broken = %v, want p07's error", err)
		}
	}
	if exists(filepath.Join(w.project, ".claude", "skills", "p00")) {
		t.Errorf("a refused install wrote p00")
	}
}
