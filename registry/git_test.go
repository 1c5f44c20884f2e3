package registry

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// gitRun runs git in dir for test set-up.
func gitRun(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// gitRegistry makes a real git repository holding a copy of the fixture
// and returns its file:// URL and work tree.
func gitRegistry(t *testing.T) (string, string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := tempRegistry(t)
	gitRun(t, dir, "init", "-q")
	gitRun(t, dir, "add", "-A")
	gitRun(t, dir, "commit", "-q", "-m", "registry")
	return "file://" + dir, dir
}

// clock is a settable test clock.
type clock struct{ t time.Time }

// now returns the clock's time.
func (c *clock) now() time.Time { return c.t }

func TestGitRegistry(t *testing.T) {
	url, work := gitRegistry(t)
	cache := t.TempDir()
	clk := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	var n notices
	opts := Options{CacheDir: cache, TTL: time.Hour, Now: clk.now, Notify: n.add}
	open := func() Registry {
		r, err := Open(Spec{Name: "g", URL: url, Kind: KindGit}, opts)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	r := open()
	idx, err := r.Index(t.Context())
	if err != nil {
		t.Fatalf("Index() = %v", err)
	}
	for _, s := range idx.Skills {
		if _, err := r.Package(t.Context(), s.Name, s.Latest); err != nil {
			t.Errorf("Package(%q) = %v", s.Name, err)
		}
	}
	dest := filepath.Join(t.TempDir(), "jvm-gc-tuning")
	f, err := r.Fetch(t.Context(), "jvm-gc-tuning", "1.0.0", dest)
	if err != nil {
		t.Fatalf("Fetch() = %v", err)
	}
	if want := url + ":skills/jvm-gc-tuning"; f.Resolved != want {
		t.Errorf("Resolved = %q, want %q", f.Resolved, want)
	}
	clones, _ := filepath.Glob(filepath.Join(cache, "git", "*", ".git"))
	if len(clones) != 1 {
		t.Fatalf("clones in cache = %v, want 1", clones)
	}
	clone := filepath.Dir(clones[0])
	// The clone is shallow and has no remote configured.
	if data, _ := os.ReadFile(filepath.Join(clone, ".git", "shallow")); len(data) == 0 {
		t.Errorf("clone is not shallow")
	}
	if data, _ := os.ReadFile(filepath.Join(clone, ".git", "config")); strings.Contains(string(data), "[remote") {
		t.Errorf("clone config has a remote:\n%s", data)
	}

	// A new commit upstream is not seen within the TTL …
	idxFile := filepath.Join(work, indexPath)
	data, _ := os.ReadFile(idxFile)
	os.WriteFile(idxFile, []byte(strings.Replace(string(data), "name: official", "name: renamed", 1)), 0o644)
	gitRun(t, work, "commit", "-q", "-am", "rename")
	if idx, _ := open().Index(t.Context()); idx.Name != "official" {
		t.Errorf("Index().Name within TTL = %q, want the cached official", idx.Name)
	}
	// … and is after it.
	clk.t = clk.t.Add(2 * time.Hour)
	if idx, err := open().Index(t.Context()); err != nil || idx.Name != "renamed" {
		t.Errorf("Index().Name after TTL = %v, %v, want renamed", idx, err)
	}

	// Upstream gone: the cached clone is used, with a notice.
	os.RemoveAll(work)
	clk.t = clk.t.Add(2 * time.Hour)
	n.list = nil
	if idx, err := open().Index(t.Context()); err != nil || idx.Name != "renamed" {
		t.Fatalf("Index() offline = %v, %v, want the cached copy", idx, err)
	}
	if len(n.list) != 1 || !strings.Contains(n.list[0], "could not refresh") {
		t.Errorf("notices = %q, want one 'could not refresh'", n.list)
	}
	// Offline mode never runs git.
	opts.Offline = true
	opts.GitPath = "no-such-git-binary"
	if _, err := open().Index(t.Context()); err != nil {
		t.Errorf("Index() with Offline = %v, want the cached copy", err)
	}
}

func TestGitRef(t *testing.T) {
	url, work := gitRegistry(t)
	gitRun(t, work, "checkout", "-q", "-b", "release")
	idxFile := filepath.Join(work, indexPath)
	data, _ := os.ReadFile(idxFile)
	os.WriteFile(idxFile, []byte(strings.Replace(string(data), "name: official", "name: release", 1)), 0o644)
	gitRun(t, work, "commit", "-q", "-am", "release")
	gitRun(t, work, "checkout", "-q", "main")
	for _, tt := range []struct{ url, want string }{{url, "official"}, {url + "#release", "release"}, {url + "#main", "official"}} {
		r, err := Open(Spec{Name: "g", URL: tt.url, Kind: KindGit}, Options{CacheDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		idx, err := r.Index(t.Context())
		if err != nil || idx.Name != tt.want {
			t.Errorf("Index(%q).Name = %v, %v, want %q", tt.url, idx, err, tt.want)
		}
	}
}

func TestGitSymlinkIsNotFollowed(t *testing.T) {
	url, work := gitRegistry(t)
	os.RemoveAll(filepath.Join(work, "skills", "jvm-gc-tuning"))
	os.Symlink(filepath.Join(fixture(t), "skills", "jvm-gc-tuning"), filepath.Join(work, "skills", "jvm-gc-tuning"))
	gitRun(t, work, "add", "-A")
	gitRun(t, work, "commit", "-q", "-m", "link")
	r, _ := Open(Spec{Name: "g", URL: url, Kind: KindGit}, Options{CacheDir: t.TempDir()})
	dest := filepath.Join(t.TempDir(), "x")
	if _, err := r.Fetch(t.Context(), "jvm-gc-tuning", "1.0.0", dest); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Fatalf("Fetch(symlinked package) = %v, want a refusal", err)
	}
	assertNothingAt(t, dest)
}

func TestGitUnavailable(t *testing.T) {
	tests := []struct {
		name string
		url  string
		opts Options
		want string
	}{
		{"missing git", "file:///nowhere/repo.git", Options{GitPath: "no-such-git-binary"}, "install git"},
		{"offline never fetched", "file:///nowhere/repo.git", Options{Offline: true}, "offline and never fetched"},
		{"bad url", "file:///nowhere/repo.git", Options{}, "cannot fetch"},
	}
	for _, tt := range tests {
		if tt.name != "missing git" {
			if _, err := exec.LookPath("git"); err != nil {
				continue
			}
		}
		tt.opts.CacheDir = t.TempDir()
		r, err := Open(Spec{Name: "g", URL: tt.url}, tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		_, err = r.Index(t.Context())
		if codeOf(err) != "ASK_REGISTRY_UNAVAILABLE" || !strings.Contains(err.Error()+strings.Join(hints(err), " "), tt.want) {
			t.Errorf("%s: Index() = %v, want ASK_REGISTRY_UNAVAILABLE mentioning %q", tt.name, err, tt.want)
		}
	}
}

// hints returns the Try lines of err.
func hints(err error) []string {
	if e, ok := err.(*Error); ok {
		return e.Try
	}
	return nil
}

func TestGitRecoversInterruptedClone(t *testing.T) {
	url, _ := gitRegistry(t)
	cache := t.TempDir()
	r, err := Open(Spec{Name: "g", URL: url, Kind: KindGit}, Options{CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	// Leave a clone directory without .git behind, as a killed clone would.
	dir := r.(*registry).be.(*gitBackend).dir
	os.MkdirAll(filepath.Join(dir, "registry"), 0o755)
	os.WriteFile(filepath.Join(dir, "registry", "junk"), []byte("x"), 0o644)
	if _, err := r.Index(t.Context()); err != nil {
		t.Fatalf("Index() over an interrupted clone = %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "registry", "junk")); err == nil {
		t.Errorf("remains of the interrupted clone were kept")
	}
}

// TestGitHooksNeverRun installs a post-checkout hook through a global git
// template directory (as a user's configuration might) and checks that
// cloning and refreshing a registry never runs it.
func TestGitHooksNeverRun(t *testing.T) {
	url, _ := gitRegistry(t)
	tmpl := t.TempDir()
	marker := filepath.Join(t.TempDir(), "hook-ran")
	os.MkdirAll(filepath.Join(tmpl, "hooks"), 0o755)
	hook := "#!/bin/sh\ntouch " + marker + "\n"
	for _, h := range []string{"post-checkout", "post-merge", "reference-transaction"} {
		os.WriteFile(filepath.Join(tmpl, "hooks", h), []byte(hook), 0o755)
	}
	cfg := filepath.Join(t.TempDir(), "gitconfig")
	os.WriteFile(cfg, []byte("[init]\n\ttemplateDir = "+tmpl+"\n"), 0o644)
	t.Setenv("GIT_CONFIG_GLOBAL", cfg)
	r, err := Open(Spec{Name: "g", URL: url, Kind: KindGit}, Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Index(t.Context()); err != nil {
		t.Fatalf("Index() = %v", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatalf("a git hook ran during the clone")
	}
}

// B11: a registry's .gitattributes naming a filter driver the user
// configured (as git-lfs does) runs nothing while the registry is cloned
// and refreshed, and the checkout keeps the committed bytes whatever the
// user's core.autocrlf, so every payload still verifies.
func TestGitRegistryRunsNoAttributeDriver(t *testing.T) {
	url, work := gitRegistry(t)
	os.WriteFile(filepath.Join(work, ".gitattributes"), []byte("* filter=evil\n*.md text eol=crlf ident\n"), 0o644)
	gitRun(t, work, "add", "-A")
	gitRun(t, work, "commit", "-q", "-m", "attributes")
	marker := filepath.Join(t.TempDir(), "filter-ran")
	cfg := filepath.Join(t.TempDir(), "gitconfig")
	os.WriteFile(cfg, []byte("[filter \"evil\"]\n\tsmudge = sh -c 'touch "+marker+" && cat'\n\tclean = sh -c 'touch "+marker+" && cat'\n"+
		"[core]\n\tautocrlf = true\n"), 0o644)
	t.Setenv("GIT_CONFIG_GLOBAL", cfg)
	clk := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	opts := Options{CacheDir: t.TempDir(), TTL: time.Hour, Now: clk.now}
	for range 2 { // the clone, then a refresh of the cached clone
		r, err := Open(Spec{Name: "g", URL: url, Kind: KindGit}, opts)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.Fetch(t.Context(), "jvm-gc-tuning", "1.0.0", filepath.Join(t.TempDir(), "x")); err != nil {
			t.Errorf("Fetch() = %v, want the payload verified byte for byte", err)
		}
		clk.t = clk.t.Add(2 * time.Hour)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("a filter driver ran during the clone or refresh")
	}
}

// B01: a registry's ref and URL are checked like a source's before git
// runs: no option-like or shell-metacharacter ref, no remote helper.
func TestGitRegistryRefusesUnsafeSpec(t *testing.T) {
	for _, u := range []string{
		"file:///srv/reg.git#--upload-pack=touch /tmp/x",
		"file:///srv/reg.git#a;touch x",
		"file:///srv/reg.git#$(touch x)",
		"ext::sh -c touch% /tmp/x",
		"https://host/x.git\n#main",
	} {
		_, err := Open(Spec{Name: "g", URL: u, Kind: KindGit}, Options{CacheDir: t.TempDir()})
		if codeOf(err) != "ASK_REGISTRY_CONFIG_INVALID" {
			t.Errorf("Open(%q) = %v, want ASK_REGISTRY_CONFIG_INVALID", u, err)
		}
	}
}
