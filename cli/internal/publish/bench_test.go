package publish

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/registry"
)

// bigIndex renders an index of n skills with three versions each, with a
// comment above every skill.
func bigIndex(n int) []byte {
	var b strings.Builder
	b.WriteString("# generated for benchmarks\nschemaVersion: 1\nname: bench\nskills:\n")
	for i := range n {
		fmt.Fprintf(&b, "  # skill %d\n  - name: skill-%05d\n    description: Skill number %d.\n    keywords: [bench]\n    latest: 1.2.0\n    versions:\n", i, i, i)
		for _, v := range []string{"1.2.0", "1.1.0", "1.0.0"} {
			fmt.Fprintf(&b, "      - version: %s\n        path: skills/skill-%05d\n        integrity: %s\n", v, i, testSum)
		}
	}
	return []byte(b.String())
}

// BenchmarkPatchIndex patches one skill of a 10,000-skill (30,000-version)
// index in place, including the decode that checks the result.
func BenchmarkPatchIndex(b *testing.B) {
	src := bigIndex(10_000)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		e := &indexEdit{name: "skill-05000", add: &registry.Version{Version: "1.3.0", Path: "skills/skill-05000", Integrity: testSum}, latest: "1.3.0",
			tarball: map[string]string{"1.2.0": "archive/skill-05000-1.2.0.tar.gz"}}
		if _, err := patchIndex(src, "bench.yaml", nil, e); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPrepare prepares a small package against a folder registry
// that holds its dependency.
func BenchmarkPrepare(b *testing.B) {
	root := b.TempDir()
	publishTo(b, root, writePkg(b, b.TempDir(), pkgSpec{name: "alpha", version: "1.0.0"}))
	dir := writePkg(b, b.TempDir(), pkgSpec{name: "beta", version: "1.0.0", extra: "dependencies:\n  - name: alpha\n    version: ^1.0.0\n"})
	target := FolderTarget{Root: root}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Prepare(ctx, dir, target, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
