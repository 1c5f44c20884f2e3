package publish

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/resolve"
)

// GitTarget publishes to a git registry through a pull request (DESIGN §9):
// it clones the registry into WorkDir, creates the branch
// publish/<name>-<version> from Ref, makes FolderTarget's change on the
// work tree, commits it with the user's git identity and, with Push,
// pushes the branch to origin.
//
// git runs with GIT_TERMINAL_PROMPT=0 and with hooks disabled
// (core.hooksPath=/dev/null), so nothing in the cloned repository runs.
type GitTarget struct {
	// URL is anything git clone accepts: https, ssh, file://.
	URL string
	// Ref is the branch or tag the change starts from; empty means the
	// remote's default branch.
	Ref string
	// WorkDir is the folder the registry is cloned into (the CLI passes a
	// folder under its cache). It is replaced on every Index call; a
	// non-empty folder that is not a git work tree is refused.
	WorkDir string
	// Push pushes the branch to origin after committing.
	Push bool
	// Git is the git executable; empty means "git" on PATH.
	Git string
	// Env holds extra environment entries for git, after the process's.
	Env []string
}

// Index clones the registry into WorkDir at Ref and reads its index.
func (t GitTarget) Index(ctx context.Context) (*registry.Index, error) {
	if err := t.clone(ctx); err != nil {
		return nil, err
	}
	return t.folder().Index(ctx)
}

// Locate returns the folder of the package inside the registry, as
// FolderTarget does for the work tree.
func (t GitTarget) Locate(idx *registry.Index, name, pkgDir string) (string, error) {
	return t.folder().Locate(idx, name, pkgDir)
}

// Requirements reads a published version's edges from the work tree.
func (t GitTarget) Requirements(ctx context.Context, name string, v *registry.Version) (resolve.Requirements, error) {
	return t.folder().Requirements(ctx, name, v)
}

// Write commits the publication on branch publish/<name>-<version> of the
// clone Index made (cloning first when there is none) and, with Push,
// pushes it. A missing user.name or user.email is ASK_PUBLISH_GIT_IDENTITY
// before anything changes.
func (t GitTarget) Write(ctx context.Context, plan *Plan, pkgDir string) (*WriteResult, error) {
	if _, err := os.Stat(filepath.Join(t.WorkDir, ".git")); err != nil {
		if err := t.clone(ctx); err != nil {
			return nil, err
		}
	}
	if err := t.identity(ctx); err != nil {
		return nil, err
	}
	branch := "publish/" + plan.Name + "-" + plan.Version
	if _, err := t.git(ctx, "checkout", "--quiet", "-B", branch); err != nil {
		return nil, err
	}
	res, err := t.folder().Write(ctx, plan, pkgDir)
	if err != nil {
		return nil, err
	}
	res.Index = filepath.ToSlash(IndexFile)
	if _, err := t.git(ctx, "add", "-A"); err != nil {
		return nil, err
	}
	if _, err := t.git(ctx, "-c", "user.useConfigOnly=true", "commit", "--quiet", "--no-verify", "-m", "publish "+plan.Name+" "+plan.Version); err != nil {
		return nil, err
	}
	sha, err := t.git(ctx, "rev-parse", "HEAD")
	if err != nil {
		return nil, err
	}
	res.Branch, res.Commit = branch, sha
	if t.Push {
		if _, err := t.git(ctx, "push", "--quiet", "--no-verify", "origin", "refs/heads/"+branch+":refs/heads/"+branch); err != nil {
			return nil, err
		}
		res.Pushed = true
		res.Next = "open a pull request from " + branch + " in " + t.URL
	} else {
		res.Next = fmt.Sprintf("push %s from %s (or publish again with push enabled), then open a pull request from it", branch, t.WorkDir)
	}
	return res, nil
}

// folder is the FolderTarget over the work tree.
func (t GitTarget) folder() FolderTarget { return FolderTarget{Root: t.WorkDir} }

// clone replaces WorkDir with a fresh clone of URL at Ref.
func (t GitTarget) clone(ctx context.Context) error {
	if t.WorkDir == "" || t.URL == "" {
		return &Error{Code: "ASK_USAGE", Message: "a git publish target needs a URL and a work folder"}
	}
	if ents, err := os.ReadDir(t.WorkDir); err == nil && len(ents) > 0 {
		if _, err := os.Stat(filepath.Join(t.WorkDir, ".git")); err != nil {
			return &Error{Code: "ASK_USAGE", Message: t.WorkDir + " is not empty and not a git work tree; refusing to replace it"}
		}
	}
	if err := os.RemoveAll(t.WorkDir); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(t.WorkDir), 0o755); err != nil {
		return err
	}
	args := []string{"clone", "--quiet", "--no-tags"}
	if t.Ref != "" {
		args = append(args, "--branch", t.Ref, "--single-branch")
	}
	args = append(args, "--", t.URL, t.WorkDir)
	if _, err := t.run(ctx, "", args...); err != nil {
		return err
	}
	return nil
}

// identity checks that git can name the commit's author from the user's
// configuration (or GIT_AUTHOR_* in the environment).
func (t GitTarget) identity(ctx context.Context) error {
	var missing []string
	for _, k := range []string{"user.name", "user.email"} {
		v, _ := t.git(ctx, "config", "--get", k)
		if v == "" && t.envValue(map[string]string{"user.name": "GIT_AUTHOR_NAME", "user.email": "GIT_AUTHOR_EMAIL"}[k]) == "" {
			missing = append(missing, k)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return &Error{
		Code:    "ASK_PUBLISH_GIT_IDENTITY",
		Message: "git does not know who you are: " + strings.Join(missing, " and ") + " not set",
		Try: []string{
			`git config --global user.name "Your Name"`,
			`git config --global user.email you@example.com`,
		},
	}
}

// envValue returns the last value of key in the environment git sees.
func (t GitTarget) envValue(key string) string {
	v := ""
	for _, kv := range t.environ() {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}

// environ is the environment git runs with.
func (t GitTarget) environ() []string {
	env := append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
	return append(env, t.Env...)
}

// git runs git in the work tree.
func (t GitTarget) git(ctx context.Context, args ...string) (string, error) {
	return t.run(ctx, t.WorkDir, args...)
}

// run runs git with hooks disabled and returns its trimmed stdout.
func (t GitTarget) run(ctx context.Context, dir string, args ...string) (string, error) {
	bin := t.Git
	if bin == "" {
		bin = "git"
	}
	full := append([]string{"-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false"}, args...)
	cmd := exec.CommandContext(ctx, bin, full...)
	cmd.Dir = dir
	cmd.Env = t.environ()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return "", &Error{Code: "ASK_PUBLISH_GIT_FAILED", Message: "git is not installed or not on PATH", Err: err,
				Try: []string{"install git, then publish again"}}
		}
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		if len(args) > 0 && args[0] == "config" {
			return "", err
		}
		return "", &Error{
			Code:    "ASK_PUBLISH_GIT_FAILED",
			Message: "git " + args[0] + " failed",
			Details: strings.Split(msg, "\n"),
			Try:     []string{"check the registry URL, your access to it and the branch " + fallback(t.Ref, "(default)")},
		}
	}
	return strings.TrimSpace(stdout.String()), nil
}

// fallback returns s, or def when s is empty.
func fallback(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
