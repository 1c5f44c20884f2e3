package agents

import (
	"fmt"
	"testing"
	"testing/fstest"
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

func BenchmarkPlanRootsAll(b *testing.B) {
	all := Default().All()
	env := testEnv(nil)
	b.ReportAllocs()
	for b.Loop() {
		PlanRoots(all, "skill", ScopeGlobal, env)
	}
}

func mustLookupB(b *testing.B, id string) Adapter {
	a, err := Default().Lookup(id)
	if err != nil {
		b.Fatal(err)
	}
	return a
}
