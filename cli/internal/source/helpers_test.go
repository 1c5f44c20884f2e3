package source

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
)

// gitFixture is a set of bare repositories under base/<owner>/<repo>.git,
// served as the GitHub host through AGENT_SKILLS_GITHUB_URL=file://base.
type gitFixture struct {
	t    *testing.T
	base string // the fake GitHub
	work string // work trees, one per repository
	env  map[string]string
}

// newFixture makes an empty fake GitHub.
func newFixture(t *testing.T) *gitFixture {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	root := t.TempDir()
	fx := &gitFixture{t: t, base: filepath.Join(root, "gh"), work: filepath.Join(root, "work")}
	fx.env = map[string]string{"AGENT_SKILLS_GITHUB_URL": "file://" + fx.base, "HOME": root}
	return fx
}

// getenv reads the fixture's environment.
func (fx *gitFixture) getenv(k string) string { return fx.env[k] }

// git runs git in dir with a fixed identity and dates, failing the test on
// error, and returns its trimmed output.
func runGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=Test", "-c", "user.email=test@example.com",
		"-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE=2026-01-02T03:04:05Z", "GIT_COMMITTER_DATE=2026-01-02T03:04:05Z",
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// commit writes files (content "" deletes) into the work tree of
// owner/repo, commits them, pushes to the bare repository (forced) and
// returns the commit SHA.
func (fx *gitFixture) commit(repo string, files map[string]string) string {
	t := fx.t
	t.Helper()
	wt := filepath.Join(fx.work, repo)
	bare := filepath.Join(fx.base, repo+".git")
	if _, err := os.Stat(wt); err != nil {
		if err := os.MkdirAll(wt, 0o755); err != nil {
			t.Fatal(err)
		}
		runGit(t, wt, "init", "-q")
		if err := os.MkdirAll(filepath.Dir(bare), 0o755); err != nil {
			t.Fatal(err)
		}
		runGit(t, wt, "init", "-q", "--bare", bare)
	}
	writeFiles(t, wt, files)
	runGit(t, wt, "add", "-A")
	runGit(t, wt, "commit", "-q", "--allow-empty", "-m", "change")
	runGit(t, wt, "push", "-q", "--force", bare, "HEAD:refs/heads/main")
	return runGit(t, wt, "rev-parse", "HEAD")
}

// tag tags the work tree's HEAD of repo and pushes the tag.
func (fx *gitFixture) tag(repo, name string) {
	wt := filepath.Join(fx.work, repo)
	runGit(fx.t, wt, "tag", "-a", "-m", name, name)
	runGit(fx.t, wt, "push", "-q", filepath.Join(fx.base, repo+".git"), "refs/tags/"+name)
}

// writeFiles writes (or, for "", removes) files under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if content == "" {
			os.Remove(p)
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// skillMD returns a SKILL.md with name and description front matter.
func skillMD(name, desc string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\n---\n# " + name + "\n\nDo the thing.\n"
}

// codeOf returns the ASK_* code of err, or "".
func codeOf(err error) string {
	if e, ok := err.(*Error); ok {
		return e.Code
	}
	type coded interface{ ErrorCode() string }
	if c, ok := err.(coded); ok {
		return c.ErrorCode()
	}
	return ""
}

// readTree returns every file under dir, by slash path.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// shownErr is what a user reads of err: its message and detail lines.
func shownErr(err error) string {
	return strings.Join(append([]string{err.Error()}, askerr.DetailOf(err)...), "\n")
}
