package registry

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestFixtureVerifies loads the origin registry fixture as a local
// registry and checks every package against its index integrity, both in
// place (Package) and after a Fetch.
func TestFixtureVerifies(t *testing.T) {
	root := fixture(t)
	for _, sub := range []string{"", "extra"} {
		dir := filepath.Join(root, sub)
		r, err := Open(Spec{Name: "origin", URL: dir}, Options{CacheDir: t.TempDir()})
		if err != nil {
			t.Fatalf("Open(%q) = %v", dir, err)
		}
		if r.Kind() != KindLocal {
			t.Fatalf("Kind() = %q, want local", r.Kind())
		}
		idx, err := r.Index(t.Context())
		if err != nil {
			t.Fatalf("Index() = %v", err)
		}
		if len(idx.Skills) == 0 {
			t.Fatalf("Index() has no skills")
		}
		out := t.TempDir()
		for _, s := range idx.Skills {
			for _, v := range s.Versions {
				pkg, err := r.Package(t.Context(), s.Name, v.Version)
				if err != nil {
					t.Errorf("Package(%q, %q) = %v, want verified", s.Name, v.Version, err)
					continue
				}
				if pkg.Name() != s.Name {
					t.Errorf("Package(%q).Name() = %q", s.Name, pkg.Name())
				}
				dest := filepath.Join(out, s.Name)
				f, err := r.Fetch(t.Context(), s.Name, v.Version, dest)
				if err != nil {
					t.Errorf("Fetch(%q, %q) = %v", s.Name, v.Version, err)
					continue
				}
				if f.Integrity != v.Integrity || !slices.Contains(f.Files, "skill.yaml") {
					t.Errorf("Fetch(%q) = %+v, want integrity %s and skill.yaml", s.Name, f, v.Integrity)
				}
				if _, err := os.Stat(filepath.Join(dest, "SKILL.md")); err != nil {
					t.Errorf("Fetch(%q) wrote no SKILL.md: %v", s.Name, err)
				}
			}
		}
	}
}
