package install

import (
	"fmt"
	"slices"
	"testing"
	"unsafe"

	"github.com/agent-skills/agent-skills/agents"
)

// lists gives equal lists one shared, clipped copy, and every list its
// own strings in order.
func TestListsShare(t *testing.T) {
	ls := newLists()
	a := ls.strings([]string{"SKILL.md", "skill.yaml"})
	b := ls.strings([]string{"SKILL.md", "skill.yaml"})
	c := ls.strings([]string{"SKILL.md"})
	d := ls.strings([]string{"skill.yaml", "SKILL.md"})
	if !slices.Equal(a, []string{"SKILL.md", "skill.yaml"}) || !slices.Equal(c, []string{"SKILL.md"}) || !slices.Equal(d, []string{"skill.yaml", "SKILL.md"}) {
		t.Fatalf("lists = %q %q %q", a, c, d)
	}
	if unsafe.SliceData(a) != unsafe.SliceData(b) {
		t.Errorf("two equal lists are two copies")
	}
	if unsafe.SliceData(a) == unsafe.SliceData(d) {
		t.Errorf("two lists in another order share a copy")
	}
	if e := append(b, "more"); unsafe.SliceData(e) == unsafe.SliceData(a) || len(a) != 2 {
		t.Errorf("an append to a shared list changed the others")
	}
	if ls.strings(nil) != nil || (*lists)(nil).strings([]string{"x"})[0] != "x" {
		t.Errorf("an empty list is not nil, or a nil lists does not copy")
	}
	for i := range maxLists + 10 {
		ls.strings([]string{fmt.Sprint(i)})
	}
	if ls.n != maxLists {
		t.Errorf("lists kept %d lists, want at most %d", ls.n, maxLists)
	}
	if got := ls.strings([]string{fmt.Sprint(maxLists + 5)}); !slices.Equal(got, []string{fmt.Sprint(maxLists + 5)}) {
		t.Errorf("a list past the bound = %q", got)
	}
}

// The results of an install share their files' and readers' lists where
// they are equal, and report each package's own.
func TestInstallResultsShareLists(t *testing.T) {
	w := newWorld(t)
	opts := w.opts(t, agents.ScopeProject, "claude-code", "codex")
	rep := mustInstall(t, opts, writePkg(t, w.base, pkgSpec{name: "a", version: "1.0.0"}),
		writePkg(t, w.base, pkgSpec{name: "b", version: "1.0.0"}),
		writePkg(t, w.base, pkgSpec{name: "c", version: "1.0.0", extra: map[string]string{"notes.md": "notes\n"}}))
	files := map[string][]string{}
	for _, r := range rep.Results {
		if r.Outcome != OutcomeInstalled || len(r.Files) == 0 || len(r.Readers) == 0 {
			t.Fatalf("result %+v: want installed with files and readers", r)
		}
		if prev, ok := files[r.Root]; ok && r.Name == "b" && unsafe.SliceData(prev) != unsafe.SliceData(r.Files) {
			t.Errorf("a and b in %s have the same files in two copies", r.Root)
		}
		if r.Name == "a" {
			files[r.Root] = r.Files
		}
		if r.Name == "c" && !slices.Contains(r.Files, "references/notes.md") {
			t.Errorf("c in %s: files %q lack its own", r.Root, r.Files)
		}
	}
}
