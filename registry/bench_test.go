package registry

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/agent-skills/agent-skills/format"
)

// bigIndex builds an index of n skills with 5 versions each.
func bigIndex(tb testing.TB, n int) *Index { return bigIndexV(tb, n, 5) }

// bigIndexV builds an index of n skills with nv versions each.
func bigIndexV(tb testing.TB, n, nv int) *Index {
	tb.Helper()
	idx := &Index{SchemaVersion: 1, Name: "big"}
	words := []string{"java", "jvm", "gc", "performance", "kotlin", "sql", "python", "testing", "security", "docs"}
	for i := range n {
		name := fmt.Sprintf("%s-%s-skill-%05d", words[i%10], words[(i/10)%10], i)
		s := &Skill{
			Name:        name,
			Description: fmt.Sprintf("Skill number %d about %s and %s. Use when working with %s code.", i, words[i%10], words[(i/7)%10], words[(i/3)%10]),
			Keywords:    []string{words[i%10], words[(i/10)%10], words[(i/100)%10]},
		}
		for v := range nv {
			s.Versions = append(s.Versions, &Version{
				Version:     fmt.Sprintf("1.%d.0", v),
				Path:        "skills/" + name,
				Integrity:   goodIntegrity,
				PublishedAt: "2026-08-23T00:00:00Z",
				Deprecated:  v == 0,
			})
		}
		idx.Skills = append(idx.Skills, s)
	}
	return idx
}

func BenchmarkLoadIndex100k(b *testing.B) {
	idx := bigIndex(b, 20_000) // 100,000 versions
	for _, enc := range []struct {
		name, file string
		data       []byte
	}{{"yaml", "skills.yaml", idx.EncodeYAML()}, {"json", "index.json", idx.EncodeJSON()}} {
		b.Run(enc.name, func(b *testing.B) {
			b.SetBytes(int64(len(enc.data)))
			for b.Loop() {
				if _, err := DecodeIndex(enc.data, enc.file); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkSearch100k(b *testing.B) {
	idx := bigIndex(b, 20_000) // 100,000 versions
	for _, enc := range []struct {
		name, file string
		data       []byte
	}{{"cold-yaml", "skills.yaml", idx.EncodeYAML()}, {"cold-json", "index.json", idx.EncodeJSON()}} {
		dir := b.TempDir()
		file := filepath.Join(dir, enc.file)
		os.WriteFile(file, enc.data, 0o644)
		b.Run(enc.name, func(b *testing.B) {
			for b.Loop() {
				data, err := os.ReadFile(file)
				if err != nil {
					b.Fatal(err)
				}
				x, err := DecodeIndex(data, enc.file)
				if err != nil {
					b.Fatal(err)
				}
				if len(Search([]Loaded{{Registry: "big", Index: x}}, "java performance", 20)) == 0 {
					b.Fatal("no hits")
				}
			}
		})
	}
	// Cold with the decoded-index cache: read the YAML source, hash it,
	// load the cached binary form, search.
	cache := b.TempDir()
	src := filepath.Join(b.TempDir(), "skills.yaml")
	os.WriteFile(src, idx.EncodeYAML(), 0o644)
	if data, _ := os.ReadFile(src); true {
		if _, err := decodeIndexCached(data, "skills.yaml", cache); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("cold-cached", func(b *testing.B) {
		for b.Loop() {
			data, err := os.ReadFile(src)
			if err != nil {
				b.Fatal(err)
			}
			x, err := decodeIndexCached(data, "skills.yaml", cache)
			if err != nil {
				b.Fatal(err)
			}
			if len(Search([]Loaded{{Registry: "big", Index: x}}, "java performance", 20)) == 0 {
				b.Fatal("no hits")
			}
		}
	})
	loaded := []Loaded{{Registry: "big", Index: idx}}
	Search(loaded, "warm", 1)
	b.Run("warm", func(b *testing.B) {
		for b.Loop() {
			if len(Search(loaded, "java performance", 20)) == 0 {
				b.Fatal("no hits")
			}
		}
	})
}

func BenchmarkDigest200MB(b *testing.B) {
	dir := b.TempDir()
	f, err := os.Create(filepath.Join(dir, "big.bin"))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := io.CopyN(f, rand.Reader, 200<<20); err != nil {
		b.Fatal(err)
	}
	f.Close()
	os.WriteFile(filepath.Join(dir, "skill.yaml"), []byte("name: big-skill\nversion: 1.0.0\n"), 0o644)
	fsys := os.DirFS(dir)
	b.SetBytes(200 << 20)
	for b.Loop() {
		if _, err := format.Digest(fsys, []string{"big.bin", "skill.yaml"}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExtract(b *testing.B) {
	root := fixture(b)
	data := packDir(b, filepath.Join(root, "skills", "java-optional"))
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		b.StopTimer()
		dir := b.TempDir()
		b.StartTimer()
		if _, err := Extract(b.Context(), bytes.NewReader(data), dir, DefaultExtractLimits()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPack measures Pack over a fixture package.
func BenchmarkPack(b *testing.B) {
	root := fixture(b)
	dir := filepath.Join(root, "skills", "java-optional")
	files := listFiles(b, os.DirFS(dir))
	for b.Loop() {
		if err := Pack(os.DirFS(dir), files, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
