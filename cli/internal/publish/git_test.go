package publish

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitEnv returns an environment with a private git configuration holding
// the given identity lines (none for an empty config), and removes any
// identity from the process environment for the test's duration.
func gitEnv(t *testing.T, identity string) []string {
	t.Helper()
	for _, k := range []string{"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "EMAIL", "GIT_DIR", "GIT_WORK_TREE"} {
		if v, ok := os.LookupEnv(k); ok {
			os.Unsetenv(k)
			t.Cleanup(func() { os.Setenv(k, v) })
		}
	}
	home := t.TempDir()
	cfg := filepath.Join(home, "gitconfig")
	writeFile(t, cfg, "[init]\n\tdefaultBranch = main\n"+identity)
	return []string{
		"HOME=" + home, "XDG_CONFIG_HOME=" + home,
		"GIT_CONFIG_GLOBAL=" + cfg, "GIT_CONFIG_NOSYSTEM=1",
	}
}

const testIdentity = "[user]\n\tname = Test Publisher\n\temail = publisher@example.com\n"

// runGit runs git in dir with env and returns its trimmed output.
func runGit(t *testing.T, env []string, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// seedRemote makes a bare repository whose main branch holds a registry
// with the skill alpha 1.0.0, and returns its file:// URL and path.
func seedRemote(t *testing.T, env []string) (string, string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	base := t.TempDir()
	bare := filepath.Join(base, "remote.git")
	runGit(t, env, base, "init", "--quiet", "--bare", bare)
	seed := filepath.Join(base, "seed")
	publishTo(t, seed, writePkg(t, t.TempDir(), pkgSpec{name: "alpha", version: "1.0.0"}))
	runGit(t, env, seed, "init", "--quiet", "-b", "main")
	runGit(t, env, seed, "add", "-A")
	runGit(t, env, seed, "commit", "--quiet", "-m", "seed")
	runGit(t, env, seed, "push", "--quiet", bare, "main")
	return "file://" + bare, bare
}

func TestGitTargetPushesBranch(t *testing.T) {
	env := gitEnv(t, testIdentity)
	url, bare := seedRemote(t, env)
	// The user's own hooks must not run either: a failing pre-commit and
	// pre-push hook would stop the publication and leave a marker.
	hooks := t.TempDir()
	marker := filepath.Join(hooks, "ran")
	for _, h := range []string{"pre-commit", "pre-push", "post-checkout"} {
		writeFile(t, filepath.Join(hooks, h), "#!/bin/sh\ntouch "+marker+"\nexit 1\n")
		if err := os.Chmod(filepath.Join(hooks, h), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	targetEnv := gitEnv(t, testIdentity+"[core]\n\thooksPath = "+hooks+"\n")
	target := GitTarget{URL: url, Ref: "main", WorkDir: filepath.Join(t.TempDir(), "cache", "publish"), Push: true, Env: targetEnv}
	pkgDir := writePkg(t, t.TempDir(), pkgSpec{name: "beta", version: "0.1.0", extra: "dependencies:\n  - name: alpha\n    version: ^1.0.0\n"})
	ctx := context.Background()
	plan, err := Prepare(ctx, pkgDir, target, Options{})
	if err != nil {
		t.Fatalf("Prepare(beta) = %v", err)
	}
	res, err := target.Write(ctx, plan, pkgDir)
	if err != nil {
		t.Fatalf("Write(beta) = %v", err)
	}
	if res.Branch != "publish/beta-0.1.0" || !res.Pushed || len(res.Commit) != 40 || !strings.Contains(res.Next, "pull request") {
		t.Errorf("Write(beta) = %+v, want branch publish/beta-0.1.0 pushed with a commit and a next step", res)
	}
	if got := runGit(t, env, bare, "rev-parse", "refs/heads/publish/beta-0.1.0"); got != res.Commit {
		t.Errorf("remote branch = %s, want %s", got, res.Commit)
	}
	index := runGit(t, env, bare, "show", "publish/beta-0.1.0:registry/skills.yaml")
	for _, s := range []string{"name: alpha", "name: beta", "path: skills/beta", plan.Integrity} {
		if !strings.Contains(index, s) {
			t.Errorf("pushed index =\n%s\nwant it to contain %q", index, s)
		}
	}
	if got := runGit(t, env, bare, "show", "publish/beta-0.1.0:skills/beta/skill.yaml"); !strings.Contains(got, "name: beta") {
		t.Errorf("pushed skills/beta/skill.yaml = %q, want the package", got)
	}
	if got := runGit(t, env, bare, "log", "-1", "--format=%an <%ae> %s", "publish/beta-0.1.0"); got != "Test Publisher <publisher@example.com> publish beta 0.1.0" {
		t.Errorf("commit = %q, want the configured author and message", got)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("a git hook ran during publish; want hooks disabled")
	}
	if got := runGit(t, env, bare, "rev-parse", "main"); got == res.Commit {
		t.Errorf("main moved to the publish commit; want it untouched")
	}
}

func TestGitTargetWithoutIdentity(t *testing.T) {
	env := gitEnv(t, testIdentity)
	url, bare := seedRemote(t, env)
	target := GitTarget{URL: url, WorkDir: filepath.Join(t.TempDir(), "work"), Push: true, Env: gitEnv(t, "")}
	pkgDir := writePkg(t, t.TempDir(), pkgSpec{name: "beta", version: "0.1.0"})
	ctx := context.Background()
	plan, err := Prepare(ctx, pkgDir, target, Options{})
	if err != nil {
		t.Fatalf("Prepare(beta) = %v", err)
	}
	_, err = target.Write(ctx, plan, pkgDir)
	if got := codeOf(err); got != "ASK_PUBLISH_GIT_IDENTITY" {
		t.Fatalf("Write(no identity) = %v, want ASK_PUBLISH_GIT_IDENTITY", err)
	}
	if !strings.Contains(strings.Join(codeHints(err), "\n"), "user.email") {
		t.Errorf("Write(no identity) hint = %v, want the git config commands", codeHints(err))
	}
	if out := runGit(t, env, bare, "branch", "--list", "publish/*"); out != "" {
		t.Errorf("remote has branches %q, want none", out)
	}
}

func TestGitTargetBadURL(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	target := GitTarget{URL: "file://" + filepath.Join(t.TempDir(), "missing.git"), WorkDir: filepath.Join(t.TempDir(), "work"), Env: gitEnv(t, testIdentity)}
	_, err := target.Index(context.Background())
	if got := codeOf(err); got != "ASK_PUBLISH_GIT_FAILED" {
		t.Fatalf("Index(missing repo) = %v, want ASK_PUBLISH_GIT_FAILED", err)
	}
}

// B11: the registry's .gitattributes names filter drivers the user
// configured (as git-lfs does); publishing checks the registry out and
// adds the package without running any of them, and pushes the package's
// bytes as they are, whatever the user's core.autocrlf.
func TestGitTargetRunsNoAttributeDriver(t *testing.T) {
	env := gitEnv(t, testIdentity)
	url, bare := seedRemote(t, env)
	seed := filepath.Join(filepath.Dir(bare), "seed")
	writeFile(t, filepath.Join(seed, ".gitattributes"), "* filter=evil\n*.md text eol=crlf ident\n")
	runGit(t, env, seed, "add", "-A")
	runGit(t, env, seed, "commit", "--quiet", "-m", "attributes")
	runGit(t, env, seed, "push", "--quiet", bare, "main")
	markers := t.TempDir()
	filters := "[filter \"evil\"]\n\tsmudge = sh -c 'touch " + filepath.Join(markers, "smudge") + " && cat'\n" +
		"\tclean = sh -c 'touch " + filepath.Join(markers, "clean") + " && cat'\n[core]\n\tautocrlf = true\n"
	target := GitTarget{URL: url, Ref: "main", WorkDir: filepath.Join(t.TempDir(), "work"), Push: true, Env: gitEnv(t, testIdentity+filters)}
	pkgDir := writePkg(t, t.TempDir(), pkgSpec{name: "beta", version: "0.1.0"})
	ctx := context.Background()
	plan, err := Prepare(ctx, pkgDir, target, Options{})
	if err != nil {
		t.Fatalf("Prepare(beta) = %v", err)
	}
	if _, err := target.Write(ctx, plan, pkgDir); err != nil {
		t.Fatalf("Write(beta) = %v", err)
	}
	want, _ := os.ReadFile(filepath.Join(pkgDir, "SKILL.md"))
	if got := runGit(t, env, bare, "show", "publish/beta-0.1.0:skills/beta/SKILL.md"); got != strings.TrimSpace(string(want)) {
		t.Errorf("pushed SKILL.md = %q, want the package's bytes %q", got, want)
	}
	if ents, _ := os.ReadDir(markers); len(ents) > 0 {
		t.Errorf("filter drivers ran during publish: %v", ents)
	}
}

// B01: a registry ref or URL that git could read as an option or as a
// command is refused before git runs, even when the user's configuration
// would let git use ext::.
func TestGitTargetRefusesUnsafeRemote(t *testing.T) {
	markers := t.TempDir()
	touch := "touch " + filepath.Join(markers, "ran")
	env := gitEnv(t, testIdentity+"[protocol \"ext\"]\n\tallow = always\n")
	url, _ := seedRemote(t, env)
	for _, tt := range []struct{ url, ref string }{
		{url, "--upload-pack=" + touch + ";git-upload-pack"},
		{url, "main;" + touch},
		{"ext::sh -c " + strings.ReplaceAll(touch, " ", "% "), "main"},
		{"-u" + touch, "main"},
	} {
		target := GitTarget{URL: tt.url, Ref: tt.ref, WorkDir: filepath.Join(t.TempDir(), "work"), Env: env}
		if _, err := target.Index(context.Background()); codeOf(err) != "ASK_REGISTRY_CONFIG_INVALID" {
			t.Errorf("Index(%q#%q) = %v, want ASK_REGISTRY_CONFIG_INVALID", tt.url, tt.ref, err)
		}
	}
	if ents, _ := os.ReadDir(markers); len(ents) > 0 {
		t.Errorf("a command ran: %v", ents)
	}
}
