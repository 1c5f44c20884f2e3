package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
)

// git runs git in dir and returns its trimmed standard output.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(stdout.String()), nil
}

// tagName is a module's tag: its directory, a slash, the version.
func tagName(m mod, v string) string { return m.Dir + "/" + v }

// tag creates the annotated tag of every module of the set at HEAD. It
// refuses a dirty tree, a tree not bumped to v and a tag that exists; with
// dryRun it only says what it would do.
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
	head, err := git(ctx, top, "rev-parse", "--short=12", "HEAD")
	if err != nil {
		return err
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
	verb := "tagged"
	if dryRun {
		verb = "would tag"
	}
	for _, m := range r.Released {
		t := tagName(m, v)
		if !dryRun {
			if _, err := git(ctx, top, "tag", "-a", "-m", m.Path+" "+v, t, "HEAD"); err != nil {
				return err
			}
		}
		fmt.Fprintf(out, "%s %s at %s\n", verb, t, head)
	}
	if !dryRun {
		fmt.Fprintf(out, "push them with: git push origin %s\n", strings.Join(tagList(r, v), " "))
	}
	return nil
}

func tagList(r *repo, v string) []string {
	var out []string
	for _, m := range r.Released {
		out = append(out, tagName(m, v))
	}
	return out
}
