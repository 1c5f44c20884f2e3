package skills

import (
	"io/fs"
	"testing"
)

func TestFSHoldsPackages(t *testing.T) {
	entries, err := fs.ReadDir(FS, ".")
	if err != nil {
		t.Fatal(err)
	}
	pkgs := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if _, err := fs.Stat(FS, e.Name()+"/skill.yaml"); err == nil {
			pkgs++
		}
	}
	if pkgs < 8 {
		t.Errorf("embedded collection has %d packages with a skill.yaml, want at least 8", pkgs)
	}
}
