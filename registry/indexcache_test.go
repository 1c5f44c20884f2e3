package registry

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
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
	// A new version of the source replaces the old entry.
	changed := bytes.Replace(data, []byte(`"1.1.0"`), []byte(`"1.1.1"`), 1)
	if _, err := decodeIndexCached(changed, "index.json", cache); err != nil {
		t.Fatal(err)
	}
	if now, _ := filepath.Glob(filepath.Join(cache, "index", "*.bin")); len(now) != 1 || now[0] == files[0] {
		t.Errorf("cache files after a change = %v, want one new entry", now)
	}
	// An invalid source is never cached.
	bad := bytes.Replace(data, []byte(`"1.0.0"`), []byte(`"1.0"`), 1)
	if _, err := decodeIndexCached(bad, "index.json", cache); codeOf(err) != "ASK_REGISTRY_INVALID_INDEX" {
		t.Errorf("decodeIndexCached(invalid) = %v, want ASK_REGISTRY_INVALID_INDEX", err)
	}
}

// FuzzUnmarshalIndex checks the cache decoder never panics on damaged
// files.
func FuzzUnmarshalIndex(f *testing.F) {
	idx, err := DecodeIndex([]byte(indexYAML("      - {version: 1.0.0, path: a, integrity: "+goodIntegrity+"}\n")), "x.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(marshalIndex(idx))
	f.Add([]byte(indexCacheMagic + "\x01\x00\x00\xff\xff\xff\xff\x0f"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		x, err := unmarshalIndex(raw)
		if err == nil && !bytes.Equal(marshalIndex(x), raw) {
			t.Fatalf("unmarshalIndex accepted bytes that do not round-trip")
		}
	})
}
