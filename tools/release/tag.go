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

// releaseTag is one tag a release needs: its name and its message.
type releaseTag struct{ name, message string }

// releaseTags is every tag a release of v needs, in the order they are
// printed and pushed: a module tag <dir>/vX.Y.Z per module of the set, so
// that the go command finds each module at v (cli/vX.Y.Z is what `go
// install …/cli/cmd/agent-skills@vX.Y.Z` resolves), then the release tag
// vX.Y.Z, which names no Go module (the root has no go.mod) but is the
// release of the binaries: scripts/dist.sh --release and GoReleaser build
// from it, the GitHub release page and releases.json
// (scripts/dist-releases.sh) are named after it.
func releaseTags(r *repo, v string) []releaseTag {
	var out []releaseTag
	for _, m := range r.Released {
		out = append(out, releaseTag{tagName(m, v), m.Path + " " + v})
	}
	return append(out, releaseTag{v, "agent-skills " + v})
}

// tag creates every tag of releaseTags, annotated. It refuses a dirty
// tree, a tree not bumped to v and a tag that exists; with dryRun it only
// says what it would do.
//
// The tags do not point at HEAD but at a release commit on top of it whose
// released go.mod files have no replace directives (releaseGoMod): HEAD,
// and the branch, keep them for the workspace and GOWORK=off builds. The
// release commit is on no branch; the tags keep it.
//
// The tags are created together or not at all: the tag objects are
// written first, then one `git update-ref --stdin` transaction creates
// every ref, and it fails as a whole if any of them exists by then.
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
		return fmt.Errorf("the work tree has uncommitted changes; commit the bump first (git add -A: bump may have made go.sum files):\n%s", st)
	}
	tags := releaseTags(r, v)
	var exist []string
	for _, t := range tags {
		if _, err := git(ctx, top, "rev-parse", "-q", "--verify", "refs/tags/"+t.name); err == nil {
			exist = append(exist, t.name)
		}
	}
	if len(exist) > 0 {
		return fmt.Errorf("tag(s) already exist: %s; no tag was created: a released version is never moved, pick the next one", strings.Join(exist, ", "))
	}
	commit, changed, err := releaseCommit(ctx, r, top, v, dryRun)
	if err != nil {
		return err
	}
	short := commit[:min(12, len(commit))]
	at := short
	switch {
	case changed > 0 && dryRun:
		fmt.Fprintf(out, "would make a release commit on %s: %d go.mod file(s) without replace directives\n", short, changed)
		at = "the release commit"
	case changed > 0:
		fmt.Fprintf(out, "release commit %s: HEAD with %d go.mod file(s) without replace directives\n", short, changed)
	}
	if !dryRun {
		if err := createTags(ctx, top, commit, tags); err != nil {
			return err
		}
	}
	verb := "tagged"
	if dryRun {
		verb = "would tag"
	}
	for _, t := range tags {
		fmt.Fprintf(out, "%s %s at %s\n", verb, t.name, at)
	}
	if !dryRun {
		fmt.Fprintf(out, "push them with: git push origin %s\n", strings.Join(tagList(r, v), " "))
	}
	return nil
}

// createTags writes an annotated tag object for each of tags, pointing at
// commit (a full object name), and then creates all their refs in one
// transaction: either every tag exists afterwards or none was created.
// Tag objects left unreferenced by a failure are garbage git collects.
func createTags(ctx context.Context, top, commit string, tags []releaseTag) error {
	tagger, err := git(ctx, top, "var", "GIT_COMMITTER_IDENT")
	if err != nil {
		return err
	}
	var refs strings.Builder
	for _, t := range tags {
		obj := fmt.Sprintf("object %s\ntype commit\ntag %s\ntagger %s\n\n%s\n", commit, t.name, tagger, t.message)
		id, err := gitWith(ctx, top, nil, []byte(obj), "mktag")
		if err != nil {
			return fmt.Errorf("no tag was created: %w", err)
		}
		fmt.Fprintf(&refs, "create refs/tags/%s %s\n", t.name, id)
	}
	if _, err := gitWith(ctx, top, nil, []byte(refs.String()), "update-ref", "--stdin"); err != nil {
		return fmt.Errorf("no tag was created: %w", err)
	}
	return nil
}

// releaseCommit makes (unless dryRun) the commit the tags point at: HEAD
// with every released go.mod rewritten by releaseGoMod, built with git's
// plumbing in a temporary index, so the work tree and branch stay as they
// are. With nothing to rewrite it is HEAD itself. It returns the commit's
// full name (HEAD's, on a dry run) and how many go.mod files differ.
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
	if len(entries) == 0 || dryRun {
		return head, len(entries), nil
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
	return commit, len(entries), nil
}

// tagList is the names of releaseTags, in order.
func tagList(r *repo, v string) []string {
	var out []string
	for _, t := range releaseTags(r, v) {
		out = append(out, t.name)
	}
	return out
}
