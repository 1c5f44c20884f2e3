package source

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agent-skills/agent-skills/registry"
)

// zipEntry is one entry of a test zip.
type zipEntry struct {
	name string
	body string
	mode fs.FileMode
	enc  bool
}

// makeZip builds a zip archive.
func makeZip(t testing.TB, entries []zipEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		if e.mode != 0 {
			h.SetMode(e.mode)
		}
		if e.enc {
			h.Flags |= 0x1
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(e.body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// makeTarGz builds a .tar.gz of regular files.
func makeTarGz(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if err := tw.WriteHeader(&tar.Header{Name: n, Mode: 0o644, Size: int64(len(files[n])), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(files[n]))
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

func TestFetchArchive(t *testing.T) {
	zipData := makeZip(t, []zipEntry{
		{name: "bundle/"},
		{name: "bundle/skills/one/SKILL.md", body: skillMD("one", "One. Use for one.")},
		{name: "bundle/skills/one/ref.md", body: "ref\n"},
		{name: "bundle/skills/two/SKILL.md", body: skillMD("two", "Two. Use for two.")},
		{name: "__MACOSX/bundle/._x", body: "junk"},
	})
	tgz := makeTarGz(t, map[string]string{"pkg/SKILL.md": skillMD("tarred", "Tarred. Use it.")})
	var mu sync.Mutex
	served := map[string][]byte{"/b.zip": zipData, "/t.tar.gz": tgz, "/s.skill": zipData}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		data, ok := served[r.URL.Path]
		mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(data)
	}))
	defer srv.Close()
	ctx := context.Background()
	opts := func() Options { return Options{CacheDir: t.TempDir(), Dir: filepath.Join(t.TempDir(), "out")} }

	tests := []struct {
		ref    string
		skills []string
		want   []string
		code   string
	}{
		{ref: srv.URL + "/b.zip", skills: []string{"*"}, want: []string{"one", "two"}},
		{ref: srv.URL + "/s.skill#skills/two", want: []string{"two"}},
		{ref: srv.URL + "/t.tar.gz", want: []string{"tarred"}},
		{ref: srv.URL + "/b.zip", code: "ASK_SOURCE_AMBIGUOUS"},
		{ref: srv.URL + "/missing.zip", code: "ASK_SOURCE_NOT_FOUND"},
		{ref: "https://example.invalid:1/x.zip", code: "ASK_SOURCE_UNAVAILABLE"},
		{ref: "http://example.com/x.zip", code: "ASK_SOURCE_INVALID"},
	}
	for _, tt := range tests {
		r := mustParse(t, tt.ref)
		o := opts()
		o.Skills = tt.skills
		res, err := Fetch(ctx, r, o)
		if tt.code != "" {
			if codeOf(err) != tt.code {
				t.Errorf("Fetch(%q) = %v, want %s", tt.ref, err, tt.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("Fetch(%q) = %v", tt.ref, err)
			continue
		}
		var got []string
		for _, p := range res.Packages {
			got = append(got, p.Name)
			if !strings.HasPrefix(p.Version, "0.0.0-archive-") {
				t.Errorf("Fetch(%q) %s version = %s, want a content version", tt.ref, p.Name, p.Version)
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("Fetch(%q) = %v, want %v", tt.ref, got, tt.want)
		}
	}

	// Restore checks the recorded integrity; a tampered archive is refused.
	o := opts()
	o.Skills = []string{"one"}
	res, err := Fetch(ctx, mustParse(t, srv.URL+"/b.zip"), o)
	if err != nil {
		t.Fatal(err)
	}
	p := res.Packages[0]
	pin := Pin{Name: p.Name, Version: p.Version, Source: p.Source, Resolved: p.Resolved, Subpath: p.Subpath, Integrity: p.Integrity}
	if _, err := Restore(ctx, pin, opts()); err != nil {
		t.Errorf("Restore(%+v) = %v", pin, err)
	}
	mu.Lock()
	served["/b.zip"] = makeZip(t, []zipEntry{
		{name: "bundle/skills/one/SKILL.md", body: skillMD("one", "One. Use for one. Now with a payload.")},
		{name: "bundle/skills/one/ref.md", body: "ref\n"},
	})
	mu.Unlock()
	if _, err := Restore(ctx, pin, opts()); codeOf(err) != "ASK_INTEGRITY_MISMATCH" {
		t.Errorf("Restore(tampered) = %v, want ASK_INTEGRITY_MISMATCH", err)
	}

	// A local archive path works the same way.
	local := filepath.Join(t.TempDir(), "t.tgz")
	if err := os.WriteFile(local, tgz, 0o644); err != nil {
		t.Fatal(err)
	}
	r, ok, err := Parse(local, "/", nil)
	if !ok || err != nil || r.Kind != KindArchive {
		t.Fatalf("Parse(%q) = %+v, %v, %v", local, r, ok, err)
	}
	if res, err := Fetch(ctx, r, opts()); err != nil || res.Packages[0].Name != "tarred" || res.Source != local {
		t.Errorf("Fetch(%q) = %+v, %v, want tarred from %s", local, res, err, local)
	}
}

func TestExtractZip(t *testing.T) {
	lim := registry.DefaultExtractLimits()
	small := lim
	small.MaxEntries, small.MaxFileBytes, small.MaxTotalBytes, small.RatioGrace = 3, 1<<10, 2<<10, 1<<10
	zeros := strings.Repeat("\x00", 64<<10)
	tests := []struct {
		name    string
		entries []zipEntry
		lim     registry.ExtractLimits
		code    string
		files   []string
	}{
		{name: "ok", entries: []zipEntry{{name: "top/"}, {name: "top/a.md", body: "a"}, {name: "top/d/b.md", body: "b"}}, lim: lim, files: []string{"a.md", "d/b.md"}},
		{name: "two tops", entries: []zipEntry{{name: "x/a", body: "a"}, {name: "y/b", body: "b"}}, lim: lim, files: []string{"x/a", "y/b"}},
		{name: "symlink", entries: []zipEntry{{name: "link", body: "/etc/passwd", mode: fs.ModeSymlink | 0o777}}, lim: lim, code: "ASK_ARCHIVE_UNSAFE"},
		{name: "dotdot", entries: []zipEntry{{name: "../evil", body: "x"}}, lim: lim, code: "ASK_ARCHIVE_UNSAFE"},
		{name: "inner dotdot", entries: []zipEntry{{name: "a/../../evil", body: "x"}}, lim: lim, code: "ASK_ARCHIVE_UNSAFE"},
		{name: "absolute", entries: []zipEntry{{name: "/etc/x", body: "x"}}, lim: lim, code: "ASK_ARCHIVE_UNSAFE"},
		{name: "backslash", entries: []zipEntry{{name: `a\..\b`, body: "x"}}, lim: lim, code: "ASK_ARCHIVE_UNSAFE"},
		{name: "case", entries: []zipEntry{{name: "A.md", body: "x"}, {name: "a.md", body: "y"}}, lim: lim, code: "ASK_PACKAGE_UNSAFE_FILE"},
		{name: "nfc and nfd", entries: []zipEntry{{name: "caf\u00e9.md", body: "x"}, {name: "cafe\u0301.md", body: "y"}}, lim: lim, code: "ASK_PACKAGE_UNSAFE_FILE"},
		{name: "device name", entries: []zipEntry{{name: "top/aux.md", body: "x"}}, lim: lim, code: "ASK_PACKAGE_UNSAFE_FILE"},
		{name: "duplicate", entries: []zipEntry{{name: "a.md", body: "x"}, {name: "a.md", body: "y"}}, lim: lim, code: "ASK_ARCHIVE_UNSAFE"},
		{name: "file as dir", entries: []zipEntry{{name: "a", body: "x"}, {name: "a/b", body: "y"}}, lim: lim, code: "ASK_ARCHIVE_UNSAFE"},
		{name: "encrypted", entries: []zipEntry{{name: "a", body: "x", enc: true}}, lim: lim, code: "ASK_ARCHIVE_UNSAFE"},
		{name: "device", entries: []zipEntry{{name: "dev", mode: fs.ModeDevice | 0o644}}, lim: lim, code: "ASK_ARCHIVE_UNSAFE"},
		{name: "entries", entries: []zipEntry{{name: "a", body: "1"}, {name: "b", body: "2"}, {name: "c", body: "3"}, {name: "d", body: "4"}}, lim: small, code: "ASK_ARCHIVE_TOO_LARGE"},
		{name: "bomb", entries: []zipEntry{{name: "z", body: zeros}}, lim: small, code: "ASK_ARCHIVE_TOO_LARGE"},
		{name: "total", entries: []zipEntry{{name: "a", body: strings.Repeat("a", 900)}, {name: "b", body: strings.Repeat("b", 900)}, {name: "c", body: strings.Repeat("c", 900)}}, lim: small, code: "ASK_ARCHIVE_TOO_LARGE"},
	}
	for _, tt := range tests {
		data := makeZip(t, tt.entries)
		dir := t.TempDir()
		files, err := registry.ExtractZip(context.Background(), bytes.NewReader(data), int64(len(data)), dir, tt.lim)
		if tt.code != "" {
			if codeOf(err) != tt.code {
				t.Errorf("ExtractZip(%s) = %v, want %s", tt.name, err, tt.code)
			}
			continue
		}
		if err != nil || !slices.Equal(files, tt.files) {
			t.Errorf("ExtractZip(%s) = %v, %v, want %v", tt.name, files, err, tt.files)
		}
	}
	if _, err := registry.ExtractZip(context.Background(), bytes.NewReader([]byte("not a zip")), 9, t.TempDir(), lim); codeOf(err) != "ASK_ARCHIVE_UNSAFE" {
		t.Errorf("ExtractZip(garbage) = %v, want ASK_ARCHIVE_UNSAFE", err)
	}
}
