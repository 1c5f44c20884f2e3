package registry

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/agent-skills/agent-skills/format"
)

// miniServer is an http registry of one package, demo-skill 1.0.0, whose
// served bytes a test can change between runs.
type miniServer struct {
	mu       sync.Mutex
	index    []byte
	tarball  []byte
	requests []string
	srv      *httptest.Server
}

// packSample packs fsys as a payload.
func packSample(t testing.TB, fsys fstest.MapFS) []byte {
	t.Helper()
	var b bytes.Buffer
	pkg, diags := format.Load(fsys, format.LoadOptions{})
	if pkg == nil || diags.HasErrors() {
		t.Fatalf("Load(sample) = %v", diags)
	}
	if err := Pack(fsys, pkg.Files, &b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// newMiniServer serves samplePackage() with its true integrity.
func newMiniServer(t *testing.T) *miniServer {
	t.Helper()
	good := samplePackage()
	pkg, _ := format.Load(good, format.LoadOptions{})
	sum, err := format.Digest(pkg.FS, pkg.Files)
	if err != nil {
		t.Fatal(err)
	}
	idx := &Index{SchemaVersion: 1, Name: "mini", Skills: []*Skill{{
		Name: "demo-skill", Description: "Demo.",
		Versions: []*Version{{Version: "1.0.0", Tarball: "archives/demo-skill-1.0.0.tar.gz", Integrity: sum}},
	}}}
	m := &miniServer{index: idx.EncodeJSON(), tarball: packSample(t, good)}
	m.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.mu.Lock()
		defer m.mu.Unlock()
		m.requests = append(m.requests, r.URL.Path)
		switch r.URL.Path {
		case "/index.json":
			if r.Header.Get("If-None-Match") == `"v1"` {
				w.WriteHeader(http.StatusNotModified)
				return
			}
			w.Header().Set("ETag", `"v1"`)
			w.Write(m.index)
		case "/archives/demo-skill-1.0.0.tar.gz":
			w.Write(m.tarball)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(m.srv.Close)
	return m
}

// tampered is samplePackage() with one more line in SKILL.md.
func tampered() fstest.MapFS {
	fsys := samplePackage()
	fsys["SKILL.md"] = &fstest.MapFile{Data: append(bytes.Clone(fsys["SKILL.md"].Data), "Also run this.\n"...)}
	return fsys
}

// set replaces the served tarball.
func (m *miniServer) set(tarball []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.tarball = tarball
}

// count returns how many times path was asked for.
func (m *miniServer) count(path string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, p := range m.requests {
		if p == path {
			n++
		}
	}
	return n
}

// open opens the registry as a fresh process would, on cache, with an
// hour's TTL.
func (m *miniServer) open(t *testing.T, cache string, n *notices, offline bool) Registry {
	return m.openTTL(t, cache, n, offline, time.Hour)
}

// openTTL is open with the given TTL.
func (m *miniServer) openTTL(t *testing.T, cache string, n *notices, offline bool, ttl time.Duration) Registry {
	t.Helper()
	opts := Options{CacheDir: cache, Offline: offline, TTL: ttl}
	if n != nil {
		opts.Notify = n.add
	}
	r, err := Open(Spec{Name: "mini", URL: m.srv.URL + "/index.json"}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// payloadDirs lists the entries of cache/payloads.
func payloadDirs(t *testing.T, cache string) []string {
	t.Helper()
	ents, _ := os.ReadDir(filepath.Join(cache, "payloads"))
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// TestTarballPayloadNeverCachesBadBytes is B18: a payload that fails
// verification is not cached, so once the server serves the right bytes
// again the next run installs — before, the tampered payload sat in
// cache/payloads under the expected integrity's key and every later run,
// --force included, failed with ASK_INTEGRITY_MISMATCH.
func TestTarballPayloadNeverCachesBadBytes(t *testing.T) {
	m := newMiniServer(t)
	cache := t.TempDir()
	good := m.tarball
	m.set(packSample(t, tampered()))
	for _, via := range []string{"Fetch", "Package"} {
		r := m.open(t, cache, nil, false)
		var err error
		if via == "Fetch" {
			_, err = r.Fetch(t.Context(), "demo-skill", "1.0.0", filepath.Join(t.TempDir(), "demo-skill"))
		} else {
			_, err = r.Package(t.Context(), "demo-skill", "1.0.0")
		}
		if codeOf(err) != "ASK_INTEGRITY_MISMATCH" {
			t.Fatalf("%s(tampered) = %v, want ASK_INTEGRITY_MISMATCH", via, err)
		}
		if dirs := payloadDirs(t, cache); len(dirs) != 0 {
			t.Fatalf("after %s(tampered) cache/payloads holds %q, want nothing", via, dirs)
		}
	}
	m.set(good)
	dest := filepath.Join(t.TempDir(), "demo-skill")
	if _, err := m.open(t, cache, nil, false).Fetch(t.Context(), "demo-skill", "1.0.0", dest); err != nil {
		t.Fatalf("Fetch() after the server was fixed = %v, want success", err)
	}
	if dirs := payloadDirs(t, cache); len(dirs) != 1 {
		t.Errorf("cache/payloads = %q, want the verified payload", dirs)
	}
}

// TestTarballPayloadReverifiedOnUse checks that a cached payload that no
// longer matches its integrity is evicted and downloaded again, with a
// notice, and that offline it is evicted rather than used.
func TestTarballPayloadReverifiedOnUse(t *testing.T) {
	tests := []struct {
		name    string
		damage  func(t *testing.T, dir string)
		offline bool
		code    string
	}{
		{"a file changed", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: demo-skill\ndescription: Evil.\n---\n"), 0o644)
		}, false, ""},
		{"a file removed", func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, "references", "a.md"))
		}, false, ""},
		{"replaced by a file", func(t *testing.T, dir string) {
			os.RemoveAll(dir)
			os.WriteFile(dir, []byte("x"), 0o644)
		}, false, ""},
		{"a file changed, offline", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("evil"), 0o644)
		}, true, "ASK_REGISTRY_UNAVAILABLE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMiniServer(t)
			cache := t.TempDir()
			if _, err := m.open(t, cache, nil, false).Package(t.Context(), "demo-skill", "1.0.0"); err != nil {
				t.Fatalf("Package() = %v", err)
			}
			dirs := payloadDirs(t, cache)
			if len(dirs) != 1 {
				t.Fatalf("cache/payloads = %q, want one payload", dirs)
			}
			tt.damage(t, filepath.Join(cache, "payloads", dirs[0]))
			var n notices
			pkg, err := m.open(t, cache, &n, tt.offline).Package(t.Context(), "demo-skill", "1.0.0")
			if codeOf(err) != tt.code {
				t.Fatalf("Package(damaged cache) = %v (%s), want code %q", err, codeOf(err), tt.code)
			}
			if len(n.list) == 0 || !strings.Contains(n.list[0], "downloading it again") {
				t.Errorf("notices = %q, want one about the evicted payload", n.list)
			}
			if tt.code != "" {
				if dirs := payloadDirs(t, cache); len(dirs) != 0 {
					t.Errorf("cache/payloads = %q after a failed offline use, want the damaged payload gone", dirs)
				}
				return
			}
			if pkg.Description() != "Demo." {
				t.Errorf("Package().Description() = %q, want the published package", pkg.Description())
			}
			if got := m.count("/archives/demo-skill-1.0.0.tar.gz"); got != 2 {
				t.Errorf("tarball downloaded %d times, want 2 (once more after the eviction)", got)
			}
		})
	}
}

// TestHTTPIndexCacheHeals is B18 for the index cache: a cached index that
// no longer decodes is dropped and downloaded again — within the TTL, and
// when the server answers 304 Not Modified for it — instead of failing
// every run until the TTL ends.
func TestHTTPIndexCacheHeals(t *testing.T) {
	for _, ttl := range []time.Duration{time.Hour, 0} {
		t.Run(fmt.Sprint("ttl ", ttl), func(t *testing.T) {
			m := newMiniServer(t)
			cache := t.TempDir()
			if _, err := m.openTTL(t, cache, nil, false, ttl).Index(t.Context()); err != nil {
				t.Fatalf("Index() = %v", err)
			}
			files, _ := filepath.Glob(filepath.Join(cache, "http", "*", "index"))
			if len(files) != 1 {
				t.Fatalf("cached index files = %q, want one", files)
			}
			os.WriteFile(files[0], []byte(`{"schemaVersion": 1, "skills": [{"name": "Bad Name"}]}`), 0o644)
			var n notices
			idx, err := m.openTTL(t, cache, &n, false, ttl).Index(t.Context())
			if err != nil {
				t.Fatalf("Index(damaged cache) = %v, want the index downloaded again", err)
			}
			if _, ok := idx.Skill("demo-skill"); !ok {
				t.Errorf("Index(damaged cache) lacks demo-skill")
			}
			if len(n.list) != 1 || !strings.Contains(n.list[0], "cached index is unusable") {
				t.Errorf("notices = %q, want one about the unusable cached index", n.list)
			}
			if got, _ := os.ReadFile(files[0]); !bytes.Equal(got, m.index) {
				t.Errorf("cached index = %q, want the served one", got)
			}
		})
	}
}
