package agents

import (
	"fmt"
	"testing"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/format"
)

// typicalPackage is javaPerformance plus a dozen reference files.
func typicalPackage(b *testing.B) fstest.MapFS {
	fsys := javaPerformance()
	for i := range 12 {
		fsys[fmt.Sprintf("references/topic-%02d.md", i)] = &fstest.MapFile{Data: []byte("# Topic\n\nSome text.\n")}
	}
	return fsys
}

func BenchmarkLayoutFor(b *testing.B) {
	pkg := loadPackage(b, typicalPackage(b))
	benchLayouts(b, pkg)
}

func BenchmarkPlanRootsAll(b *testing.B) {
	all := Default().All()
	env := testEnv(nil)
	b.ReportAllocs()
	for b.Loop() {
		PlanRoots(all, "skill", ScopeGlobal, env)
	}
}

// benchLayouts measures LayoutFor of pkg for Claude Code and Codex.
func benchLayouts(b *testing.B, pkg *format.Package) {
	for _, id := range []string{"claude-code", "codex"} {
		a := mustLookupB(b, id)
		b.Run(id, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := a.LayoutFor(pkg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func mustLookupB(b *testing.B, id string) Adapter {
	a, err := Default().Lookup(id)
	if err != nil {
		b.Fatal(err)
	}
	return a
}

// BenchmarkLayoutForBare projects the bare skill bench-peers generates for
// both agents of its install: front matter format.AppendYAML writes.
func BenchmarkLayoutForBare(b *testing.B) {
	pkg := loadPackage(b, fstest.MapFS{
		"SKILL.md": {Data: []byte("---\nname: bench-kotlin-006\ndescription: >-\n  Help a kotlin developer structure coroutines step by step, with the checks a careful reviewer\n" +
			"  would make. Use when asked to structure coroutines in a kotlin code base.\nlicense: Apache-2.0\nmetadata:\n  short-description: structure coroutines for kotlin\n---\n# bench-kotlin-006\n\nSee [the guide](references/guide.md).\n")},
		"references/guide.md": {Data: []byte("# Guide\n")},
		"scripts/check.sh":    {Data: []byte("#!/bin/sh\n"), Mode: 0o755},
	})
	benchLayouts(b, pkg)
}
