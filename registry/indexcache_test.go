package registry

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestIndexCache(t *testing.T) {
	idx := bigIndex(t, 2000) // above indexCacheMin as JSON
	idx.Skills[3].Versions[1].Tarball, idx.Skills[3].Versions[1].Path = "x.tar.gz", ""
	idx.Skills[3].Versions[1].DeprecationReason = "use 1.4.0"
	data := idx.EncodeJSON()
	if len(data) < indexCacheMin {
		t.Fatalf("test index is %d bytes, below the cache threshold", len(data))
	}
	cache := t.TempDir()
	first, err := decodeIndexCached(data, "index.json", cache)
	if err != nil {
		t.Fatalf("decodeIndexCached(first) = %v", err)
	}
	files, _ := filepath.Glob(filepath.Join(cache, "index", "*.bin"))
	if len(files) != 1 {
		t.Fatalf("cache files = %v, want 1", files)
	}
	second, err := decodeIndexCached(data, "index.json", cache)
	if err != nil {
		t.Fatalf("decodeIndexCached(cached) = %v", err)
	}
	if !bytes.Equal(first.EncodeJSON(), second.EncodeJSON()) {
		t.Fatalf("cached index differs from the decoded one")
	}
	if s, ok := second.Skill(idx.Skills[3].Name); !ok || s.Latest != "1.4.0" {
		t.Fatalf("cached Skill() = %+v, %v", s, ok)
	}
	// A damaged cache file is ignored and rewritten.
	raw, _ := os.ReadFile(files[0])
	os.WriteFile(files[0], raw[:len(raw)/2], 0o644)
	third, err := decodeIndexCached(data, "index.json", cache)
	if err != nil || !bytes.Equal(third.EncodeJSON(), first.EncodeJSON()) {
		t.Fatalf("decodeIndexCached(damaged cache) = %v", err)
	}
	if again, _ := os.ReadFile(files[0]); !bytes.Equal(again, raw) {
		t.Errorf("damaged cache file was not rewritten")
	}
	// A new version of the source replaces the old entry: there is one
	// entry per source, rewritten in place.
	changed := bytes.Replace(data, []byte(`"1.1.0"`), []byte(`"1.1.1"`), 1)
	if _, err := decodeIndexCached(changed, "index.json", cache); err != nil {
		t.Fatal(err)
	}
	now, _ := filepath.Glob(filepath.Join(cache, "index", "*.bin"))
	if len(now) != 1 {
		t.Fatalf("cache files after a change = %v, want one entry", now)
	}
	if again, _ := os.ReadFile(now[0]); bytes.Equal(again, raw) {
		t.Errorf("cache entry after a change = the old entry, want the new version's")
	}
	// An invalid source is never cached.
	bad := bytes.Replace(data, []byte(`"1.0.0"`), []byte(`"1.0"`), 1)
	if _, err := decodeIndexCached(bad, "index.json", cache); codeOf(err) != "ASK_REGISTRY_INVALID_INDEX" {
		t.Errorf("decodeIndexCached(invalid) = %v, want ASK_REGISTRY_INVALID_INDEX", err)
	}
}

// FuzzUnmarshalIndex checks the cache decoder never panics on damaged
// files, and that whatever it accepts has one encoding.
func FuzzUnmarshalIndex(f *testing.F) {
	idx, err := DecodeIndex([]byte(indexYAML("      - {version: 1.0.0, path: a, integrity: "+goodIntegrity+"}\n")), "x.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(appendCacheEntry(nil, fileIdentity{dev: 1, ino: 2, size: 3, mtime: 4, ctime: 5, mode: 6}, [32]byte{7}, string(marshalIndex(idx))))
	f.Add([]byte(indexCacheMagic + "\x01\x00\x00\xff\xff\xff\xff\x0f"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		e, ok := parseCacheEntry(string(raw))
		if !ok {
			return
		}
		if !bytes.Equal(appendCacheEntry(nil, e.id, e.sum, e.payload), raw) {
			t.Fatalf("parseCacheEntry accepted a header that does not round-trip")
		}
		x, err := unmarshalIndex(e.payload)
		if err == nil && string(marshalIndex(x)) != e.payload {
			t.Fatalf("unmarshalIndex accepted bytes that do not round-trip")
		}
	})
}

// bigYAMLFile writes an index above the cache threshold and returns its
// path and bytes.
func bigYAMLFile(t *testing.T) (string, []byte) {
	t.Helper()
	data := bigIndexV(t, 2500, 3).EncodeYAML()
	if len(data) < indexCacheMin {
		t.Fatalf("test index is %d bytes, below the cache threshold", len(data))
	}
	file := filepath.Join(t.TempDir(), "skills.yaml")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return file, data
}

// readEntry parses the cache entry of file.
func readEntry(t *testing.T, cache, file string) cacheEntry {
	t.Helper()
	e, ok := readCacheEntry(cachePath(cache, file))
	if !ok {
		t.Fatalf("no cache entry for %s", file)
	}
	return e
}

// TestLoadIndexFileIdentity: a settled source whose identity is the one
// recorded is served from the cache without being read or hashed; one
// changed within the racy window is not vouched for by its identity.
func TestLoadIndexFileIdentity(t *testing.T) {
	if identityOf(statOf(t, os.Args[0])) == (fileIdentity{}) {
		t.Skip("file identities are not supported on this system")
	}
	file, data := bigYAMLFile(t)
	cache := t.TempDir()
	// Just written: within the racy window, so no identity is recorded.
	if _, err := loadIndexFile(file, cache, time.Hour); err != nil {
		t.Fatalf("loadIndexFile(fresh) = %v", err)
	}
	if e := readEntry(t, cache, file); e.id.known() || e.sum != sha256.Sum256(data) {
		t.Fatalf("entry of a fresh file: identity %+v, digest ok %v; want no identity and the digest", e.id, e.sum == sha256.Sum256(data))
	}
	// Settled: the identity is recorded.
	want, err := loadIndexFile(file, cache, 0)
	if err != nil {
		t.Fatalf("loadIndexFile(settled) = %v", err)
	}
	e := readEntry(t, cache, file)
	if e.id != identityOf(statOf(t, file)) {
		t.Fatalf("entry identity = %+v, want %+v", e.id, identityOf(statOf(t, file)))
	}
	// Prove the identity path reads nothing else: an entry with the right
	// identity, a wrong digest and a doctored payload is what is served.
	doctored := bigIndexV(t, 1, 1)
	doctored.Skills[0].Description = "served from the cache"
	doctored.buildMap()
	if err := writeAtomic(cachePath(cache, file), appendCacheEntry(nil, e.id, [32]byte{}, string(marshalIndex(doctored)))); err != nil {
		t.Fatal(err)
	}
	got, err := loadIndexFile(file, cache, 0)
	if err != nil || len(got.Skills) != 1 || got.Skills[0].Description != "served from the cache" {
		t.Fatalf("loadIndexFile(identity hit) = %v skills, %v; want the cached entry", len(got.Skills), err)
	}
	// Any other identity makes it hash the source: the digest does not
	// match, so the source is decoded again and the entry rewritten.
	touch(t, file, time.Now().Add(-time.Hour))
	got, err = loadIndexFile(file, cache, 0)
	if err != nil || !bytes.Equal(got.EncodeJSON(), want.EncodeJSON()) {
		t.Fatalf("loadIndexFile(touched) = %v; want the source decoded", err)
	}
	if e := readEntry(t, cache, file); e.sum != sha256.Sum256(data) || e.id != identityOf(statOf(t, file)) {
		t.Fatalf("entry after a touch: identity %+v, want %+v", e.id, identityOf(statOf(t, file)))
	}
}

// TestLoadIndexFileSameSizeSameMtime: a hostile index rewritten with the
// same size and its modification time set back is still seen as changed:
// the change time, which no program can set back, is part of the
// identity.
func TestLoadIndexFileSameSizeSameMtime(t *testing.T) {
	file, data := bigYAMLFile(t)
	cache := t.TempDir()
	past := time.Now().Add(-time.Hour).Truncate(time.Second)
	touch(t, file, past)
	if _, err := loadIndexFile(file, cache, 0); err != nil {
		t.Fatal(err)
	}
	before := statOf(t, file)
	time.Sleep(10 * time.Millisecond) // let the change time move on coarse clocks
	changed := bytes.Replace(data, []byte("Skill number 7 about"), []byte("Skill NUMBER 7 about"), 1)
	if len(changed) != len(data) || bytes.Equal(changed, data) {
		t.Fatal("the test change must keep the size")
	}
	if err := os.WriteFile(file, changed, 0o644); err != nil {
		t.Fatal(err)
	}
	touch(t, file, past)
	after := statOf(t, file)
	if after.Size() != before.Size() || !after.ModTime().Equal(before.ModTime()) {
		t.Fatalf("size/mtime %d %v, want %d %v", after.Size(), after.ModTime(), before.Size(), before.ModTime())
	}
	got, err := loadIndexFile(file, cache, 0)
	if err != nil {
		t.Fatal(err)
	}
	hits := Search([]Loaded{{Registry: "r", Index: got}}, "number", 0)
	found := false
	for _, h := range hits {
		found = found || strings.Contains(h.Description, "Skill NUMBER 7 about")
	}
	if !found {
		t.Errorf("loadIndexFile after a same-size, same-mtime rewrite served the old index")
	}
}

// TestLoadIndexFileErrors: read and decode errors come back as they are,
// and an invalid source is never cached.
func TestLoadIndexFileErrors(t *testing.T) {
	cache := t.TempDir()
	if _, err := loadIndexFile(filepath.Join(t.TempDir(), "missing.yaml"), cache, 0); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("loadIndexFile(missing) = %v, want not exist", err)
	}
	file, data := bigYAMLFile(t)
	bad := bytes.Replace(data, []byte("version: 1.0.0"), []byte("version: 1.0"), 1)
	os.WriteFile(file, bad, 0o644)
	if _, err := loadIndexFile(file, cache, 0); codeOf(err) != "ASK_REGISTRY_INVALID_INDEX" {
		t.Errorf("loadIndexFile(invalid) = %v, want ASK_REGISTRY_INVALID_INDEX", err)
	}
	if _, ok := readCacheEntry(cachePath(cache, file)); ok {
		t.Errorf("an invalid index was cached")
	}
	// A first-layout entry of the same source is removed when the new
	// entry is written.
	os.WriteFile(file, data, 0o644)
	old := strings.TrimSuffix(cachePath(cache, file), ".bin") + "-" + strings.Repeat("ab", 32) + ".bin"
	os.MkdirAll(filepath.Dir(old), 0o755)
	os.WriteFile(old, []byte("ASKIDX1\n"), 0o644)
	if _, err := loadIndexFile(file, cache, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(old); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("first-layout entry %s was kept", old)
	}
}

func statOf(t *testing.T, file string) fs.FileInfo {
	t.Helper()
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	return fi
}

func touch(t *testing.T, file string, when time.Time) {
	t.Helper()
	if err := os.Chtimes(file, when, when); err != nil {
		t.Fatal(err)
	}
}
