package install

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/format"
)

// An install of more than planChunk items goes in chunks of chunkItems:
// when an item is planned (loaded), every item of the chunks before its
// own is staged and none of its own chunk is.
func TestInstallChunksOfChunkItems(t *testing.T) {
	oldPlan, oldItems := planChunk, chunkItems
	planChunk, chunkItems = 8, 3
	t.Cleanup(func() { planChunk, chunkItems = oldPlan, oldItems })
	w := newWorld(t)
	opts := w.opts(t, agents.ScopeProject, "claude-code")
	opts.Release = true
	staging := filepath.Join(w.project, ".claude", "skills", metaDir, "staging")
	var mu sync.Mutex
	seen := map[int]int{} // item → staged entries when it was loaded
	var items []Item
	for i := range 10 {
		it := writePkg(t, w.base, pkgSpec{name: fmt.Sprintf("c%d", i), version: "1.0.0"})
		pkg := it.Pkg
		it.Pkg, it.Load = nil, func() (*format.Package, error) {
			ents, _ := os.ReadDir(staging)
			mu.Lock()
			seen[i] = len(ents)
			mu.Unlock()
			return pkg, nil
		}
		items = append(items, it)
	}
	if _, err := Install(t.Context(), items, opts); err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		if want := i / 3 * 3; seen[i] != want {
			t.Errorf("item %d was planned with %d staged, want %d (the chunks of 3 before its own)", i, seen[i], want)
		}
	}
	checkConsistent(t, opts, map[string]string{"c0": "1.0.0", "c1": "1.0.0", "c2": "1.0.0", "c3": "1.0.0", "c4": "1.0.0",
		"c5": "1.0.0", "c6": "1.0.0", "c7": "1.0.0", "c8": "1.0.0", "c9": "1.0.0"})
}

// Two items that install to one place stop the install, naming both, in
// a chunked install too (the first one planned in an earlier chunk).
func TestInstallRefusesTwoItemsInOnePlace(t *testing.T) {
	oldPlan, oldItems := planChunk, chunkItems
	planChunk, chunkItems = 2, 2
	t.Cleanup(func() { planChunk, chunkItems = oldPlan, oldItems })
	w := newWorld(t)
	opts := w.opts(t, agents.ScopeProject, "claude-code")
	items := []Item{
		writePkg(t, w.base, pkgSpec{name: "twice", version: "1.0.0"}),
		writePkg(t, w.base, pkgSpec{name: "other", version: "1.0.0"}),
		writePkg(t, w.base, pkgSpec{name: "twice", version: "2.0.0"}),
	}
	_, err := Install(t.Context(), items, opts)
	dest := filepath.Join(w.project, ".claude", "skills", "twice")
	if want := "install: twice and twice both install to " + dest; err == nil || err.Error() != want {
		t.Errorf("Install(twice twice) = %v, want %q", err, want)
	}
	if _, err := os.Lstat(dest); err == nil {
		t.Errorf("a refused install put %s in place", dest)
	}
}
