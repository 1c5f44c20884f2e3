package skillset

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/registry"
)

func TestSourceFolderInstallAndRestore(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	src := filepath.Join(w.base, "src", "mine")
	writePackage(t, src, pkgSpec{name: "mine", version: "1.0.0", deps: map[string]string{"lib": "^1.0.0"}})
	out, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{src}})
	if err != nil {
		t.Fatalf("Install(%s) = %v", src, err)
	}
	// The folder's own dependencies resolve in the registries.
	want := []string{"installed mine 1.0.0 [codex]", "installed mine 1.0.0 [claude-code]", "installed lib 1.1.0 [codex]", "installed lib 1.1.0 [claude-code]"}
	if got := results(out); !slices.Equal(got, want) {
		t.Errorf("Install(folder).Results = %v, want %v", got, want)
	}
	e := w.lock().Skills["mine"]
	if e.Source != src || e.Registry != "" || e.Version != "1.0.0" || e.Integrity != digestOf(t, src) {
		t.Errorf("skills.lock mine = %+v, want source %s at 1.0.0 with the folder's digest", e, src)
	}

	// The lock records it: a frozen install passes.
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{src}, FrozenLockfile: true}); err != nil {
		t.Errorf("Install(folder, frozen) = %v, want success", err)
	}

	// A fresh clone restores it from the folder.
	for _, d := range []string{".claude", ".agents"} {
		os.RemoveAll(filepath.Join(w.proj, d))
	}
	out, err = w.open(false, nil).Restore(t.Context(), RestoreRequest{})
	if err != nil {
		t.Fatalf("Restore() = %v", err)
	}
	if got := results(out); !slices.Equal(got, want) {
		t.Errorf("Restore().Results = %v, want %v", got, want)
	}
	if got := w.installedVersion(false, "codex", "mine"); got != "1.0.0" {
		t.Errorf("restored mine = %q, want 1.0.0", got)
	}

	// The folder changes: a frozen install refuses it, a restore finds it
	// does not match the lock, and update takes it.
	writePackage(t, src, pkgSpec{name: "mine", version: "1.0.0", deps: map[string]string{"lib": "^1.0.0"}, body: "# mine 1.0.0\n\nChanged.\n"})
	_, err = w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{src}, FrozenLockfile: true})
	if codeOf(err) != CodeLockFrozen || !hasLine(askerr.DetailOf(err), "mine from "+src) || !hasLine(askerr.DetailOf(err), "is not what skills.lock records") {
		t.Errorf("Install(changed folder, frozen) = %v %v, want %s", err, askerr.DetailOf(err), CodeLockFrozen)
	}
	_, err = w.open(false, nil).Restore(t.Context(), RestoreRequest{})
	if codeOf(err) != registry.CodeIntegrityMismatch || !strings.Contains(err.Error(), "mine from "+src+" does not match skills.lock") {
		t.Errorf("Restore() of a changed folder = %v, want %s", err, registry.CodeIntegrityMismatch)
	}
	out, err = w.open(false, nil).Update(t.Context(), UpdateRequest{Names: []string{"mine"}})
	if err != nil || !slices.Equal(results(out), []string{"reinstalled mine 1.0.0 [codex]", "reinstalled mine 1.0.0 [claude-code]"}) {
		t.Errorf("Update(mine) of a changed folder = %v, %v; want mine reinstalled", results(out), err)
	}
	// The old bytes are gone from the folder, so what changed cannot be
	// shown; the user is told.
	if !hasLine(notices(out), "warning: cannot show what changed in mine") {
		t.Errorf("Update(mine).Notices = %v, want a warning", notices(out))
	}
	if got := w.lock().Skills["mine"].Integrity; got != digestOf(t, src) {
		t.Errorf("skills.lock mine after Update = %s, want the new digest %s", got, digestOf(t, src))
	}
	out, err = w.open(false, nil).Update(t.Context(), UpdateRequest{})
	if err != nil || len(out.Results) != 0 || !slices.Contains(notices(out), "info: everything is up to date") {
		t.Errorf("Update() after that = %v %v, %v; want up to date", results(out), notices(out), err)
	}
}

func TestSourceRefusals(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	one := filepath.Join(w.base, "a", "twin")
	two := filepath.Join(w.base, "b", "twin")
	writePackage(t, one, pkgSpec{name: "twin", version: "1.0.0"})
	writePackage(t, two, pkgSpec{name: "twin", version: "1.0.0", body: "# twin\n\nThe other one.\n"})
	tests := []struct {
		name string
		args []string
		code string
		want string
	}{
		{"a registry", []string{w.reg}, askerr.CodeUsage, "is a registry, not a skill source"},
		{"two skills of one name", []string{one, two}, askerr.CodeUsage, `two different sources provide a skill named "twin"`},
		{"no folder", []string{filepath.Join(w.base, "nowhere") + "/"}, "ASK_SOURCE_NOT_FOUND", ""},
	}
	for _, tt := range tests {
		_, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: tt.args})
		if codeOf(err) != tt.code || !strings.Contains(errText(err), tt.want) {
			t.Errorf("Install(%s) = %v (%s), want %s saying %q", tt.name, err, codeOf(err), tt.code, tt.want)
		}
	}
	// The same folder named twice is one skill.
	out, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{one, one}})
	if err != nil || len(out.Results) != 2 {
		t.Errorf("Install(the same folder twice) = %v, %v; want twin once per root", results(out), err)
	}
	if entries, _ := os.ReadDir(filepath.Join(w.env["AGENT_SKILLS_HOME"], "cache", "staging")); len(entries) != 0 {
		t.Errorf("source installs left staging folders: %v", entries)
	}
}

// gitRepo is a work tree with a bare repository under the fake GitHub.
type gitRepo struct {
	t          *testing.T
	work, bare string
}

// newGitRepo makes acme/skills, served as github through
// AGENT_SKILLS_GITHUB_URL.
func newGitRepo(t *testing.T, w *world) *gitRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	gh := filepath.Join(w.base, "gh")
	w.env["AGENT_SKILLS_GITHUB_URL"] = "file://" + gh
	g := &gitRepo{t: t, work: filepath.Join(w.base, "repo"), bare: filepath.Join(gh, "acme", "skills.git")}
	mkdir(t, g.work)
	mkdir(t, g.bare)
	g.git(g.work, "init", "-q")
	g.git(g.bare, "init", "-q", "--bare")
	return g
}

// git runs git in dir with a fixed identity, failing the test on error.
func (g *gitRepo) git(dir string, args ...string) string {
	g.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=Test", "-c", "user.email=test@example.com",
		"-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		g.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// commit writes the package p at skills/<name>, commits, tags the commit
// and pushes both.
func (g *gitRepo) commit(p pkgSpec, tag string) {
	g.t.Helper()
	dir := filepath.Join(g.work, "skills", p.name)
	os.RemoveAll(dir)
	writePackage(g.t, dir, p)
	g.git(g.work, "add", "-A")
	g.git(g.work, "commit", "-q", "-m", p.name+" "+p.version)
	g.git(g.work, "tag", tag)
	g.git(g.work, "push", "-q", g.bare, "HEAD:refs/heads/main", "refs/tags/"+tag)
}

func TestSourceUpdateToNewestTag(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	g := newGitRepo(t, w)
	g.commit(pkgSpec{name: "tagged", version: "1.0.0", files: map[string]string{"references/old.md": "old\n", "references/keep.md": "keep\n"}}, "v1.0.0")
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"acme/skills/skills/tagged#v1.0.0"}}); err != nil {
		t.Fatalf("Install(tagged#v1.0.0) = %v", err)
	}
	e := w.lock().Skills["tagged"]
	if e.Source != "github:acme/skills" || e.Ref != "v1.0.0" || e.Subpath != "skills/tagged" || len(e.Commit) != 40 {
		t.Errorf("skills.lock tagged = %+v, want github:acme/skills at v1.0.0, skills/tagged, a commit", e)
	}
	// Nothing newer yet.
	out, err := w.open(false, nil).Update(t.Context(), UpdateRequest{})
	if err != nil || len(out.Results) != 0 {
		t.Errorf("Update() with no new tag = %v, %v; want nothing", results(out), err)
	}
	// v1.1.0 changes a file, adds one and removes one; v2.0.0 is a new
	// major, which update takes only with --major.
	g.commit(pkgSpec{name: "tagged", version: "1.1.0", body: "# tagged 1.1.0\n\nImproved.\n", files: map[string]string{"references/new.md": "new\n", "references/keep.md": "keep\n"}}, "v1.1.0")
	g.commit(pkgSpec{name: "tagged", version: "2.0.0"}, "v2.0.0")
	out, err = w.open(false, nil).Update(t.Context(), UpdateRequest{Names: []string{"tagged"}})
	if err != nil {
		t.Fatalf("Update(tagged) = %v", err)
	}
	if got, want := results(out), []string{"upgraded tagged 1.1.0 [codex]", "upgraded tagged 1.1.0 [claude-code]"}; !slices.Equal(got, want) {
		t.Errorf("Update(tagged).Results = %v, want %v", got, want)
	}
	if len(out.Changes) != 1 {
		t.Fatalf("Update(tagged).Changes = %+v, want one", out.Changes)
	}
	c := out.Changes[0]
	if c.Name != "tagged" || c.From != "1.0.0" || c.To != "1.1.0" || c.FromCommit != e.Commit || c.Source != "github:acme/skills" ||
		!slices.Equal(c.Added, []string{"references/new.md"}) || !slices.Equal(c.Removed, []string{"references/old.md"}) ||
		!slices.Equal(c.Modified, []string{"SKILL.md", "skill.yaml"}) {
		t.Errorf("Update(tagged).Changes = %+v, want 1.0.0 → 1.1.0 adding new.md, removing old.md, modifying SKILL.md and skill.yaml", c)
	}
	if got := w.lock().Skills["tagged"]; got.Ref != "v1.1.0" || got.Version != "1.1.0" {
		t.Errorf("skills.lock tagged after Update = ref %q version %q, want v1.1.0", got.Ref, got.Version)
	}
	out, err = w.open(false, nil).Update(t.Context(), UpdateRequest{Names: []string{"tagged"}, Major: true})
	if err != nil || !slices.Equal(results(out), []string{"upgraded tagged 2.0.0 [codex]", "upgraded tagged 2.0.0 [claude-code]"}) {
		t.Errorf("Update(tagged, major) = %v, %v; want 2.0.0", results(out), err)
	}
	if got := w.lock().Skills["tagged"].Ref; got != "v2.0.0" {
		t.Errorf("skills.lock tagged ref after Update(major) = %q, want v2.0.0", got)
	}
}

// TestSourceDependencies: the registry skills a source package depends on
// are its dependencies, as for a registry package: the lock and the
// receipts say so, uninstall refuses to take them from under it and
// removes them with it, and a restore keeps them in the lock.
func TestSourceDependencies(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	src := filepath.Join(w.base, "src", "mine")
	writePackage(t, src, pkgSpec{name: "mine", version: "1.0.0", deps: map[string]string{"lib": "^1.0.0"}})
	s := w.open(false, nil)
	if _, err := s.Install(t.Context(), InstallRequest{Args: []string{src}}); err != nil {
		t.Fatalf("Install(%s) = %v", src, err)
	}
	if got := w.lock().Skills["mine"].Dependencies; len(got) != 1 || got["lib"] != "1.1.0" {
		t.Errorf("skills.lock mine dependencies = %v, want lib: 1.1.0", got)
	}
	for _, id := range bothAgents {
		if got := roleOf(w, s, "lib", id); got != "dependency" {
			t.Errorf("lib for %s has role %q, want dependency", id, got)
		}
	}
	_, err := w.open(false, nil).Uninstall(t.Context(), UninstallRequest{Names: []string{"lib"}})
	if codeOf(err) != CodeSkillRequired || !slices.Equal(askerr.DetailOf(err), []string{"mine@1.0.0 requires lib"}) {
		t.Errorf("Uninstall(lib) under mine = %v %v, want %s: mine@1.0.0 requires lib", err, askerr.DetailOf(err), CodeSkillRequired)
	}

	out, err := w.open(false, nil).Uninstall(t.Context(), UninstallRequest{Names: []string{"mine"}})
	if err != nil || !hasLine(results(out), "removed lib 1.1.0") {
		t.Errorf("Uninstall(mine) = %v, %v; want lib removed with it", results(out), err)
	}
	if l := w.lock(); l == nil || len(l.Skills) != 0 {
		t.Errorf("skills.lock after Uninstall(mine) = %q, want no skills", w.lockedVersions())
	}

	// Installed again, then restored on a fresh clone: the lock keeps
	// mine's dependency.
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{src}}); err != nil {
		t.Fatal(err)
	}
	lockBytes, _ := os.ReadFile(filepath.Join(w.proj, "skills.lock"))
	for _, d := range []string{".claude", ".agents"} {
		os.RemoveAll(filepath.Join(w.proj, d))
	}
	if _, err := w.open(false, nil).Restore(t.Context(), RestoreRequest{}); err != nil {
		t.Fatalf("Restore() = %v", err)
	}
	if after, _ := os.ReadFile(filepath.Join(w.proj, "skills.lock")); string(after) != string(lockBytes) {
		t.Errorf("Restore() rewrote skills.lock:\n%s\nwant\n%s", after, lockBytes)
	}
	// Updated from the changed folder, mine keeps its dependency.
	writePackage(t, src, pkgSpec{name: "mine", version: "1.0.0", deps: map[string]string{"lib": "^1.0.0"}, body: "# mine 1.0.0\n\nChanged.\n"})
	if _, err := w.open(false, nil).Update(t.Context(), UpdateRequest{Names: []string{"mine"}}); err != nil {
		t.Fatalf("Update(mine) = %v", err)
	}
	if got := w.lock().Skills["mine"].Dependencies; len(got) != 1 || got["lib"] != "1.1.0" {
		t.Errorf("skills.lock mine dependencies after Update(mine) = %v, want lib: 1.1.0", got)
	}
}
