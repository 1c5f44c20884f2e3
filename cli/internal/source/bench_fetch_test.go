package source

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkFetchInPlace500 is the read side of installing a folder of 500
// skills into two agents: Fetch in place (discovery, validation, digests)
// and every package file read twice, as staging into two agents reads it.
func BenchmarkFetchInPlace500(b *testing.B) {
	dir := b.TempDir()
	body := strings.Repeat("Step: do the thing carefully and check the result.\n", 25)
	for i := range 500 {
		name := fmt.Sprintf("bench-%03d", i)
		d := filepath.Join(dir, "skills", name)
		files := map[string]string{
			"SKILL.md":            "---\nname: " + name + "\ndescription: Use " + name + " for benchmarks.\n---\n\n# " + name + "\n\n" + body,
			"references/guide.md": "# guide\n\n" + body + body,
		}
		if i%3 == 0 {
			files["scripts/check.sh"] = "#!/bin/sh\necho ok\n"
		}
		for p, c := range files {
			os.MkdirAll(filepath.Dir(filepath.Join(d, p)), 0o755)
			if err := os.WriteFile(filepath.Join(d, p), []byte(c), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	r, ok, err := Parse(dir, "/", nil)
	if err != nil || !ok {
		b.Fatal(err)
	}
	cache := b.TempDir()
	b.ReportAllocs()
	for b.Loop() {
		res, err := Fetch(context.Background(), r, Options{CacheDir: cache, Skills: []string{"*"}, InPlace: true, MaxSkills: 1000})
		if err != nil || len(res.Packages) != 500 {
			b.Fatalf("Fetch = %v packages, %v", len(res.Packages), err)
		}
		for _, p := range res.Packages {
			for range 2 {
				for _, f := range p.Pkg.Files {
					if _, err := fs.ReadFile(p.Pkg.FS, f); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
		res.Close()
	}
}
