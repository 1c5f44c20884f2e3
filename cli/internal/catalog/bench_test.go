package catalog

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// installedTree writes n small installed skills with skill.yaml under one
// root and returns it.
func installedTree(b testing.TB, n int) []Root {
	dir := b.TempDir()
	files := make(map[string]string, 2*n)
	for i := range n {
		name := fmt.Sprintf("skill-%05d", i)
		files[name+"/SKILL.md"] = skillMD(name, fmt.Sprintf("Skill number %d for topic %d. Use when working on topic %d.", i, i%97, i%97))
		files[name+"/skill.yaml"] = manifest(name, "1.0.0", "Skill.")
	}
	writeTree(b, dir, files)
	return []Root{{Path: filepath.Join(dir), Scope: "global", Readers: []string{"claude-code"}}}
}

// BenchmarkSearchInstalled10k scans 10,000 installed skills and searches
// them, as one "catalog search" does.
func BenchmarkSearchInstalled10k(b *testing.B) {
	roots := installedTree(b, 10_000)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		skills, err := ScanInstalled(context.Background(), roots, ScanOptions{Manifest: true})
		if err != nil {
			b.Fatal(err)
		}
		if hits := Search(skills, nil, "topic 42", 20); len(hits) == 0 {
			b.Fatal("no hits")
		}
	}
}

// BenchmarkSearchInstalled10kCached is BenchmarkSearchInstalled10k as a
// second "catalog search" runs it: the metadata cache a first run saved is
// loaded from its file and answers for every unchanged skill.
func BenchmarkSearchInstalled10kCached(b *testing.B) {
	roots := installedTree(b, 10_000)
	time.Sleep(racyWindow + 100*time.Millisecond) // let the files settle, as they do in real use
	path := filepath.Join(b.TempDir(), "installed.cache")
	first := NewMetaCache()
	if _, err := ScanInstalled(context.Background(), roots, ScanOptions{Manifest: true, Cache: first}); err != nil {
		b.Fatal(err)
	}
	if err := first.Save(path); err != nil || first.Len() != 10_000 {
		b.Fatalf("priming the cache: %d entries, %v", first.Len(), err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		c := LoadMetaCache(path)
		skills, err := ScanInstalled(context.Background(), roots, ScanOptions{Manifest: true, Cache: c})
		if err != nil {
			b.Fatal(err)
		}
		if hits := Search(skills, nil, "topic 42", 20); len(hits) == 0 {
			b.Fatal("no hits")
		}
		if err := c.Save(path); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOverviewInstalled1k scans 1,000 installed skills and renders the
// bounded overview, as one "hook session-index" does.
func BenchmarkOverviewInstalled1k(b *testing.B) {
	roots := installedTree(b, 1_000)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		skills, err := ScanInstalled(context.Background(), roots, ScanOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if ov := BuildOverview(skills, OverviewOptions{MaxEntries: 50, MaxBytes: 8000}); len(ov.Entries) == 0 {
			b.Fatal("empty overview")
		}
	}
}
