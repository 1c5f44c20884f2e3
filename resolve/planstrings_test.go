package resolve

import (
	"context"
	"testing"
	"unsafe"
)

// TestPlanVersionsAreCopies: a plan's versions are not slices of the
// source's strings (a registry index's whole text, which would otherwise
// stay in memory as long as the plan), and equal versions share one copy.
func TestPlanVersionsAreCopies(t *testing.T) {
	text := "1.0.0 2.0.0" // the index's text: every version is a slice of it
	src := newMemSource()
	src.add("official", "app", memVersion{pub: Published{Version: text[:5]}, req: Requirements{Dependencies: []Constraint{{Name: "lib", Range: "^1.0.0"}}}})
	src.add("official", "lib", memVersion{pub: Published{Version: text[:5]}})
	src.add("official", "tool", memVersion{pub: Published{Version: text[:5]}})
	plan, err := Resolve(context.Background(), src, []Reference{{Name: "app"}, {Name: "tool"}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	lo := uintptr(unsafe.Pointer(unsafe.StringData(text)))
	inText := func(s string) bool {
		p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		return p >= lo && p < lo+uintptr(len(text))
	}
	var first *byte
	for _, sel := range plan.Skills {
		if sel.Version != "1.0.0" {
			t.Fatalf("Resolve: %s@%s, want 1.0.0", sel.Name, sel.Version)
		}
		if inText(sel.Version) {
			t.Errorf("Resolve: %s's version is a slice of the source's text", sel.Name)
		}
		for d, v := range sel.Dependencies {
			if inText(v) {
				t.Errorf("Resolve: %s's dependency %s is a slice of the source's text", sel.Name, d)
			}
		}
		if first == nil {
			first = unsafe.StringData(sel.Version)
		} else if unsafe.StringData(sel.Version) != first {
			t.Errorf("Resolve: %s's version is a copy of its own, want one copy shared by equal versions", sel.Name)
		}
	}
}
