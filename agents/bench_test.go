package agents

import (
	"fmt"
	"slices"
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

// BenchmarkPlanRootsLarge plans one skill for every agent of the
// 25-agent synthetic table (--agent all once issue 16's rows land), in
// both scopes, and for the whole table twice over (50 agents: the table
// plus as many custom agents reading the same roots).
func BenchmarkPlanRootsLarge(b *testing.B) {
	all := syntheticTable(b)
	env := testEnv(nil)
	for _, scope := range []Scope{ScopeGlobal, ScopeProject} {
		b.Run(string(scope), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				PlanRoots(all, format.KindSkill, scope, env)
			}
		})
	}
	b.Run("doubled", func(b *testing.B) {
		doubled := slices.Clone(all)
		for _, a := range all {
			row := a.(*tableAdapter).row
			row.id += "-2"
			doubled = append(doubled, &tableAdapter{row: row})
		}
		b.ReportAllocs()
		for b.Loop() {
			PlanRoots(doubled, format.KindSkill, ScopeProject, env)
		}
	})
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
