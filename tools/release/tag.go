package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// git runs git in dir and returns its trimmed standard output.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	return gitWith(ctx, dir, nil, nil, args...)
}

// gitWith runs git with extra environment variables and standard input.
func gitWith(ctx context.Context, dir string, env []string, stdin []byte, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(stdout.String()), nil
}

// tagName is a module's tag: its directory, a slash, the version.
func tagName(m mod, v string) string { return m.Dir + "/" + v }

// tag creates the annotated tag of every module of the set. It refuses a
// dirty tree, a tree not bumped to v and a tag that exists; with dryRun it
// only says what it would do.
//
// The tags do not point at HEAD but at a release commit on top of it whose
// released go.mod files have no replace directives (releaseGoMod): HEAD,
// and the branch, keep them for the workspace and GOWORK=off builds. The
// release commit is on no branch; the tags keep it.
func tag(ctx context.Context, r *repo, v string, dryRun bool, out io.Writer) error {
	if err := checkBumped(r, v); err != nil {
		return err
	}
	top, err := git(ctx, r.Root, "rev-parse", "--show-toplevel")
	if err != nil {
		return err
	}
	if st, err := git(ctx, top, "status", "--porcelain"); err != nil {
		return err
	} else if st != "" {
		return fmt.Errorf("the work tree has uncommitted changes; commit the bump first:\n%s", st)
	}
	var exist []string
	for _, m := range r.Released {
		t := tagName(m, v)
		if _, err := git(ctx, top, "rev-parse", "-q", "--verify", "refs/tags/"+t); err == nil {
			exist = append(exist, t)
		}
	}
	if len(exist) > 0 {
		return fmt.Errorf("tag(s) already exist: %s; a released version is never moved, pick the next one", strings.Join(exist, ", "))
	}
	commit, changed, err := releaseCommit(ctx, r, top, v, dryRun)
	if err != nil {
		return err
	}
	at := commit
	switch {
	case changed > 0 && dryRun:
		fmt.Fprintf(out, "would make a release commit on %s: %d go.mod file(s) without replace directives\n", commit, changed)
		at = "the release commit"
	case changed > 0:
		fmt.Fprintf(out, "release commit %s: HEAD with %d go.mod file(s) without replace directives\n", commit, changed)
	}
	verb := "tagged"
	if dryRun {
		verb = "would tag"
	}
	for _, m := range r.Released {
		t := tagName(m, v)
		if !dryRun {
			if _, err := git(ctx, top, "tag", "-a", "-m", m.Path+" "+v, t, commit); err != nil {
				return err
			}
		}
		fmt.Fprintf(out, "%s %s at %s\n", verb, t, at)
	}
	if !dryRun {
		fmt.Fprintf(out, "push them with: git push origin %s\n", strings.Join(tagList(r, v), " "))
	}
	return nil
}

// releaseCommit makes (unless dryRun) the commit the tags point at: HEAD
// with every released go.mod rewritten by releaseGoMod, built with git's
// plumbing in a temporary index, so the work tree and branch stay as they
// are. With nothing to rewrite it is HEAD itself. It returns the commit
// (HEAD's, on a dry run) and how many go.mod files differ.
func releaseCommit(ctx context.Context, r *repo, top, v string, dryRun bool) (string, int, error) {
	head, err := git(ctx, top, "rev-parse", "HEAD")
	if err != nil {
		return "", 0, err
	}
	rel, err := filepath.Rel(top, r.Root)
	if err != nil {
		return "", 0, err
	}
	type entry struct{ path, blob string }
	var entries []entry
	for _, m := range r.Released {
		path := filepath.ToSlash(filepath.Join(rel, filepath.FromSlash(m.Dir), "go.mod"))
		old, err := readBounded(filepath.Join(top, filepath.FromSlash(path)), maxGoMod)
		if err != nil {
			return "", 0, err
		}
		data, err := releaseGoMod(r, m, old)
		if err != nil {
			return "", 0, err
		}
		if bytes.Equal(data, old) {
			continue
		}
		blob := ""
		if !dryRun {
			if blob, err = gitWith(ctx, top, nil, data, "hash-object", "-w", "--stdin"); err != nil {
				return "", 0, err
			}
		}
		entries = append(entries, entry{path, blob})
	}
	short := head[:12]
	if len(entries) == 0 || dryRun {
		return short, len(entries), nil
	}
	idx, err := os.CreateTemp("", "release-index-*")
	if err != nil {
		return "", 0, err
	}
	idx.Close()
	defer os.Remove(idx.Name())
	env := []string{"GIT_INDEX_FILE=" + idx.Name()}
	if _, err := gitWith(ctx, top, env, nil, "read-tree", head); err != nil {
		return "", 0, err
	}
	for _, e := range entries {
		if _, err := gitWith(ctx, top, env, nil, "update-index", "--cacheinfo", "100644,"+e.blob+","+e.path); err != nil {
			return "", 0, err
		}
	}
	tree, err := gitWith(ctx, top, env, nil, "write-tree")
	if err != nil {
		return "", 0, err
	}
	msg := "release " + v + ": go.mod files without replace directives\n\n" +
		"go install pkg@" + v + " refuses a module with replace directives, so the\n" +
		"tags point here; the branch keeps them for local builds.\n"
	commit, err := gitWith(ctx, top, nil, []byte(msg), "commit-tree", tree, "-p", head)
	if err != nil {
		return "", 0, err
	}
	return commit[:12], len(entries), nil
}

func tagList(r *repo, v string) []string {
	var out []string
	for _, m := range r.Released {
		out = append(out, tagName(m, v))
	}
	return out
}
