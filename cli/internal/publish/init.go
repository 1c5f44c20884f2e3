package publish

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/atomicfile"
	"github.com/agent-skills/agent-skills/cli/internal/config"
	"github.com/agent-skills/agent-skills/registry/gitrun"
)

// InitOptions say which registry Init creates.
type InitOptions struct {
	// Dir is the registry's root folder: a new one, or an existing one
	// without registry/skills.yaml (with Git: a new or empty one).
	Dir string
	// Name is the registry's name, written into its index.
	Name string
	// Git makes the folder a git repository with a first commit.
	Git bool
	// GitPath is the git executable; empty means "git" on PATH.
	GitPath string
	// Env holds extra environment entries for git, after the process's.
	Env []string
}

// InitResult says what Init created.
type InitResult struct {
	// Path is the registry's root folder, absolute.
	Path string `json:"path"`
	// Name is the registry's name.
	Name string `json:"name"`
	// Index is the index file, relative to Path.
	Index string `json:"index"`
	// Branch and Commit are the git repository's branch and its first
	// commit (Git only).
	Branch string `json:"branch,omitempty"`
	Commit string `json:"commit,omitempty"`
}

// gitAttributes is the .gitattributes of a registry Init makes a git
// repository: git keeps every file's bytes as they are (no line-ending
// conversion), so a payload committed by hand still digests to the
// integrity its index records.
const gitAttributes = "# Skill payloads are verified byte for byte: git must never convert line endings.\n* -text\n"

// indexText is the index of a new registry.
func indexText(name string) string {
	return fmt.Sprintf(`# The %s registry of agent skills. Add a skill with
#   agent-skills publish <skill folder> --registry <this folder> --write
schemaVersion: 1
name: %s
skills: []
`, name, name)
}

// Init creates an empty registry: registry/skills.yaml with its
// schemaVersion and name and no skills. With Git the folder becomes a git
// repository (branch main) holding that index and a .gitattributes in one
// commit, made with the user's git identity through gitrun, in a staging
// folder beside Dir renamed into place at the end: a failure (git
// missing, no identity) leaves nothing behind. A folder that already has
// an index is ASK_TARGET_EXISTS.
//
// The repository is the user's own, so it is made with `git init` as the
// user would (no templates) but without gitrun's protective
// info/attributes, which is for repositories other people wrote.
func Init(ctx context.Context, o InitOptions) (*InitResult, error) {
	if why := config.CheckRegistryName(o.Name, config.KindLocal); why != "" {
		return nil, &Error{Code: askerr.CodeUsage, Message: fmt.Sprintf("%q cannot name a registry: %s", o.Name, why),
			Try: []string{"--name <lowercase letters, digits and hyphens>"}}
	}
	abs, err := filepath.Abs(o.Dir)
	if err != nil {
		return nil, askerr.Usage("cannot resolve %s", o.Dir)
	}
	empty, err := checkInitDir(abs, o.Git)
	if err != nil {
		return nil, err
	}
	res := &InitResult{Path: abs, Name: o.Name, Index: IndexFile}
	index := atomicfile.File{Path: IndexFile, Data: []byte(indexText(o.Name)), Mode: 0o644}
	if !o.Git {
		if err := writeIndex(abs, index); err != nil {
			return nil, askerr.IO("cannot write "+filepath.Join(abs, filepath.FromSlash(IndexFile)), err)
		}
		return res, nil
	}
	parent := filepath.Dir(abs)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, askerr.IO("cannot create "+parent, err)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(abs)+".init-")
	if err != nil {
		return nil, askerr.IO("cannot create a staging folder in "+parent, err)
	}
	done := false
	// MkdirTemp makes a private folder; the registry is an ordinary one.
	if err := os.Chmod(tmp, 0o755); err != nil {
		os.RemoveAll(tmp)
		return nil, askerr.IO("cannot create a staging folder in "+parent, err)
	}
	defer func() {
		if !done {
			os.RemoveAll(tmp)
		}
	}()
	for _, f := range []atomicfile.File{index, {Path: ".gitattributes", Data: []byte(gitAttributes), Mode: 0o644}} {
		p := filepath.Join(tmp, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, askerr.IO("cannot write the registry files", err)
		}
		if err := os.WriteFile(p, f.Data, f.Mode); err != nil {
			return nil, askerr.IO("cannot write the registry files", err)
		}
	}
	if res.Branch, res.Commit, err = firstCommit(ctx, tmp, o); err != nil {
		return nil, err
	}
	if empty {
		if err := os.Remove(abs); err != nil {
			return nil, askerr.IO("cannot replace the empty folder "+abs, err)
		}
	}
	if err := os.Rename(tmp, abs); err != nil {
		return nil, askerr.IO("cannot move the new registry to "+abs, err)
	}
	done = true
	return res, nil
}

// writeIndex writes the index of a registry without git: the whole folder
// at once when it is new, else the index file alone, atomically.
func writeIndex(abs string, index atomicfile.File) error {
	if _, err := os.Stat(abs); errors.Is(err, fs.ErrNotExist) {
		return atomicfile.WriteTree(abs, []atomicfile.File{index})
	}
	file := filepath.Join(abs, filepath.FromSlash(index.Path))
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFile(file, index.Data, index.Mode)
}

// checkInitDir refuses a folder Init must not write into and reports
// whether it exists empty.
func checkInitDir(abs string, git bool) (empty bool, err error) {
	fi, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, askerr.IO("cannot read "+abs, err)
	}
	if !fi.IsDir() {
		return false, &Error{Code: CodeTargetExists, Message: abs + " exists and is not a folder",
			Try: []string{"agent-skills registry init <a new folder>"}}
	}
	if _, err := os.Stat(filepath.Join(abs, filepath.FromSlash(IndexFile))); err == nil {
		return false, &Error{Code: CodeTargetExists, Message: abs + " is already a registry: it has " + IndexFile,
			Detail: []string{"Nothing was changed."},
			Try:    []string{"agent-skills publish <skill folder> --registry " + abs + " --write   (to add a skill to it)"}}
	}
	ents, err := os.ReadDir(abs)
	if err != nil {
		return false, askerr.IO("cannot read "+abs, err)
	}
	if git && len(ents) > 0 {
		return false, &Error{Code: CodeTargetExists, Message: abs + " is not empty; --git makes a new repository and needs a new or empty folder",
			Detail: []string{"Nothing was changed."},
			Try:    []string{"agent-skills registry init " + abs + "   (without --git: adds the index only; commit it yourself)"}}
	}
	return len(ents) == 0, nil
}

// firstCommit makes dir a git repository and commits everything in it,
// returning the branch and the commit id.
func firstCommit(ctx context.Context, dir string, o InitOptions) (branch, commit string, err error) {
	env := append(os.Environ(), o.Env...)
	r, err := gitrun.New(gitrun.Options{Git: o.GitPath, Dir: dir, Env: env})
	if errors.Is(err, gitrun.ErrNotInstalled) {
		return "", "", &Error{Code: CodePublishGitFailed, Message: "git is not installed or not on PATH", Err: err,
			Detail: []string{"Nothing was created."},
			Try:    []string{"install git, then run the command again", "agent-skills registry init " + o.Dir + "   (without --git)"}}
	}
	if err != nil {
		return "", "", err
	}
	run := func(args ...string) (string, error) {
		out, err := r.Run(ctx, args...)
		if err != nil {
			return "", initFailed(err)
		}
		return strings.TrimSpace(out), nil
	}
	if _, err := run("init", "-q", "--template="); err != nil {
		return "", "", err
	}
	if err := checkIdentity(ctx, r, env); err != nil {
		return "", "", err
	}
	if _, err := run("add", "-A", "--"); err != nil {
		return "", "", err
	}
	if _, err := run("-c", "user.useConfigOnly=true", "commit", "--quiet", "--no-verify", "-m", "Start the "+o.Name+" registry"); err != nil {
		return "", "", err
	}
	if commit, err = r.Resolve(ctx, "HEAD"); err != nil {
		return "", "", initFailed(err)
	}
	if branch, err = run("symbolic-ref", "--short", "-q", "HEAD"); err != nil {
		return "", "", err
	}
	return branch, commit, nil
}

// initFailed turns a failed git command of Init into
// ASK_PUBLISH_GIT_FAILED.
func initFailed(err error) error {
	e := GitTarget{}.failed(err).(*Error)
	e.Detail = append(e.Detail, "Nothing was created.")
	e.Try = []string{"agent-skills registry init <dir>   (without --git), then git init and commit it yourself"}
	return e
}

// checkIdentity checks that git can name a commit's author from the
// user's configuration (or GIT_AUTHOR_* in env):
// ASK_PUBLISH_GIT_IDENTITY otherwise.
func checkIdentity(ctx context.Context, r *gitrun.Runner, env []string) error {
	envValue := func(key string) string {
		v := ""
		for _, kv := range env {
			if k, val, ok := strings.Cut(kv, "="); ok && k == key {
				v = val
			}
		}
		return v
	}
	var missing []string
	for _, k := range []string{"user.name", "user.email"} {
		v, _ := r.Run(ctx, "config", "--get", k)
		if strings.TrimSpace(v) == "" && envValue(map[string]string{"user.name": "GIT_AUTHOR_NAME", "user.email": "GIT_AUTHOR_EMAIL"}[k]) == "" {
			missing = append(missing, k)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return &Error{
		Code:    CodePublishGitIdentity,
		Message: "git does not know who you are: " + strings.Join(missing, " and ") + " not set",
		Try: []string{
			`git config --global user.name "Your Name"`,
			`git config --global user.email you@example.com`,
		},
	}
}
