package upstream

import (
	"context"
	"fmt"
	"io"
	"io/fs"

	"slices"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/snapshot"
	"github.com/agent-skills/agent-skills/cli/internal/source"
	"github.com/agent-skills/agent-skills/format"
)

// LicenseNames are the licence files looked for, in this order, first in
// the skill's folder and then at the repository's root, when no licence
// path was given or the recorded one is gone.
var LicenseNames = []string{"LICENSE", "LICENSE.md", "LICENSE.txt", "LICENCE", "LICENCE.md", "LICENCE.txt", "COPYING", "COPYING.md", "COPYING.txt"}

// Fetcher reaches upstream repositories.
type Fetcher interface {
	// Tip returns the commit ref ("" for the default branch) of
	// repository names now, fetching no content.
	Tip(ctx context.Context, repository, ref string) (string, error)
	// Checkout checks out only paths (repository-relative; none means the
	// whole tree) of repository at ref.
	Checkout(ctx context.Context, repository, ref string, paths []string) (*Checkout, error)
}

// Checkout is one commit of an upstream, read from the repository's root.
type Checkout struct {
	FS     fs.FS
	Commit string
	// Close releases the checkout; nil when there is nothing to release.
	Close func()
}

// Git is the Fetcher over package source's hardened git.
type Git struct {
	// Options are the source options (cache folder, environment, offline).
	Options source.Options
}

// ParseRepository reads a repository as upstreams.lock.json records it
// (or as a maintainer writes it), refusing anything but a git repository.
func ParseRepository(repository string) (source.Ref, error) {
	r, ok, err := source.Parse(repository, "/", nil)
	if err != nil {
		return source.Ref{}, err
	}
	if !ok {
		return source.Ref{}, invalid(fmt.Sprintf("%q is not a git repository", repository),
			"write owner/repo, github:owner/repo or a git URL (https://, ssh://, file://)")
	}
	switch r.Kind {
	case source.KindGitHub, source.KindGitLab, source.KindGit:
		return r, nil
	}
	return source.Ref{}, invalid(fmt.Sprintf("%q is a %s source, not a git repository: only a repository has commits to follow", repository, r.Kind),
		"write owner/repo, github:owner/repo or a git URL (https://, ssh://, file://)")
}

// Tip implements Fetcher.
func (g Git) Tip(ctx context.Context, repository, ref string) (string, error) {
	r, err := ParseRepository(repository)
	if err != nil {
		return "", err
	}
	return source.Tip(ctx, r, ref, g.Options)
}

// Checkout implements Fetcher.
func (g Git) Checkout(ctx context.Context, repository, ref string, paths []string) (*Checkout, error) {
	r, err := ParseRepository(repository)
	if err != nil {
		return nil, err
	}
	t, err := source.CheckoutPaths(ctx, r, ref, paths, g.Options)
	if err != nil {
		return nil, err
	}
	return &Checkout{FS: t.FS, Commit: t.Commit, Close: t.Close}, nil
}

// Captured is an upstream skill captured at one commit.
type Captured struct {
	Commit  string
	Digest  string
	Files   []File
	License *License
	// skill reports a folder that holds a package: its entrypoint is
	// among Files. A check compares a folder whose skill was removed too.
	skill bool
}

// sparsePaths are the repository paths a capture of the skill at dir,
// whose licence was recorded at license ("" for none), checks out: the
// folder, the licence and the root's licence candidates. None (the whole
// tree) for a skill at the root.
func sparsePaths(dir, license string) []string {
	if dir == "." {
		return nil
	}
	out := []string{dir}
	if license != "" {
		if _, in := inFolder(license, dir); !in {
			out = append(out, license)
		}
	}
	for _, n := range LicenseNames {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// captureAt captures the skill at dir of the checkout co. license is the
// licence path to read ("" to look for one). When it is absent, a
// required one (given by the maintainer) is an error; otherwise the
// candidates (LicenseNames) are looked for, in the skill's folder and then
// at the root, and the capture has no licence when none is there.
func captureAt(co *Checkout, repository, dir, license string, required bool) (*Captured, error) {
	sub := co.FS
	if dir != "." {
		info, err := fs.Stat(co.FS, dir)
		if err != nil || !info.IsDir() {
			return nil, &askerr.Error{Code: source.CodeSourceNotFound,
				Message: fmt.Sprintf("%s has no folder %q at commit %s", repository, dir, co.Commit),
				Try:     []string{"check the path of the skill in the repository", "record it again: agent-skills upstream add <package> <repository> --path <folder>"}}
		}
		if sub, err = fs.Sub(co.FS, dir); err != nil {
			return nil, askerr.IO("cannot open "+dir, err)
		}
	}
	snap, err := snapshot.CapturePackage(sub, snapshot.Options{})
	if err != nil {
		return nil, err
	}
	p := snap.Packages[0]
	c := &Captured{Commit: co.Commit, Digest: p.Digest, Files: make([]File, 0, len(p.Files)),
		skill: p.Contract.Entrypoint != "" && p.File(p.Contract.Entrypoint) != nil}
	for _, f := range p.Files {
		c.Files = append(c.Files, File{Path: f.Path, Digest: f.Digest, Size: f.Size})
	}
	if license != "" {
		l, err := readLicense(co.FS, c, dir, license, required)
		if err != nil {
			return nil, err
		}
		if l != nil || required {
			if l == nil {
				return nil, invalid(fmt.Sprintf("%s has no licence file %q at commit %s", repository, license, co.Commit),
					"pass the path of the licence in the repository, e.g. --license LICENSE", "or leave --license out to look for LICENSE, COPYING… in the skill's folder and at the root")
			}
			c.License = l
			return c, nil
		}
	}
	candidates := make([]string, 0, 2*len(LicenseNames))
	for _, n := range LicenseNames {
		if dir != "." {
			candidates = append(candidates, dir+"/"+n)
		}
	}
	candidates = append(candidates, LicenseNames...)
	for _, cand := range candidates {
		l, err := readLicense(co.FS, c, dir, cand, false)
		if err != nil {
			return nil, err
		}
		if l != nil {
			c.License = l
			break
		}
	}
	return c, nil
}

// readLicense reads the licence at the repository path p: from the
// captured files when it is inside the package, else from the checkout,
// a regular file of at most MaxLicenseSize bytes. nil when there is none.
// A symbolic link is never followed: it is no licence, and an error when
// the maintainer named it (named).
func readLicense(fsys fs.FS, c *Captured, dir, p string, named bool) (*License, error) {
	if rel, in := inFolder(p, dir); in {
		i := slices.IndexFunc(c.Files, func(f File) bool { return f.Path == rel })
		if i < 0 {
			return nil, nil
		}
		return &License{Path: p, InPackage: true, Digest: c.Files[i].Digest, Size: c.Files[i].Size}, nil
	}
	if info, err := fs.Lstat(fsys, p); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		if named {
			return nil, invalid(fmt.Sprintf("the licence %s is a symbolic link; links in an upstream are never followed", p),
				"name the licence file itself with --license PATH")
		}
		return nil, nil
	}
	info, err := fs.Stat(fsys, p)
	switch {
	case err != nil:
		return nil, nil // absent, or a link (never followed): no licence there
	case !info.Mode().IsRegular():
		return nil, nil
	case info.Size() > MaxLicenseSize:
		return nil, invalid(fmt.Sprintf("the licence file %s is larger than %d KiB", p, MaxLicenseSize>>10),
			"name the licence file itself with --license PATH")
	}
	f, err := fsys.Open(p)
	if err != nil {
		return nil, askerr.IO("cannot read the licence "+p, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxLicenseSize+1))
	if err != nil {
		return nil, askerr.IO("cannot read the licence "+p, err)
	}
	if len(b) > MaxLicenseSize {
		return nil, invalid(fmt.Sprintf("the licence file %s is larger than %d KiB", p, MaxLicenseSize>>10),
			"name the licence file itself with --license PATH")
	}
	return &License{Path: p, Digest: format.BytesDigest(b), Size: int64(len(b)), Content: b}, nil
}

// Request is what upstream add records.
type Request struct {
	// Package is the local package folder relative to the collection.
	Package string
	// Repository is the git repository (see ParseRepository).
	Repository string
	// Path is the skill's folder in the repository, "." for the root.
	Path string
	// Ref is the branch or tag to follow, "" for the default branch.
	Ref string
	// License is the licence's path in the repository; "" to look for
	// one (LicenseNames).
	License string
}

// Record captures the upstream skill req names at the commit its ref
// resolves to now, and returns the lock entry.
func Record(ctx context.Context, f Fetcher, req Request) (*Entry, error) {
	if !RepoPath(req.Path) {
		return nil, invalid(fmt.Sprintf("the upstream path %q is not a clean relative path", req.Path), "write the skill's folder in the repository, e.g. skills/review")
	}
	if req.License != "" && (!RepoPath(req.License) || req.License == ".") {
		return nil, invalid(fmt.Sprintf("the licence path %q is not a clean relative path", req.License), "write the licence file's path in the repository, e.g. LICENSE")
	}
	co, err := f.Checkout(ctx, req.Repository, req.Ref, sparsePaths(req.Path, req.License))
	if err != nil {
		return nil, err
	}
	if co.Close != nil {
		defer co.Close()
	}
	c, err := captureAt(co, req.Repository, req.Path, req.License, req.License != "")
	if err != nil {
		return nil, err
	}
	if !c.skill {
		return nil, invalid(fmt.Sprintf("%s holds no skill at %q (commit %s): it has no SKILL.md, COMMAND.md or WORKFLOW.js", req.Repository, req.Path, c.Commit),
			"name the skill's folder with --path, or in the reference: owner/repo/path/to/skill")
	}
	return &Entry{Package: req.Package, Source: Source{Repository: req.Repository, Path: req.Path, Ref: req.Ref, Commit: c.Commit},
		Digest: c.Digest, Files: c.Files, License: c.License}, nil
}

// LocalFiles captures the local package in the folder dir of fsys (the
// collection) under the same rules and returns its files' digests by path
// and its package digest. A folder that does not exist, or holds no
// package (no entrypoint), is ASK_UPSTREAM_INVALID.
func LocalFiles(fsys fs.FS, dir string) (map[string]string, string, error) {
	missing := func(why string) error {
		return &askerr.Error{Code: CodeInvalid, Message: fmt.Sprintf("the local package %s %s", dir, why),
			Try: []string{"restore the package, or remove its entry from " + FileName}}
	}
	if info, err := fs.Stat(fsys, dir); err != nil || !info.IsDir() {
		return nil, "", missing("does not exist")
	}
	sub, err := fs.Sub(fsys, dir)
	if err != nil {
		return nil, "", missing("cannot be opened")
	}
	snap, err := snapshot.CapturePackage(sub, snapshot.Options{})
	if err != nil {
		return nil, "", err
	}
	p := snap.Packages[0]
	if p.Contract.Entrypoint == "" || p.File(p.Contract.Entrypoint) == nil {
		return nil, "", missing("holds no package: it has no SKILL.md, COMMAND.md or WORKFLOW.js")
	}
	out := make(map[string]string, len(p.Files))
	for _, f := range p.Files {
		out[f.Path] = f.Digest
	}
	return out, p.Digest, nil
}

func invalid(msg string, try ...string) error {
	return &askerr.Error{Code: CodeInvalid, Message: msg, Try: try}
}
