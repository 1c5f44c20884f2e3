package install

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/format"
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

// TestPlanSharesSynthesisedFiles checks that a package planned into two
// roots whose layouts render the same file (the SKILL.md each root gets,
// its front matter re-encoded) holds those bytes once, with one digest,
// and that a file only one root gets (Codex's agents/openai.yaml) is
// still planned there.
func TestPlanSharesSynthesisedFiles(t *testing.T) {
	w := newWorld(t)
	opts := w.opts(t, agents.ScopeProject)
	// A SKILL.md-only source's skill, as folder sources load them, with
	// the short description Codex would otherwise add: both roots render
	// the same SKILL.md.
	dir := filepath.Join(w.base, "src", "solo")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	md := "---\nname: solo\ndescription: Solo has no skill.yaml. Use it in tests.\nlicense: MIT\nmetadata:\n  short-description: Solo for tests\n---\n# solo\n"
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(md), 0o644); err != nil {
		t.Fatal(err)
	}
	pkg, ds := format.Load(os.DirFS(dir), format.LoadOptions{})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	items := []Item{{Pkg: pkg, Dir: dir}}
	p := planItem(t.Context(), items, 0, &opts, format.NewDigester(), "2026-12-01T00:00:00Z")
	if p.failed() || len(p.targets) != 2 {
		t.Fatalf("planItem(solo) = %d targets, failed %v", len(p.targets), p.failed())
	}
	var mds [][]byte
	var digests []string
	openai := 0
	for _, pt := range p.targets {
		for i, f := range pt.t.files {
			switch f.rel {
			case "SKILL.md":
				mds = append(mds, f.content)
				digests = append(digests, pt.t.rec.Files[i].Digest)
			case "agents/openai.yaml":
				openai++
			}
		}
	}
	if len(mds) != 2 || len(mds[0]) == 0 {
		t.Fatalf("SKILL.md rendered %d times, want once per root", len(mds))
	}
	if &mds[0][0] != &mds[1][0] || digests[0] != digests[1] {
		t.Errorf("the two roots hold two copies of SKILL.md (digests %s, %s), want one\n%s\n---vs---\n%s", digests[0], digests[1], mds[0], mds[1])
	}
	if openai != 1 {
		t.Errorf("agents/openai.yaml planned %d times, want once (Codex's root)", openai)
	}
}
