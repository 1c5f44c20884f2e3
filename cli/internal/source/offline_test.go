package source

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOfflineRefusal: offline, every source that needs the network is
// refused before it is contacted, and only those.
func TestOfflineRefusal(t *testing.T) {
	local := map[string]string{"AGENT_SKILLS_GITHUB_URL": "file:///srv/gh"}
	tests := []struct {
		ref     string
		env     map[string]string
		refused bool
	}{
		{"acme/skills", nil, true},
		{"gitlab:acme/skills", nil, true},
		{"https://git.example.com/a/b.git", nil, true},
		{"git@git.example.com:a/b.git", nil, true},
		{"ssh://git.example.com/a/b.git", nil, true},
		{"http://127.0.0.1:8080/a/b.git", nil, true}, // loopback is still the network
		{"https://example.com/x.tar.gz", nil, true},
		{"file:///srv/repo.git", nil, false},
		{"acme/skills", local, false}, // the GitHub host is a folder here
		{"./folder", nil, false},
		{"./x.tar.gz", nil, false},
	}
	for _, tt := range tests {
		r, ok, err := Parse(tt.ref, "/work", nil)
		if err != nil || !ok {
			t.Fatalf("Parse(%q) = %v, %v", tt.ref, ok, err)
		}
		opts := &Options{Offline: true, Getenv: func(k string) string { return tt.env[k] }}
		err = offlineRefusal(r, "", opts)
		if (err != nil) != tt.refused || (err != nil && codeOf(err) != CodeSourceUnavailable) {
			t.Errorf("offlineRefusal(%q) = %v, want refused=%v with %s", tt.ref, err, tt.refused, CodeSourceUnavailable)
		}
		opts.Offline = false
		if err := offlineRefusal(r, "", opts); err != nil {
			t.Errorf("offlineRefusal(%q) online = %v, want nil", tt.ref, err)
		}
	}
}

// TestOfflineFetchContactsNothing: Fetch, Restore and Tags of a network
// source fail offline without running git: the URL is unreachable and
// would fail differently if it were tried.
func TestOfflineFetchContactsNothing(t *testing.T) {
	opts := Options{CacheDir: t.TempDir(), Dir: filepath.Join(t.TempDir(), "out"), Offline: true, Git: "/nonexistent/git"}
	r := mustParse(t, "https://git.invalid/a/b.git")
	if _, err := Fetch(context.Background(), r, opts); codeOf(err) != CodeSourceUnavailable || !strings.Contains(err.Error(), "offline") {
		t.Errorf("Fetch(offline) = %v, want the offline ASK_SOURCE_UNAVAILABLE", err)
	}
	if _, err := Tags(context.Background(), r, opts); codeOf(err) != CodeSourceUnavailable {
		t.Errorf("Tags(offline) = %v, want ASK_SOURCE_UNAVAILABLE", err)
	}
	pin := Pin{Name: "x", Version: "1.0.0", Source: "https://git.invalid/a/b", Resolved: "https://git.invalid/a/b.git#" + strings.Repeat("a", 40),
		Commit: strings.Repeat("a", 40), Integrity: "sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="}
	_, err := Restore(context.Background(), pin, opts)
	if codeOf(err) != CodeSourceUnavailable || !strings.Contains(shownErr(err), "No verified copy of x") {
		t.Errorf("Restore(offline, nothing cached) = %v, want ASK_SOURCE_UNAVAILABLE naming the missing copy", shownErr(err))
	}
}

// TestVerifiedCache: a kept package is restored byte for byte when its
// integrity is asked for, and never when its bytes no longer match (the
// damaged copy is removed) or another name is asked for.
func TestVerifiedCache(t *testing.T) {
	fx := newFixture(t)
	fx.commit("acme/skills", collection())
	opts := fetchOpts(t, fx)
	res, err := Fetch(context.Background(), mustParse(t, "acme/skills@alpha"), opts)
	if err != nil {
		t.Fatal(err)
	}
	p := res.Packages[0]
	keepVerified(&p, &opts)
	pin := Pin{Name: p.Name, Version: p.Version, Source: p.Source, Resolved: p.Resolved, Commit: p.Commit, Subpath: p.Subpath, Integrity: p.Integrity}

	ropts := fetchOpts(t, fx)
	ropts.CacheDir = opts.CacheDir
	got, ok := restoreVerified(pin, &ropts)
	if !ok {
		t.Fatalf("restoreVerified(%s) found nothing after keepVerified", p.Integrity)
	}
	want, have := readTree(t, p.Dir), readTree(t, got.Dir)
	if len(want) != len(have) {
		t.Errorf("restoreVerified files = %v, want %v", have, want)
	}
	for k, v := range want {
		if have[k] != v {
			t.Errorf("restoreVerified file %s = %q, want %q", k, have[k], v)
		}
	}
	if got.Integrity != p.Integrity || got.Resolved != p.Resolved || got.Commit != p.Commit || !got.Synthesised || got.Name != "alpha" {
		t.Errorf("restoreVerified = %+v, want the pin's integrity, resolved, commit and a synthesised alpha", got)
	}

	other := pin
	other.Name = "beta"
	if _, ok := restoreVerified(other, &Options{CacheDir: opts.CacheDir, Dir: filepath.Join(t.TempDir(), "o")}); ok {
		t.Errorf("restoreVerified(another name) used the cached alpha")
	}

	dir := verifiedDir(opts.CacheDir, p.Integrity)
	if err := os.WriteFile(filepath.Join(dir, "references", "guide.md"), []byte("changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := restoreVerified(pin, &Options{CacheDir: opts.CacheDir, Dir: filepath.Join(t.TempDir(), "d")}); ok {
		t.Errorf("restoreVerified used a copy that no longer matches its integrity")
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the damaged copy %s was kept (%v)", dir, err)
	}
}
