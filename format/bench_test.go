package format

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// benchPackage is a typical package: a manifest, a SKILL.md of a few KB
// and a dozen reference files.
func benchPackage() fstest.MapFS {
	fsys := fstest.MapFS{
		"skill.yaml": {Data: []byte(fullManifest)},
		"SKILL.md":   {Data: []byte(typicalSkill + strings.Repeat("Some guidance in a paragraph of text.\n", 100))},
	}
	for i := range 12 {
		fsys[fmt.Sprintf("references/topic-%02d.md", i)] = &fstest.MapFile{Data: []byte(strings.Repeat("reference text\n", 300))}
	}
	return fsys
}

func BenchmarkLoad(b *testing.B) {
	fsys := benchPackage()
	b.ReportAllocs()
	for b.Loop() {
		if _, diags := Load(fsys, LoadOptions{}); len(diags) != 0 {
			b.Fatal(diags)
		}
	}
}

func BenchmarkLoadAndDigest(b *testing.B) {
	fsys := benchPackage()
	b.ReportAllocs()
	for b.Loop() {
		pkg, _ := Load(fsys, LoadOptions{})
		if _, err := Digest(pkg.FS, pkg.Files); err != nil {
			b.Fatal(err)
		}
	}
}

const bigSize = 64 << 20

func BenchmarkDigest(b *testing.B) {
	fsys := fstest.MapFS{"big.bin": {Data: make([]byte, bigSize)}}
	d := NewDigester()
	b.SetBytes(bigSize)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := d.Digest(fsys, []string{"big.bin"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSHA256 is the baseline for BenchmarkDigest: hashing the same
// bytes directly, with no file system or streaming.
func BenchmarkSHA256(b *testing.B) {
	data := make([]byte, bigSize)
	b.SetBytes(bigSize)
	b.ReportAllocs()
	for b.Loop() {
		sha256.Sum256(data)
	}
}

func BenchmarkDecodeManifest(b *testing.B) {
	data := []byte(fullManifest)
	b.ReportAllocs()
	for b.Loop() {
		DecodeManifest(data, "skill.yaml")
	}
}

func BenchmarkReadWorkflowMeta(b *testing.B) {
	data := []byte(strings.Repeat("const x = `a ${b} c`; // noise\n", 200) +
		"export const meta = { name: 'w', description: 'A workflow.', tags: ['a', 'b'], n: 1 }\n")
	b.ReportAllocs()
	for b.Loop() {
		if _, diags := ReadWorkflowMeta(data, "WORKFLOW.js"); len(diags) != 0 {
			b.Fatal(diags)
		}
	}
}

// benchFrontMatter is the front matter bench-peers generates for every
// skill, the common case fastYAML and AppendYAML take.
const benchFrontMatter = "name: bench-kotlin-006\ndescription: >-\n  Help a kotlin developer structure coroutines step by step, with the checks a careful reviewer\n  would make and the commands of gradle that show the result. Use when asked to\n  structure coroutines in a kotlin code base, or when a change needs that review.\nlicense: Apache-2.0\nmetadata:\n  short-description: structure coroutines for kotlin\n"

// BenchmarkParseFrontMatter compares fastYAML with yaml.v3 (the fallback)
// on benchFrontMatter.
func BenchmarkParseFrontMatter(b *testing.B) {
	src := yamlSource{file: "SKILL.md", what: "front matter", code: CodeFrontMatterInvalid}
	for _, c := range []struct {
		name  string
		parse func([]byte, yamlSource) (any, Diagnostics)
	}{
		{"fast", func(d []byte, s yamlSource) (any, Diagnostics) { return parseYAML(d, s) }},
		{"yaml.v3", func(d []byte, s yamlSource) (any, Diagnostics) { return parseYAMLv3(d, s) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if root, diags := c.parse([]byte(benchFrontMatter), src); root == nil || len(diags) != 0 {
					b.Fatal(diags)
				}
			}
		})
	}
}

// BenchmarkAppendYAML writes benchFrontMatter's tree back.
func BenchmarkAppendYAML(b *testing.B) {
	root, _ := fastYAML([]byte(benchFrontMatter))
	root.Content[3].Style = 0 // as a projection writes it: plain
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := AppendYAML(nil, root); !ok {
			b.Fatal("AppendYAML declined")
		}
	}
}
