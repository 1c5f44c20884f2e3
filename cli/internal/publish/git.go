package publish

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"

	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/registry/gitrun"
	"github.com/agent-skills/agent-skills/resolve"
)

// GitTarget publishes to a git registry through a pull request (DESIGN §9):
// it clones the registry into WorkDir, creates the branch
// publish/<name>-<version> from Ref, makes FolderTarget's change on the
// work tree, commits it with the user's git identity and, with Push,
// pushes the branch to origin.
//
// git runs through gitrun, the runner the sources and git registries use:
// hooks, filter drivers named by .gitattributes (on checkout and on add),
// submodules and the file-system monitor are off, prompts are disabled,
// line endings are never converted, and every ref and remote follows
// --end-of-options, so nothing in the cloned repository runs.
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

// Published hands use a published version's payload from the work tree.
func (t GitTarget) Published(ctx context.Context, name string, v *registry.Version, use func(*format.Package) error) error {
	return t.folder().Published(ctx, name, v, use)
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
	if err := gitrun.CheckRef(branch); err != nil {
		return nil, &Error{Code: CodePublishGitFailed, Message: "cannot name the publication branch: the " + err.Error(), Err: err}
	}
	if _, err := t.git(ctx, "checkout", "--quiet", "-B", branch, "--"); err != nil {
		return nil, err
	}
	res, err := t.folder().Write(ctx, plan, pkgDir)
	if err != nil {
		return nil, err
	}
	res.Index = filepath.ToSlash(IndexFile)
	if res.Signature != "" {
		res.Signature = res.Index + registry.SignatureSuffix
	}
	if _, err := t.git(ctx, "add", "-A", "--"); err != nil {
		return nil, err
	}
	if _, err := t.git(ctx, "-c", "user.useConfigOnly=true", "commit", "--quiet", "--no-verify", "-m", "publish "+plan.Name+" "+plan.Version); err != nil {
		return nil, err
	}
	sha, err := t.git(ctx, "rev-parse", "--verify", "-q", "--end-of-options", "HEAD^{commit}")
	if err != nil {
		return nil, err
	}
	res.Branch, res.Commit = branch, sha
	if t.Push {
		if _, err := t.git(ctx, "push", "--quiet", "--no-verify", "--end-of-options", "origin", "refs/heads/"+branch+":refs/heads/"+branch); err != nil {
			return nil, err
		}
		res.Pushed = true
		res.Next = "open a pull request from " + branch + " in " + gitrun.Scrub(t.URL, nil)
	} else {
		res.Next = fmt.Sprintf("push %s from %s (or publish again with push enabled), then open a pull request from it", branch, t.WorkDir)
	}
	return res, nil
}

// folder is the FolderTarget over the work tree.
func (t GitTarget) folder() FolderTarget { return FolderTarget{Root: t.WorkDir} }

// clone replaces WorkDir with a fresh copy of URL at Ref: a new
// repository protected by gitrun.Runner.Init (so the tree's
// .gitattributes reaches no filter driver, now or when Write adds files),
// origin set to URL, a fetch of Ref (the remote HEAD when empty) and a
// detached checkout of it.
func (t GitTarget) clone(ctx context.Context) error {
	if t.WorkDir == "" || t.URL == "" {
		return &Error{Code: askerr.CodeUsage, Message: "a git publish target needs a URL and a work folder"}
	}
	ref := t.Ref
	if ref == "" {
		ref = "HEAD"
	} else if err := gitrun.CheckRef(ref); err != nil {
		return &Error{Code: registry.CodeRegistryConfigInvalid, Message: "cannot publish to " + gitrun.Scrub(t.URL, nil) + ": the " + err.Error(),
			Try: []string{"agent-skills registry add <name> <url> --kind git --ref <branch> with a plain branch name"}}
	}
	if ents, err := os.ReadDir(t.WorkDir); err == nil && len(ents) > 0 {
		if _, err := os.Stat(filepath.Join(t.WorkDir, ".git")); err != nil {
			return &Error{Code: askerr.CodeUsage, Message: t.WorkDir + " is not empty and not a git work tree; refusing to replace it"}
		}
	}
	if err := os.RemoveAll(t.WorkDir); err != nil {
		return err
	}
	if err := os.MkdirAll(t.WorkDir, 0o755); err != nil {
		return err
	}
	r, err := t.runner(t.WorkDir)
	if err != nil {
		return err
	}
	if err := r.Init(ctx); err != nil {
		return t.failed(err)
	}
	if _, err := r.Run(ctx, "remote", "add", "--end-of-options", "origin", t.URL); err != nil {
		return t.failed(err)
	}
	if _, err := r.Run(ctx, "fetch", "--quiet", "--no-tags", "--no-recurse-submodules", "--end-of-options", "origin", ref); err != nil {
		return t.failed(err)
	}
	commit, err := r.Resolve(ctx, "FETCH_HEAD")
	if err != nil {
		return t.failed(err)
	}
	if err := r.Checkout(ctx, commit); err != nil {
		return t.failed(err)
	}
	return nil
}

// identity checks that git can name the commit's author from the user's
// configuration (or GIT_AUTHOR_* in the environment).
func (t GitTarget) identity(ctx context.Context) error {
	r, err := t.runner(t.WorkDir)
	if err != nil {
		return err
	}
	return checkIdentity(ctx, r, t.environ())
}

// environ is the environment git starts from: the process's, then Env.
// gitrun scrubs it.
func (t GitTarget) environ() []string {
	return append(os.Environ(), t.Env...)
}

// git runs git in the work tree and returns its trimmed stdout.
func (t GitTarget) git(ctx context.Context, args ...string) (string, error) {
	r, err := t.runner(t.WorkDir)
	if err != nil {
		return "", err
	}
	out, err := r.Run(ctx, args...)
	if err != nil {
		if len(args) > 0 && args[0] == "config" {
			return "", err // a missing key; identity reports it
		}
		return "", t.failed(err)
	}
	return strings.TrimSpace(out), nil
}

// runner returns the hardened git runner for URL in dir. A URL git must
// not be given (a remote helper such as ext::, a leading '-') is
// ASK_REGISTRY_CONFIG_INVALID.
func (t GitTarget) runner(dir string) (*gitrun.Runner, error) {
	r, err := gitrun.New(gitrun.Options{Git: t.Git, Dir: dir, URL: t.URL, Env: t.environ()})
	var ue *gitrun.URLError
	switch {
	case errors.Is(err, gitrun.ErrNotInstalled):
		return nil, &Error{Code: CodePublishGitFailed, Message: "git is not installed or not on PATH", Err: err,
			Try: []string{"install git, then publish again"}}
	case errors.As(err, &ue):
		return nil, &Error{Code: registry.CodeRegistryConfigInvalid, Message: "cannot publish: " + ue.Error(),
			Try: []string{"agent-skills registry add <name> <https, ssh or file URL> --kind git"}}
	}
	return r, err
}

// failed turns a failed git command into ASK_PUBLISH_GIT_FAILED with
// git's (scrubbed) standard error as details.
func (t GitTarget) failed(err error) error {
	var ce *gitrun.CommandError
	if !errors.As(err, &ce) {
		return &Error{Code: CodePublishGitFailed, Message: "git failed", Err: err,
			Try: []string{"check the registry URL, your access to it and the branch " + fallback(t.Ref, "(default)")}}
	}
	msg := ce.Stderr
	if msg == "" {
		msg = ce.Err.Error()
	}
	return &Error{
		Code:    CodePublishGitFailed,
		Message: "git " + ce.Command + " failed",
		Detail:  strings.Split(msg, "\n"),
		Try:     []string{"check the registry URL, your access to it and the branch " + fallback(t.Ref, "(default)")},
	}
}

// fallback returns s, or def when s is empty.
func fallback(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
