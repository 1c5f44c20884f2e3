package scan

import (
	"os"
	"path/filepath"
	"testing"
)

// TestBundledSkillsClean is the clean corpus: every skill bundled in the
// repository's skills/ folder gives no critical or high finding.
func TestBundledSkillsClean(t *testing.T) {
	entries, err := os.ReadDir("../skills")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		dir := filepath.Join("../skills", e.Name())
		if !e.IsDir() {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, "skill.yaml")); err != nil {
			if _, err := os.Stat(filepath.Join(dir, "SKILL.md")); err != nil {
				continue
			}
		}
		n++
		r, err := FS(os.DirFS(dir), Options{})
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		if r.Files == 0 {
			t.Errorf("%s: no files scanned", dir)
		}
		for _, f := range r.AtLeast(High) {
			t.Errorf("%s: %v (excerpt %q)", e.Name(), f, f.Excerpt)
		}
	}
	if n < 10 {
		t.Errorf("scanned %d bundled skills, want every one (at least 10)", n)
	}
}
