package resolve

import (
	"context"
	"runtime"
	"testing"
)

// TestResolveStateIsSmall: what a resolution of many names without
// dependencies allocates per name — its catalog entry, search node,
// request link, range mask and the loading of its listing and
// requirements — stays small: a 10,000-skill install holds all of it
// until the plan is built, beside the registry's index and the verified
// packages. The loading state lives in the entries (no call, channel or
// map entry per question), and a version that declares nothing shares
// one empty requirements value.
func TestResolveStateIsSmall(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("measures the heap (the race detector's allocations would swamp it)")
	}
	const n = 4000
	g := newGenSource(n, 1, 0, false)
	refs := make([]Reference, n)
	for i, name := range g.names {
		refs[i] = Reference{Name: name}
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	plan, err := Resolve(context.Background(), g, refs, Options{})
	runtime.ReadMemStats(&after)
	if err != nil || len(plan.Skills) != n {
		t.Fatalf("Resolve = %v, %v; want %d selections", plan, err, n)
	}
	per := (after.TotalAlloc - before.TotalAlloc) / n
	// Measured (the plan and the maps' growth included): 3,400 bytes a
	// name while every question had its memoised call, channel and map
	// entry; 2,570 since.
	if per > 3000 {
		t.Errorf("Resolve allocates %d bytes a name, want at most 3000", per)
	}
	t.Logf("Resolve allocates %d bytes a name", per)
}
