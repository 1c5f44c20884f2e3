package scaffold

import (
	"testing"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/format"
)

func BenchmarkNew(b *testing.B) {
	for _, kind := range format.Kinds() {
		b.Run(string(kind), func(b *testing.B) {
			opts := Options{Name: "java-performance", Kind: kind, Author: "Jane Doe <jane@example.com>"}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := New(opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkAdopt(b *testing.B) {
	fsys := fstest.MapFS{
		"SKILL.md":             {Data: []byte(bareSkill)},
		"references/fields.md": {Data: []byte("# Fields\n")},
		"scripts/fill.py":      {Data: []byte("print('fill')\n")},
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Adopt(fsys, "pdf-forms", AdoptOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
