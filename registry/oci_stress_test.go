package registry

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/agent-skills/agent-skills/registry/ocitest"
)

// TestOCIConcurrentPublishers runs six publishers at once, each with its
// own writer (its own connections and token cache, as separate processes
// have): every version lands in the index.
func TestOCIConcurrentPublishers(t *testing.T) {
	srv := startOCI(t, ocitest.Options{})
	spec := Spec{Name: "team", URL: "oci://" + srv.Addr + "/acme/skills"}
	const n = 6
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w, _ := NewOCIWriter(spec, Options{})
			if _, err := tryPublishOCI(t, w, fmt.Sprintf("skill-%d", i), "1.0.0", "x"); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	w, _ := NewOCIWriter(spec, Options{})
	idx, _, err := w.Index(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(idx.Skills) != n {
		var names []string
		for _, s := range idx.Skills {
			names = append(names, s.Name)
		}
		t.Fatalf("%d of %d skills landed: %v", len(idx.Skills), n, names)
	}
}
