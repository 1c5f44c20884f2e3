package source

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/registry/gitrun"
)

// hostileUser gives the test a HOME whose global git configuration has
// filter, diff and fsmonitor commands that touch markers, as a real
// user's git-lfs set-up would have filters. It returns the marker folder.
func hostileUser(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	markers := filepath.Join(home, "markers")
	if err := os.MkdirAll(markers, 0o755); err != nil {
		t.Fatal(err)
	}
	touch := func(name string) string { return "touch " + filepath.Join(markers, name) }
	cfg := "[filter \"evil\"]\n\tsmudge = sh -c '" + touch("smudge") + " && cat'\n\tclean = sh -c '" + touch("clean") + " && cat'\n" +
		"[filter \"proc\"]\n\tprocess = sh -c '" + touch("process") + "'\n" +
		"[core]\n\tautocrlf = true\n"
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	return markers
}

// noMarker fails the test when any marker appeared.
func noMarker(t *testing.T, markers string) {
	t.Helper()
	ents, _ := os.ReadDir(markers)
	for _, e := range ents {
		t.Errorf("marker %s appeared: a command ran during the fetch", e.Name())
	}
}

// danglingWithBranch leaves only branch name in the bare repository of
// repo, with HEAD naming the missing main (B01's repository).
func danglingWithBranch(t *testing.T, fx *gitFixture, repo, sha, name string) {
	t.Helper()
	bare := filepath.Join(fx.base, repo+".git")
	if err := os.RemoveAll(filepath.Join(bare, "refs", "heads")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(bare, "refs", "heads"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bare, "packed-refs"), []byte(sha+" refs/heads/"+name+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// B01: a repository whose HEAD dangles and whose only branch is named like
// an option, or carries shell metacharacters, is refused with
// ASK_SOURCE_NOT_FOUND naming the branch; nothing runs.
func TestFetchRefusesHostileDefaultBranch(t *testing.T) {
	markers := hostileUser(t)
	touch := "touch${IFS}" + filepath.Join(markers, "upload-pack")
	for _, branch := range []string{
		"--upload-pack=" + touch + ";git-upload-pack",
		"-c" + "core.fsmonitor=" + touch,
		"$(" + touch + ")",
		"a`" + touch + "`",
		"x;" + touch,
	} {
		fx := newFixture(t)
		sha := fx.commit("acme/evil", map[string]string{"SKILL.md": skillMD("harmless", "A harmless looking skill.")})
		danglingWithBranch(t, fx, "acme/evil", sha, branch)
		opts := fetchOpts(t, fx)
		opts.List = true
		_, err := Fetch(context.Background(), mustParse(t, "acme/evil"), opts)
		if codeOf(err) != "ASK_SOURCE_NOT_FOUND" || !strings.Contains(err.Error(), "is refused") || !strings.Contains(err.Error(), "upload-pack") && !strings.Contains(err.Error(), "touch") {
			t.Errorf("Fetch(only branch %q) = %v, want ASK_SOURCE_NOT_FOUND naming the refused branch", branch, err)
		}
		noMarker(t, markers)
	}
}

// B01: what skills.lock records is checked before git runs: a commit that
// is not a full id, a ref like an option, a URL that is a remote helper.
func TestRestoreRefusesHostileLock(t *testing.T) {
	markers := hostileUser(t)
	touch := "touch${IFS}" + filepath.Join(markers, "lock")
	fx := newFixture(t)
	sha := fx.commit("acme/one", map[string]string{"SKILL.md": skillMD("one", "One. Use it.")})
	opts := fetchOpts(t, fx)
	base := Pin{Name: "one", Version: "0.0.0", Source: "github:acme/one", Commit: sha, Integrity: "sha256-AAAA"}
	for name, p := range map[string]Pin{
		"option commit": {Name: "one", Source: "github:acme/one", Commit: "--upload-pack=" + touch + ";git-upload-pack"},
		"branch commit": {Name: "one", Source: "github:acme/one", Commit: "main"},
		"ext resolved": {Name: "one", Source: "https://example.invalid/x", Commit: sha,
			Resolved: "ext::sh -c " + strings.ReplaceAll(filepath.Join(markers, "ext"), " ", "% ") + "#" + sha + ":"},
		"option resolved": {Name: "one", Source: "https://example.invalid/x", Commit: sha, Resolved: "-uhttps://x#" + sha + ":"},
	} {
		if _, err := Restore(context.Background(), p, opts); codeOf(err) != "ASK_SOURCE_INVALID" {
			t.Errorf("Restore(%s) = %v, want ASK_SOURCE_INVALID", name, err)
		}
	}
	for _, ref := range []string{"--upload-pack=" + touch, "a;" + touch} {
		if _, err := base.Follow(ref); codeOf(err) != "ASK_SOURCE_INVALID" {
			t.Errorf("Pin.Follow(%q) = %v, want ASK_SOURCE_INVALID", ref, err)
		}
	}
	noMarker(t, markers)
}

// A ref typed by the user with shell metacharacters is refused as it is
// parsed.
func TestParseRefusesMetacharacterRef(t *testing.T) {
	for _, ref := range []string{"acme/one#$(touch x)", "acme/one#a`b`", "acme/one#a;b", "https://host/x.git#a|b"} {
		if _, _, err := Parse(ref, "/", nil); codeOf(err) != "ASK_SOURCE_INVALID" {
			t.Errorf("Parse(%q) = %v, want ASK_SOURCE_INVALID", ref, err)
		}
	}
}

// B11: a .gitattributes naming filter drivers the user configured runs
// none of them, the bytes are the committed ones (CRLF, $Id$ and all,
// whatever core.autocrlf says), and a .gitmodules whose URL is a command
// is never fetched.
func TestFetchRunsNoRepositoryDriver(t *testing.T) {
	markers := hostileUser(t)
	fx := newFixture(t)
	files := map[string]string{
		".gitattributes":   "* filter=evil\n*.md text eol=crlf ident\nreferences/*.txt filter=proc working-tree-encoding=UTF-16\n",
		".gitmodules":      "[submodule \"s\"]\n\tpath = s\n\turl = ext::sh -c touch% " + filepath.Join(markers, "submodule") + "\n",
		"SKILL.md":         skillMD("filt", "Filtered. Use it.") + "crlf\r\nsays $Id$\n",
		"references/a.txt": "plain\n",
	}
	// The fixture commits the bytes as they are.
	fx.commit("acme/filt", map[string]string{".git/info/attributes": gitrun.Attributes})
	fx.commit("acme/filt", files)
	res, err := Fetch(context.Background(), mustParse(t, "acme/filt"), fetchOpts(t, fx))
	if err != nil || len(res.Packages) != 1 {
		t.Fatalf("Fetch(.gitattributes filters) = %v", err)
	}
	got := readTree(t, res.Packages[0].Dir)
	for _, name := range []string{"SKILL.md", "references/a.txt"} {
		if got[name] != files[name] {
			t.Errorf("%s = %q, want the committed bytes %q", name, got[name], files[name])
		}
	}
	noMarker(t, markers)
}
