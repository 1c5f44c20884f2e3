package registry

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

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

// index10k is the index issue 15 measures: 10,000 skills with 3 versions
// each, about 7.6 MB of YAML as EncodeYAML writes it.
func index10k(b *testing.B) []byte {
	data := bigIndexV(b, 10_000, 3).EncodeYAML()
	if len(data) < 7_000_000 {
		b.Fatalf("the 10k index is %d bytes, want about 7.6 MB", len(data))
	}
	return data
}

// reportCost adds the heap allocated and the CPU time (all threads, GC
// included: a fairer figure than wall time on a shared machine) per
// iteration. start is taken before the loop.
func reportCost(b *testing.B, start benchCost) {
	end := costNow()
	n := float64(b.N)
	b.ReportMetric(float64(end.alloc-start.alloc)/n/(1<<20), "MiB/op")
	b.ReportMetric(float64(end.cpu-start.cpu)/n/1e6, "cpu-ms/op")
}

// benchCost is the process's allocated bytes and CPU time so far.
type benchCost struct {
	alloc uint64
	cpu   time.Duration
}

func costNow() benchCost {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return benchCost{alloc: ms.TotalAlloc, cpu: cpuTime()}
}

// BenchmarkDecodeIndex10k decodes the 10k skills.yaml cold — no
// decoded-index cache — through DecodeIndex (the fast path, then the
// checks) and, for comparison, through the full yaml.Node decoder alone
// with the same checks.
func BenchmarkDecodeIndex10k(b *testing.B) {
	data := index10k(b)
	b.Run("fast", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		start := costNow()
		for b.Loop() {
			if _, err := DecodeIndex(data, "skills.yaml"); err != nil {
				b.Fatal(err)
			}
		}
		reportCost(b, start)
	})
	b.Run("full", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		lim := DefaultIndexLimits()
		start := costNow()
		for b.Loop() {
			idx, errs := decodeIndexYAML(data, lim)
			if checkIndex(idx, lim, &errs); len(errs) > 0 {
				b.Fatal(errs.render("skills.yaml"))
			}
		}
		reportCost(b, start)
	})
}

// BenchmarkSearch10k searches the 10k skills.yaml of a local registry as
// a process does: cold (no cache entry: read, decode, write the entry),
// warm (the file's identity is the recorded one: only the cache file is
// read), and rehash (the identity is not trusted, as for a file changed
// within the racy window: the source is read and hashed too, which is
// what every warm search did before identities were recorded).
func BenchmarkSearch10k(b *testing.B) {
	data := index10k(b)
	file := filepath.Join(b.TempDir(), "skills.yaml")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		b.Fatal(err)
	}
	search := func(b *testing.B, cache string, racy time.Duration) {
		x, err := loadIndexFile(file, cache, racy)
		if err != nil {
			b.Fatal(err)
		}
		if len(Search([]Loaded{{Registry: "big", Index: x}}, "java performance", 20)) == 0 {
			b.Fatal("no hits")
		}
	}
	// Every cold iteration gets its own cache folder, kept until the end
	// (deleting folders between runs slows file creation on ext4).
	caches := b.TempDir()
	b.Run("cold", func(b *testing.B) {
		start := costNow()
		i := 0
		for b.Loop() {
			i++
			search(b, filepath.Join(caches, "cold", strconv.Itoa(i)), 0)
		}
		reportCost(b, start)
	})
	warm := filepath.Join(caches, "warm")
	search(b, warm, 0)
	b.Run("warm", func(b *testing.B) {
		start := costNow()
		for b.Loop() {
			search(b, warm, 0)
		}
		reportCost(b, start)
	})
	// An entry written while the file was not settled records no
	// identity, and none is recorded later while it is still not.
	rehash := filepath.Join(caches, "rehash")
	search(b, rehash, 1<<62)
	b.Run("rehash", func(b *testing.B) {
		start := costNow()
		for b.Loop() {
			search(b, rehash, 1<<62)
		}
		reportCost(b, start)
	})
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
