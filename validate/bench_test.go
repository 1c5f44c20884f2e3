package validate

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/format"
)

// collection generates n small packages under skills/, each with a
// manifest, a SKILL.md with two relative links and a references/ file.
func collection(n int) fstest.MapFS {
	fsys := fstest.MapFS{}
	for i := range n {
		name := fmt.Sprintf("skill-%04d", i)
		dir := "skills/" + name + "/"
		fsys[dir+"skill.yaml"] = &fstest.MapFile{Data: []byte(fmt.Sprintf(`schemaVersion: 1
name: %s
version: 1.%d.0
description: Generated skill number %d. Use when benchmarking the validator.
license: MIT OR Apache-2.0
keywords: [bench, generated]
files:
  - SKILL.md
  - skill.yaml
  - references/
dependencies:
  - name: skill-base
    version: ^1.0.0
suggests: [skill-extra]
`, name, i, i))}
		fsys[dir+"SKILL.md"] = &fstest.MapFile{Data: []byte(fmt.Sprintf(`---
name: %s
description: Generated skill number %d. Use when benchmarking the validator.
---
# Skill %d

## Workflow

1. Read [the guide](references/guide.md#start).
2. Compare with [the checklist](references/guide.md) and [the web](https://example.com).

## Rules

Keep it short. `+"`[not a link](x.md)`"+`
`, name, i, i))}
		fsys[dir+"references/guide.md"] = &fstest.MapFile{Data: []byte("# Guide\n\nDetails.\n")}
	}
	return fsys
}

func BenchmarkCollection1000(b *testing.B) {
	fsys := collection(1000)
	opts := Options{Gate: GateStrict, OverrideKeys: map[string][]string{"codex": {"interface"}}}
	b.ReportAllocs()
	for b.Loop() {
		results, err := Collection(fsys, opts)
		if err != nil || len(results) != 1000 || results[0].Diagnostics.HasErrors() {
			b.Fatalf("Collection() = %d results, %v; first %v", len(results), err, results[0].Diagnostics)
		}
	}
}

func BenchmarkCollection1000DirFS(b *testing.B) {
	dir := b.TempDir()
	for name, f := range collection(1000) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	fsys := os.DirFS(dir)
	opts := Options{Gate: GateStrict, OverrideKeys: map[string][]string{"codex": {"interface"}}}
	b.ReportAllocs()
	for b.Loop() {
		results, err := Collection(fsys, opts)
		if err != nil || len(results) != 1000 || results[0].Diagnostics.HasErrors() {
			b.Fatalf("Collection() = %d results, %v; first %v", len(results), err, results[0].Diagnostics)
		}
	}
}

func BenchmarkCheckLicense(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if err := CheckLicense("MIT OR Apache-2.0"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCheckPath(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if err := CheckPath("references/deeply/nested/guide.md"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLinksOfTypicalBody checks the links of a body that links only to
// its own files: the prefilter (linksHarmless), against the parse it
// spares (Links).
func BenchmarkLinksOfTypicalBody(b *testing.B) {
	body := []byte("# bench\n\n## Purpose\n\nThe guide in [references/guide.md](references/guide.md) has the background.\n\n" +
		strings.Repeat("1. Read the request and restate, in one sentence, what done looks like; keep the output.\n", 12) +
		"\nRun [scripts/check.sh](scripts/check.sh) before handing over.\n")
	c := &checker{pkg: &format.Package{Files: []string{"SKILL.md", "references/guide.md", "scripts/check.sh"}}}
	b.Run("prefilter", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if !c.linksHarmless(body, ".") {
				b.Fatal("linksHarmless = false")
			}
		}
	})
	b.Run("parse", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if len(Links(body, 1, ".")) != 2 {
				b.Fatal("want 2 links")
			}
		}
	})
}
