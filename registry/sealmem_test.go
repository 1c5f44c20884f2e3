package registry

import (
	"fmt"
	"math"
	"runtime"
	"testing"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/format"
)

// TestSealedSnapshotsAreSmall: what Set keeps of a sealed snapshot — its
// seal, its key and its place in the map — stays small, since a
// 10,000-package resolution keeps 10,000 of them until they are fetched.
// The bytes of the manifest and entrypoint are most of it; the digests
// are kept as their 32 bytes, not as text.
func TestSealedSnapshotsAreSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("measures the heap")
	}
	old := keptBudget
	keptBudget = 10 // bytes: every snapshot is sealed
	t.Cleanup(func() { keptBudget = old })
	r, _ := localSample(t)
	pkg, integrity, err := r.Snapshot(t.Context(), "demo-skill", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	held := int64(0) // the bytes a seal keeps of the manifest and the entrypoint
	for p, f := range pkg.FS.(*snapshotFS).MapFS {
		if p == "skill.yaml" || p == pkg.EntrypointFile {
			held += int64(len(f.Data))
		}
	}
	const n = 2000
	heap := func() uint64 {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	// The keys are made first: the resolver's names and versions exist
	// anyway.
	versions := make([]string, n)
	for i := range versions {
		versions[i] = fmt.Sprintf("1.0.%d", i)
	}
	// The least of three fills: what other tests allocate meanwhile only
	// ever adds to one.
	per := int64(math.MaxInt64)
	for range 3 {
		set := NewSet(nil, r)
		before := heap()
		for i := range n {
			pkg, _, err := r.Snapshot(t.Context(), "demo-skill", "1.0.0")
			if err != nil {
				t.Fatal(err)
			}
			set.keep(keptKey{"team", "demo-skill", versions[i]}, pkg, integrity, "")
		}
		per = min(per, int64(heap()-before)/n)
		runtime.KeepAlive(set)
		if set.keptSealed != n {
			t.Fatalf("kept %d sealed snapshots, want %d", set.keptSealed, n)
		}
	}
	// Measured with demo-skill (manifest and entrypoint: 133 bytes):
	// 1,045 bytes a seal while the digests were kept as text, 853 since,
	// about 900 with where its payload came from (Set.Fetch).
	if limit := held + 850; per > limit {
		t.Errorf("a sealed snapshot keeps %d bytes, want at most %d (its manifest and entrypoint are %d)", per, limit, held)
	}
	t.Logf("a sealed snapshot keeps %d bytes (its manifest and entrypoint: %d)", per, held)
}

// TestSetHoldsLittleWhole: a large resolution holds at most 1 MiB of
// verified payloads whole between resolution and fetch (a 50-skill
// install of small packages fits); past it the snapshots are sealed, so
// that the payloads do not sit in memory beside the resolver's state and
// the index.
func TestSetHoldsLittleWhole(t *testing.T) {
	set := NewSet(nil)
	const size = 64 << 10
	for i := range 64 { // 4 MiB of payloads
		fsys := &snapshotFS{MapFS: fstest.MapFS{
			"skill.yaml":      {Data: []byte("name: x\n")},
			"SKILL.md":        {Data: []byte("---\n---\n")},
			"references/a.md": {Data: make([]byte, size)},
		}, sums: map[string]string{}}
		pkg := &format.Package{FS: fsys, EntrypointFile: "SKILL.md"}
		set.keep(keptKey{"team", fmt.Sprintf("s%02d", i), "1.0.0"}, pkg, "sha256-x", "")
		if set.keptBytes > 1<<20 {
			t.Fatalf("after %d packages of %d KiB, %d bytes are held whole, want at most 1 MiB", i+1, size>>10, set.keptBytes)
		}
	}
	whole := 0
	for _, ks := range set.kept {
		if ks.pkg != nil {
			whole++
		}
	}
	if len(set.kept) != 64 || whole == 0 || whole > 16 {
		t.Errorf("kept %d snapshots, %d of them whole; want 64, at most 16 whole", len(set.kept), whole)
	}
}
