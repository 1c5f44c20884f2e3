package maintain

import (
	"slices"
	"testing"

	"github.com/agent-skills/agent-skills/format"
)

func TestBaselineStableAndSensitive(t *testing.T) {
	root := files(t, twoSkills())
	st, err := inspect(root, format.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b := st.baseline
	if !b.Consistent() || b.Catalog != CatalogAbsent || len(b.Packages) != 2 {
		t.Fatalf("inspect = %+v, want a consistent baseline of 2 packages and no catalog", b)
	}
	again, _ := inspect(root, format.LoadOptions{})
	if again.baseline.Digest != b.Digest {
		t.Errorf("inspecting twice gave %s and %s", b.Digest, again.baseline.Digest)
	}
	tests := []struct {
		name  string
		edit  func()
		drift []string
	}{
		{"body", func() { write(t, root, "alpha/SKILL.md", skill("alpha")+"more\n") }, []string{"changed: package alpha"}},
		{"new package", func() { write(t, root, "gamma/SKILL.md", skill("gamma")) }, []string{"changed: package alpha", "added: package gamma"}},
		{"catalog", func() { write(t, root, "skills-catalog.json", "{}") }, nil},
	}
	prev := b
	for _, tt := range tests {
		tt.edit()
		cur, err := inspect(root, format.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if cur.baseline.Digest == prev.Digest {
			t.Errorf("%s: the baseline digest did not change", tt.name)
		}
		if tt.drift != nil {
			if got := Drift(b, cur.baseline); !slices.Equal(got, tt.drift) {
				t.Errorf("%s: Drift = %q, want %q", tt.name, got, tt.drift)
			}
		}
		prev = cur.baseline
	}
	last := Drift(b, prev)
	if want := "changed: skills-catalog.json (absent → "; len(last) != 3 || last[2][:len(want)] != want {
		t.Errorf("Drift after the catalog appeared = %q, want its last line to start %q", last, want)
	}
}

func TestBaselineMovedPackage(t *testing.T) {
	// The same bytes in another folder are another state.
	a := Baseline{Catalog: CatalogAbsent, Packages: []PackageState{{Path: "a", Digest: "sha256-x"}}}
	b := Baseline{Catalog: CatalogAbsent, Packages: []PackageState{{Path: "b", Digest: "sha256-x"}}}
	a.seal()
	b.seal()
	if a.Digest == b.Digest {
		t.Fatal("a package moved to another folder keeps the baseline digest")
	}
	if got, want := Drift(a, b), []string{"removed: package a", "added: package b"}; !slices.Equal(got, want) {
		t.Errorf("Drift = %q, want %q", got, want)
	}
}

func TestConsistent(t *testing.T) {
	b := Baseline{Catalog: CatalogAbsent, Packages: []PackageState{{Path: "a", Digest: "sha256-x"}, {Path: "b", Digest: "sha256-y"}}}
	b.seal()
	if !b.Consistent() {
		t.Fatal("a sealed baseline is not consistent")
	}
	edited := b
	edited.Packages = slices.Clone(b.Packages)
	edited.Packages[0].Digest = "sha256-z"
	if edited.Consistent() {
		t.Error("a baseline with an edited package digest is consistent")
	}
	unsorted := b
	unsorted.Packages = []PackageState{b.Packages[1], b.Packages[0]}
	if unsorted.Consistent() {
		t.Error("a baseline with unsorted packages is consistent")
	}
}
