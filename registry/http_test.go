package registry

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeServer serves an index.json and tarballs built from the fixture.
type fakeServer struct {
	mu       sync.Mutex
	index    []byte
	etag     string
	files    map[string][]byte
	fail     int // answer 503 to this many requests
	requests []string
	srv      *httptest.Server
}

// newFakeServer packs every fixture package and serves them.
func newFakeServer(t *testing.T) *fakeServer {
	t.Helper()
	root := fixture(t)
	data, err := os.ReadFile(filepath.Join(root, indexPath))
	if err != nil {
		t.Fatal(err)
	}
	idx, err := DecodeIndex(data, indexPath)
	if err != nil {
		t.Fatal(err)
	}
	fs := &fakeServer{files: map[string][]byte{}}
	for _, s := range idx.Skills {
		for _, v := range s.Versions {
			name := fmt.Sprintf("tarballs/%s-%s.tgz", s.Name, v.Version)
			fs.files["/reg/"+name] = packDir(t, filepath.Join(root, v.Path))
			v.Tarball, v.Path = name, ""
		}
	}
	fs.setIndex(idx.EncodeJSON())
	fs.srv = httptest.NewServer(fs)
	t.Cleanup(fs.srv.Close)
	return fs
}

// setIndex replaces the served index and its ETag.
func (f *fakeServer) setIndex(b []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.index = b
	f.etag = fmt.Sprintf(`"v%d"`, len(f.requests)+len(b))
}

// url is the index URL.
func (f *fakeServer) url() string { return f.srv.URL + "/reg/index.json" }

// ServeHTTP implements the fake registry.
func (f *fakeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests = append(f.requests, r.URL.Path+" "+r.Header.Get("If-None-Match"))
	if f.fail > 0 {
		f.fail--
		http.Error(w, "busy", http.StatusServiceUnavailable)
		return
	}
	if r.URL.Path == "/reg/index.json" {
		if r.Header.Get("If-None-Match") == f.etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", f.etag)
		w.Write(f.index)
		return
	}
	if b, ok := f.files[r.URL.Path]; ok {
		w.Write(b)
		return
	}
	http.NotFound(w, r)
}

// sleeps records the retry delays instead of sleeping.
type sleeps struct{ list []time.Duration }

// sleep records d.
func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.list = append(s.list, d)
	return nil
}

func TestHTTPRegistry(t *testing.T) {
	fs := newFakeServer(t)
	cache := t.TempDir()
	var sl sleeps
	var n notices
	opts := Options{CacheDir: cache, Sleep: sl.sleep, Notify: n.add}
	open := func() Registry {
		r, err := Open(Spec{Name: "h", URL: fs.url()}, opts)
		if err != nil {
			t.Fatal(err)
		}
		if r.Kind() != KindHTTP {
			t.Fatalf("Kind() = %q, want http", r.Kind())
		}
		return r
	}
	r := open()
	idx, err := r.Index(t.Context())
	if err != nil {
		t.Fatalf("Index() = %v", err)
	}
	out := t.TempDir()
	for _, s := range idx.Skills {
		f, err := r.Fetch(t.Context(), s.Name, s.Latest, filepath.Join(out, s.Name))
		if err != nil {
			t.Errorf("Fetch(%q) = %v", s.Name, err)
			continue
		}
		if !strings.HasPrefix(f.Resolved, fs.srv.URL+"/reg/tarballs/") {
			t.Errorf("Resolved = %q", f.Resolved)
		}
	}
	// Requirements come from the downloaded, verified payload.
	req, err := NewSet(nil, r).Requirements(t.Context(), "", "java-performance", "1.0.0")
	if err != nil || fmt.Sprint(req.Dependencies) != "[{jvm-gc-tuning ^1.0.0}]" {
		t.Errorf("Requirements(java-performance) = %+v, %v", req, err)
	}
	// Revalidation with If-None-Match: a 304 reuses the cache.
	before := len(fs.requests)
	if _, err := open().Index(t.Context()); err != nil {
		t.Fatalf("Index() revalidated = %v", err)
	}
	if last := fs.requests[len(fs.requests)-1]; len(fs.requests) != before+1 || !strings.HasSuffix(last, fs.etag) {
		t.Errorf("revalidation requests = %q, want one with If-None-Match %s", fs.requests[before:], fs.etag)
	}
	// Within the TTL nothing is asked at all.
	opts.TTL = time.Hour
	before = len(fs.requests)
	open().Index(t.Context())
	if len(fs.requests) != before {
		t.Errorf("Index() within TTL made %d requests, want 0", len(fs.requests)-before)
	}
	opts.TTL = 0
	// Two 5xx answers are retried with backoff.
	fs.fail = 2
	if _, err := open().Index(t.Context()); err != nil {
		t.Fatalf("Index() after two 503s = %v", err)
	}
	if want := []time.Duration{250 * time.Millisecond, 500 * time.Millisecond}; fmt.Sprint(sl.list) != fmt.Sprint(want) {
		t.Errorf("backoff = %v, want %v", sl.list, want)
	}
	// A server that keeps failing: the cached index, with a notice.
	fs.fail = 100
	n.list = nil
	if _, err := open().Index(t.Context()); err != nil {
		t.Fatalf("Index() with server down = %v, want the cached index", err)
	}
	if len(n.list) != 1 || !strings.Contains(n.list[0], "using the index cached") {
		t.Errorf("notices = %q", n.list)
	}
	// Offline: index and already-extracted payloads come from the cache.
	opts.Offline = true
	before = len(fs.requests)
	ro := open()
	if _, err := ro.Fetch(t.Context(), "java-optional", "1.0.0", filepath.Join(t.TempDir(), "o")); err != nil {
		t.Errorf("Fetch() offline = %v", err)
	}
	if len(fs.requests) != before {
		t.Errorf("offline use made %d requests", len(fs.requests)-before)
	}
	fs.fail = 0
}

func TestHTTPFailures(t *testing.T) {
	fs := newFakeServer(t)
	var sl sleeps
	open := func(url string) Registry {
		r, err := Open(Spec{Name: "h", URL: url}, Options{CacheDir: t.TempDir(), Sleep: sl.sleep})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	fs.fail = 100
	if _, err := open(fs.url()).Index(t.Context()); codeOf(err) != "ASK_REGISTRY_UNAVAILABLE" || !strings.Contains(err.Error(), "after 3 attempts") {
		t.Errorf("Index(down, no cache) = %v, want ASK_REGISTRY_UNAVAILABLE after 3 attempts", err)
	}
	fs.fail = 0
	before := len(fs.requests)
	if _, err := open(fs.srv.URL + "/missing/index.json").Index(t.Context()); codeOf(err) != "ASK_REGISTRY_UNAVAILABLE" || !strings.Contains(err.Error(), "404") {
		t.Errorf("Index(404) = %v, want ASK_REGISTRY_UNAVAILABLE 404", err)
	}
	if len(fs.requests) != before+1 {
		t.Errorf("a 404 was retried")
	}
	r, _ := Open(Spec{Name: "h", URL: fs.url()}, Options{CacheDir: t.TempDir(), Offline: true})
	if _, err := r.Index(t.Context()); codeOf(err) != "ASK_REGISTRY_UNAVAILABLE" {
		t.Errorf("Index(offline, no cache) = %v, want ASK_REGISTRY_UNAVAILABLE", err)
	}
}

func TestHTTPTamper(t *testing.T) {
	tests := []struct {
		name   string
		tamper func(fs *fakeServer)
		code   string
		want   string
	}{
		{"payload byte", func(fs *fakeServer) {
			// Re-pack with one changed byte in SKILL.md.
			root := fixture(t)
			dir := t.TempDir()
			copyTree(t, filepath.Join(root, "skills/jvm-gc-tuning"), dir)
			f := filepath.Join(dir, "SKILL.md")
			b, _ := os.ReadFile(f)
			b[5] ^= 1
			os.WriteFile(f, b, 0o644)
			fs.files["/reg/tarballs/jvm-gc-tuning-1.0.0.tgz"] = packDir(t, dir)
		}, "ASK_INTEGRITY_MISMATCH", "does not match"},
		{"wrong name inside", func(fs *fakeServer) {
			idx, _ := DecodeIndex(fs.index, "x.json")
			s, _ := idx.Skill("jvm-gc-tuning")
			o, _ := idx.Skill("java-optional")
			s.Versions[0].Integrity = o.Versions[0].Integrity
			fs.files["/reg/tarballs/jvm-gc-tuning-1.0.0.tgz"] = fs.files["/reg/tarballs/java-optional-1.0.0.tgz"]
			fs.setIndex(idx.EncodeJSON())
		}, "ASK_INTEGRITY_MISMATCH", "manifest names another package"},
		{"index integrity", func(fs *fakeServer) {
			fs.setIndex([]byte(strings.Replace(string(fs.index), "sha256-17RQ", "sha256-27RQ", 1)))
		}, "ASK_INTEGRITY_MISMATCH", "expected: sha256-27RQ"},
		{"truncated tarball", func(fs *fakeServer) {
			b := fs.files["/reg/tarballs/jvm-gc-tuning-1.0.0.tgz"]
			fs.files["/reg/tarballs/jvm-gc-tuning-1.0.0.tgz"] = b[:len(b)/2]
		}, "ASK_ARCHIVE_UNSAFE", "corrupt archive"},
		{"insecure tarball URL", func(fs *fakeServer) {
			fs.setIndex([]byte(strings.Replace(string(fs.index), `"tarballs/jvm-gc-tuning-1.0.0.tgz"`, `"http://example.com/x.tgz"`, 1)))
		}, "ASK_REGISTRY_UNAVAILABLE", "refusing to download"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := newFakeServer(t)
			tt.tamper(fs)
			r, err := Open(Spec{Name: "h", URL: fs.url()}, Options{CacheDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			dest := filepath.Join(t.TempDir(), "gc")
			_, err = r.Fetch(t.Context(), "jvm-gc-tuning", "1.0.0", dest)
			if codeOf(err) != tt.code || !strings.Contains(errText(err), tt.want) {
				t.Fatalf("Fetch() = %v (%s), want %s containing %q", err, codeOf(err), tt.code, tt.want)
			}
			assertNothingAt(t, dest)
		})
	}
}

func TestHTTPRefusesDowngradeRedirect(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://example.com/index.json", http.StatusFound)
	}))
	defer srv.Close()
	var sl sleeps
	r, err := Open(Spec{Name: "h", URL: srv.URL + "/index.json"}, Options{CacheDir: t.TempDir(), HTTPTransport: srv.Client().Transport, Sleep: sl.sleep})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Index(t.Context()); codeOf(err) != "ASK_REGISTRY_UNAVAILABLE" || !strings.Contains(err.Error(), "refused redirect") {
		t.Fatalf("Index(redirect to http) = %v, want a refused redirect", err)
	}
}
