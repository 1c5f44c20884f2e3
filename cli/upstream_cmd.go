package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/atomicfile"
	"github.com/agent-skills/agent-skills/cli/internal/source"
	"github.com/agent-skills/agent-skills/cli/internal/ui"
	"github.com/agent-skills/agent-skills/cli/internal/upstream"
)

type upstreamCmd struct {
	Add   upstreamAddCmd   `cmd:"" help:"Record (or re-record) where a local package came from in upstreams.lock.json: repository, folder, ref, commit, file digests, licence."`
	Check upstreamCheckCmd `cmd:"" help:"Report what changed upstream since each recorded capture, mapped to the local packages (read-only; exit 1 when something changed)."`
}

type upstreamAddCmd struct {
	Package    string `arg:"" type:"path" help:"The local package folder derived from the upstream skill."`
	Repository string `arg:"" help:"The upstream git repository: owner/repo[/path][#ref], github:owner/repo, or a git URL (https://, ssh://, file://)."`
	Path       string `help:"The skill's folder in the repository (default: the path the reference names, else the root)."`
	Ref        string `help:"The branch or tag to follow (default: the ref the reference names, else the default branch)."`
	License    string `help:"The licence file's path in the repository (default: LICENSE, COPYING… in the skill's folder, then at the root)."`
	Collection string `type:"path" default:"." help:"The collection whose upstreams.lock.json records the package."`
	JSON       bool   `name:"json" help:"Print the recorded entry as JSON."`
}

func (c *upstreamAddCmd) Help() string {
	return `Resolves the ref to a commit now, captures the upstream skill at that commit (the file
set, each file's digest and the package digest, under the rules of snapshot capture)
and writes its entry to upstreams.lock.json at the collection's root, atomically,
replacing the package's previous entry. A licence outside the skill's folder (a
LICENSE at the repository's root) is recorded with its bytes. The local package is
not changed; the command says how many of its files differ from the upstream's.

Examples:
  agent-skills upstream add skills/review acme/skills/skills/review#main
  agent-skills upstream add skills/lint file:///srv/git/tools.git --path lint --ref v2 --license LICENSE`
}

// upstreamAddReport is the --json output of upstream add.
type upstreamAddReport struct {
	Lock     string         `json:"lock"`
	Replaced bool           `json:"replaced"`
	Entry    upstream.Entry `json:"entry"`
	// LocalDiffers are the paths where the local package differs from
	// the upstream capture: changed, only local, or only upstream.
	LocalDiffers []string `json:"localDiffers"`
}

func (c *upstreamAddCmd) Run(e *env) error {
	root, err := collectionRoot(e, c.Collection)
	if err != nil {
		return err
	}
	pkgDir, err := filepath.Abs(c.Package)
	if err != nil {
		return askerr.Usage("cannot resolve %s", c.Package)
	}
	rel, err := filepath.Rel(root, pkgDir)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return &askerr.Error{Code: upstream.CodeInvalid,
			Message: fmt.Sprintf("%s is not a package folder inside the collection %s", e.Rel(pkgDir), e.Rel(root)),
			Try:     []string{"name the collection with --collection DIR", "agent-skills upstream add <collection>/<package> <repository>"}}
	}
	rel = filepath.ToSlash(rel)
	local, _, err := upstream.LocalFiles(os.DirFS(root), rel)
	if err != nil {
		return err
	}
	req, err := c.request(e, rel)
	if err != nil {
		return err
	}
	lockFile := filepath.Join(root, upstream.FileName)
	lock, err := readUpstreamLock(lockFile, e.Rel(lockFile), true)
	if err != nil {
		return err
	}
	entry, err := upstream.Record(e.ctx, upstream.Git{Options: e.ws.SourceOptions("", nil)}, req)
	if err != nil {
		return err
	}
	replaced := lock.Put(*entry)
	b, err := upstream.Encode(lock)
	if err != nil {
		return askerr.Internal("cannot encode "+upstream.FileName, err)
	}
	if err := atomicfile.WriteFile(lockFile, b, 0o644); err != nil {
		return askerr.IO("cannot write "+e.Rel(lockFile), err)
	}
	rep := upstreamAddReport{Lock: e.Rel(lockFile), Replaced: replaced, Entry: *entry, LocalDiffers: localDiffers(entry, local)}
	if c.JSON {
		return e.JSON(rep)
	}
	e.renderUpstreamAdd(rep)
	return nil
}

// request builds what to record from the arguments: the repository as a
// source reference records it, and the folder and ref it names unless the
// flags name them (both naming different ones is a usage error).
func (c *upstreamAddCmd) request(e *env, pkg string) (upstream.Request, error) {
	isDir := func(p string) bool {
		fi, err := os.Stat(p)
		return err == nil && fi.IsDir()
	}
	r, ok, err := source.Parse(c.Repository, e.ws.Cwd, isDir)
	if err != nil {
		return upstream.Request{}, err
	}
	if !ok || (r.Kind != source.KindGitHub && r.Kind != source.KindGitLab && r.Kind != source.KindGit) {
		return upstream.Request{}, &askerr.Error{Code: upstream.CodeInvalid,
			Message: fmt.Sprintf("%s is not a git repository: only a repository has commits to follow", ui.Field(strconv.Quote(c.Repository))),
			Try:     []string{"write owner/repo[/path][#ref], github:owner/repo or a git URL (https://, ssh://, file://)"}}
	}
	if r.Skill != "" {
		return upstream.Request{}, askerr.Usage("name the skill by its folder (owner/repo/path or --path), not @%s", r.Skill)
	}
	pick := func(flag, inRef, what string) (string, error) {
		if flag != "" && inRef != "" && flag != inRef {
			return "", askerr.Usage("the reference names the %s %q and --%s names %q: give one", what, inRef, what, flag)
		}
		if flag != "" {
			return flag, nil
		}
		return inRef, nil
	}
	p, err := pick(strings.Trim(c.Path, "/"), r.Subpath, "path")
	if err != nil {
		return upstream.Request{}, err
	}
	if p == "" {
		p = "."
	}
	ref, err := pick(c.Ref, r.Ref, "ref")
	if err != nil {
		return upstream.Request{}, err
	}
	return upstream.Request{Package: pkg, Repository: source.Record(r, e.ws.Getenv), Path: p, Ref: ref, License: c.License}, nil
}

// localDiffers lists the paths where the local files differ from the
// entry's: changed, only local, or only upstream; sorted.
func localDiffers(entry *upstream.Entry, local map[string]string) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, f := range entry.Files {
		seen[f.Path] = true
		if local[f.Path] != f.Digest {
			out = append(out, f.Path)
		}
	}
	for p := range local {
		if !seen[p] {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

type upstreamCheckCmd struct {
	Collection string `arg:"" optional:"" default:"." type:"path" help:"The collection whose upstreams.lock.json to check."`
	JSON       bool   `name:"json" help:"Print a machine-readable report."`
}

func (c *upstreamCheckCmd) Help() string {
	return `For each entry of upstreams.lock.json, asks the repository which commit the followed
ref names now; when it moved, checks out the skill's folder and licence there, captures
it under the same rules and reports the files added, changed and removed, the package
digest and the licence (changed, moved, removed, added). Each changed path is mapped
to the local package's file of the same path: unmodified (still the recorded upstream
version), current (already the new one), diverged (a local change) or absent.

Nothing is written: not the local packages, not the lock. Record a reviewed upstream
again with upstream add. Exit 0 when nothing changed, 1 (ASK_UPSTREAM_CHANGED) when
an upstream changed, 4 (ASK_UPSTREAM_UNCHECKED) when an entry could not be checked —
each such entry names its cause, and the others are still checked.

Examples:
  agent-skills upstream check
  agent-skills upstream check skills/ --json`
}

func (c *upstreamCheckCmd) Run(e *env) error {
	root, err := collectionRoot(e, c.Collection)
	if err != nil {
		return err
	}
	lockFile := filepath.Join(root, upstream.FileName)
	lock, err := readUpstreamLock(lockFile, e.Rel(lockFile), false)
	if err != nil {
		return err
	}
	// The lock names the packages: read them through a root, so that no
	// link in the collection leads the capture outside it.
	croot, err := os.OpenRoot(root)
	if err != nil {
		return askerr.IO("cannot open "+e.Rel(root), err)
	}
	defer croot.Close()
	rep, err := upstream.Check(e.ctx, lock, croot.FS(), upstream.Git{Options: e.ws.SourceOptions("", nil)})
	if err != nil {
		return err
	}
	if c.JSON {
		if err := e.JSON(struct {
			Lock string `json:"lock"`
			*upstream.Report
		}{e.Rel(lockFile), rep}); err != nil {
			return err
		}
	} else {
		e.renderUpstreamCheck(rep)
	}
	switch {
	case rep.Unchecked > 0:
		detail := []string{}
		for _, r := range rep.Entries {
			if r.Error != nil {
				detail = append(detail, r.Package+": "+r.Error.Code+": "+r.Error.Message)
			}
		}
		return &askerr.Error{Code: upstream.CodeUnchecked,
			Message: fmt.Sprintf("%d of %d %s could not be checked", rep.Unchecked, len(rep.Entries), ui.Plural(len(rep.Entries), "upstream", "upstreams")),
			Detail:  detail,
			Try:     []string{"fix the cause each entry names (network, credentials, a ref or folder that is gone), then run agent-skills upstream check again"}}
	case rep.Changed > 0:
		return &askerr.Error{Code: upstream.CodeChanged,
			Message: fmt.Sprintf("%d %s changed since %s recorded", rep.Changed, ui.Plural(rep.Changed, "upstream", "upstreams"), ui.Plural(rep.Changed, "it was", "they were")),
			Try: []string{"review each change against the local package; nothing was modified",
				"after adopting or rejecting them, record the upstream again: agent-skills upstream add <package> <repository>"}}
	}
	return nil
}

// readUpstreamLock reads the lock at file; a missing one is an empty
// lock when missingOK, else ASK_UPSTREAM_INVALID.
func readUpstreamLock(file, shown string, missingOK bool) (*upstream.Lock, error) {
	f, err := os.Open(file)
	if errors.Is(err, fs.ErrNotExist) {
		if missingOK {
			return &upstream.Lock{Schema: upstream.Schema}, nil
		}
		return nil, &askerr.Error{Code: upstream.CodeInvalid, Message: "there is no " + shown + ": no upstream is recorded",
			Try: []string{"record one: agent-skills upstream add <package> <repository>", "or name the collection: agent-skills upstream check <collection>"}}
	}
	if err != nil {
		return nil, askerr.IO("cannot read "+shown, err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && !fi.Mode().IsRegular() {
		return nil, &askerr.Error{Code: upstream.CodeLockInvalid, Message: shown + " is not a regular file",
			Try: []string{"restore it from version control"}}
	}
	return upstream.Decode(f, shown)
}
