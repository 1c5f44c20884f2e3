package skillset

import (
	"runtime"
	"slices"
	"testing"
	"weak"

	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/resolve"
)

// applyHoldingNothing runs apply on fs with no reference of its own left
// to the list once apply starts, and records a weak pointer to it first.
//
//go:noinline
func applyHoldingNothing(p *op, fs []fetched, plan *resolve.Plan, list *weak.Pointer[fetched]) (*install.Report, error) {
	*list = weak.Make(&fs[0])
	return p.apply(fs, plan, false, false)
}

// While install holds the packages to install, the list they were
// fetched into (about 300 bytes a package) is no longer reachable: apply
// keeps only the items and the names the report is sorted by, and the
// report is in the order of the list.
func TestApplyLetsTheFetchedListGo(t *testing.T) {
	w := newWorld(t)
	w.publish(pkgSpec{name: "app", version: "1.0.0", deps: map[string]string{"lib": "^1.0.0"}}, pkgSpec{name: "lib", version: "1.0.0"}, pkgSpec{name: "zed", version: "1.0.0"})
	var list weak.Pointer[fetched]
	checked, held := false, false
	s := w.open(false, func(point string) error {
		if point == install.PointBeforeSwap && !checked {
			checked = true
			runtime.GC()
			held = list.Value() != nil
		}
		return nil
	})
	p := s.begin(t.Context(), "install", []string{"zed", "app"}, nil, false, nil)
	refs, err := references([]string{"zed", "app"}, "")
	if err != nil {
		t.Fatal(err)
	}
	plan, wants, err := p.resolveKeeping(refs, nil, resolve.Options{}, true)
	if err != nil {
		t.Fatal(err)
	}
	fs, err := p.fetch(wants)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, f := range fs {
		want = append(want, f.name)
	}
	rep, err := applyHoldingNothing(p, fs, plan, &list)
	if err != nil {
		t.Fatal(err)
	}
	if !checked || held {
		t.Errorf("install reached its swaps: %v; the fetched list was still reachable there: %v", checked, held)
	}
	var got []string
	for _, r := range rep.Results {
		if len(got) == 0 || got[len(got)-1] != r.Name {
			got = append(got, r.Name)
		}
	}
	if !slices.Equal(got, want) || len(want) != 3 {
		t.Errorf("the report lists %q, want %q (the order of the list, whatever the order installed)", got, want)
	}
}
