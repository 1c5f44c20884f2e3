package install

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
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

// TestPerRootFirstErrorInOrder checks that perRoot, whose roots run on
// goroutines of their own, returns the error of the first transaction in
// order that failed, whichever root got there first, and calls the hook
// around every transaction it ran.
func TestPerRootFirstErrorInOrder(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one processor: perRoot runs the transactions in order")
	}
	for range 50 {
		var txns []*txn
		for i := range 8 {
			txns = append(txns, &txn{root: []string{"/a", "/b"}[i%2], name: fmt.Sprintf("t%d", i)})
		}
		calls := 0
		opts := &Options{Hook: func(string) error { calls++; return nil }}
		var s syncer
		ran := map[string]bool{}
		var mu sync.Mutex
		err := perRoot(txns, opts, &s, PointBeforeReceipt, PointAfterReceipt, func(tx *txn, s *syncer) error {
			mu.Lock()
			ran[tx.name] = true
			mu.Unlock()
			s.root(tx.root)
			if tx.name == "t3" || tx.name == "t4" {
				return errors.New(tx.name + " failed")
			}
			return nil
		})
		if err == nil || err.Error() != "t3 failed" {
			t.Fatalf("perRoot with t3 and t4 failing = %v, want t3's error", err)
		}
		for _, n := range []string{"t0", "t1", "t2", "t3"} {
			if !ran[n] {
				t.Errorf("perRoot did not run %s, which precedes the failure in its root", n)
			}
		}
		if ran["t5"] || ran["t7"] {
			t.Errorf("perRoot ran a transaction of root /b after t3 failed there")
		}
		if calls < 2*len(ran)-2 {
			t.Errorf("perRoot called the hook %d times for %d transactions", calls, len(ran))
		}
	}
}
