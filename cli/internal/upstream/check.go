package upstream

import (
	"context"
	"io/fs"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
)

// Entry statuses of a check.
const (
	StatusUnchanged = "unchanged"
	StatusChanged   = "changed"
	StatusUnchecked = "unchecked"
)

// File changes.
const (
	Added   = "added"
	Changed = "changed"
	Removed = "removed"
	// Moved is a licence found at another path than the recorded one.
	Moved = "moved"
)

// Local states: how the local package's file of the same path compares.
const (
	// LocalUnmodified: the local file equals the recorded upstream
	// version; it carries no local contribution.
	LocalUnmodified = "unmodified"
	// LocalCurrent: the local file already equals the upstream's current
	// version.
	LocalCurrent = "current"
	// LocalDiverged: the local file differs from both upstream versions:
	// a local contribution to reconcile by hand.
	LocalDiverged = "diverged"
	// LocalAbsent: the local package has no file of that path.
	LocalAbsent = "absent"
)

// Report is the result of a check, entries sorted by package.
type Report struct {
	Entries   []EntryReport `json:"entries"`
	Changed   int           `json:"changed"`
	Unchanged int           `json:"unchanged"`
	Unchecked int           `json:"unchecked"`
}

// EntryReport is one entry's result.
type EntryReport struct {
	Package string `json:"package"`
	// Source is what the lock records.
	Source Source `json:"source"`
	Status string `json:"status"`
	// CurrentCommit is the commit the ref names now; absent when the entry
	// could not be checked.
	CurrentCommit string `json:"currentCommit,omitempty"`
	// Digest is set when the package digest changed.
	Digest *DigestChange `json:"digest,omitempty"`
	// Files are the upstream files added, changed or removed, sorted by
	// path, each mapped to the local package.
	Files   []FileChange   `json:"files"`
	License *LicenseChange `json:"license,omitempty"`
	// LocalChanges are the local contributions the upstream did not
	// touch: files the local package changed, removed or added against
	// the recorded upstream version, sorted by path, without the paths
	// in Files.
	LocalChanges []LocalChange `json:"localChanges"`
	// LocalDigest is the local package's digest; absent when unchecked.
	LocalDigest string   `json:"localDigest,omitempty"`
	Error       *Problem `json:"error,omitempty"`
}

// DigestChange is a package digest before and after.
type DigestChange struct {
	Recorded string `json:"recorded"`
	Current  string `json:"current"`
}

// FileChange is an upstream file that changed since the recorded capture.
type FileChange struct {
	Path   string `json:"path"`
	Change string `json:"change"`
	// Recorded and Current are the upstream digests; absent for a file
	// added or removed respectively.
	Recorded string `json:"recorded,omitempty"`
	Current  string `json:"current,omitempty"`
	// Local is the local package's file of the same path: unmodified,
	// current, diverged or absent.
	Local string `json:"local"`
}

// LocalChange is a local package file that differs from the recorded
// upstream version of a file the upstream did not change: Change is
// changed, removed (the local package dropped it) or added (only local).
type LocalChange struct {
	Path   string `json:"path"`
	Change string `json:"change"`
}

// LicenseChange is a change to the licence that applies upstream.
type LicenseChange struct {
	// Change is added, changed, moved or removed.
	Change string `json:"change"`
	// Path is the recorded licence path; CurrentPath where it is now.
	Path        string `json:"path,omitempty"`
	CurrentPath string `json:"currentPath,omitempty"`
	Recorded    string `json:"recorded,omitempty"`
	Current     string `json:"current,omitempty"`
}

// Problem is why an entry could not be checked.
type Problem struct {
	Code    string   `json:"code"`
	Message string   `json:"message"`
	Try     []string `json:"try,omitempty"`
}

// Compare reports how the current capture cur of e's upstream differs from
// the recorded one, each changed path mapped to local, the local
// package's file digests by path.
func Compare(e *Entry, cur *Captured, local map[string]string) EntryReport {
	r := EntryReport{Package: e.Package, Source: e.Source, Status: StatusUnchanged, CurrentCommit: cur.Commit, Files: []FileChange{}}
	if cur.Digest != e.Digest {
		r.Digest = &DigestChange{Recorded: e.Digest, Current: cur.Digest}
	}
	now := map[string]File{}
	for _, f := range cur.Files {
		now[f.Path] = f
	}
	for _, f := range e.Files {
		c, ok := now[f.Path]
		switch {
		case !ok:
			r.Files = append(r.Files, FileChange{Path: f.Path, Change: Removed, Recorded: f.Digest, Local: localState(local, f.Path, f.Digest, "")})
		case c.Digest != f.Digest:
			r.Files = append(r.Files, FileChange{Path: f.Path, Change: Changed, Recorded: f.Digest, Current: c.Digest, Local: localState(local, f.Path, f.Digest, c.Digest)})
		}
		delete(now, f.Path)
	}
	for _, c := range now {
		r.Files = append(r.Files, FileChange{Path: c.Path, Change: Added, Current: c.Digest, Local: localState(local, c.Path, "", c.Digest)})
	}
	slices.SortFunc(r.Files, func(a, b FileChange) int { return strings.Compare(a.Path, b.Path) })
	r.LocalChanges = localChanges(e, r.Files, local)
	r.License = compareLicense(e.License, cur.License)
	if r.Digest != nil || len(r.Files) > 0 || r.License != nil {
		r.Status = StatusChanged
	}
	return r
}

// localChanges lists the local contributions outside the upstream's
// changes: recorded upstream files the local package changed or removed,
// and files only the local package has.
func localChanges(e *Entry, upstream []FileChange, local map[string]string) []LocalChange {
	touched := map[string]bool{}
	for _, f := range upstream {
		touched[f.Path] = true
	}
	out := []LocalChange{}
	if local == nil {
		return out
	}
	for _, f := range e.Files {
		if touched[f.Path] {
			continue
		}
		switch d, ok := local[f.Path]; {
		case !ok:
			out = append(out, LocalChange{Path: f.Path, Change: Removed})
		case d != f.Digest:
			out = append(out, LocalChange{Path: f.Path, Change: Changed})
		}
	}
	for p := range local {
		if !touched[p] && e.file(p) == nil {
			out = append(out, LocalChange{Path: p, Change: Added})
		}
	}
	slices.SortFunc(out, func(a, b LocalChange) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// localState compares the local file p with the recorded upstream
// version (recorded, "" when the upstream added it) and the current one
// (current, "" when the upstream removed it).
func localState(local map[string]string, p, recorded, current string) string {
	d, ok := local[p]
	switch {
	case !ok:
		return LocalAbsent
	case d == recorded:
		return LocalUnmodified
	case d == current:
		return LocalCurrent
	}
	return LocalDiverged
}

// compareLicense is the change from the recorded licence rec to the
// current one cur; nil when it is the same file with the same bytes.
func compareLicense(rec, cur *License) *LicenseChange {
	switch {
	case rec == nil && cur == nil:
		return nil
	case rec == nil:
		return &LicenseChange{Change: Added, CurrentPath: cur.Path, Current: cur.Digest}
	case cur == nil:
		return &LicenseChange{Change: Removed, Path: rec.Path, Recorded: rec.Digest}
	case rec.Path != cur.Path:
		return &LicenseChange{Change: Moved, Path: rec.Path, CurrentPath: cur.Path, Recorded: rec.Digest, Current: cur.Digest}
	case rec.Digest != cur.Digest:
		return &LicenseChange{Change: Changed, Path: rec.Path, CurrentPath: cur.Path, Recorded: rec.Digest, Current: cur.Digest}
	}
	return nil
}

// Check checks every entry of l against its upstream through f; local
// reads the collection (each entry's package is fs.Sub of it). Entries
// that follow one ref of one repository share one ref lookup and, when it
// moved, one checkout. An entry whose upstream or local package cannot be
// read is StatusUnchecked with its cause; the others are still checked.
// Only a cancelled ctx stops the check.
func Check(ctx context.Context, l *Lock, local fs.FS, f Fetcher) (*Report, error) {
	rep := &Report{Entries: make([]EntryReport, len(l.Upstreams))}
	type group struct {
		repository, ref string
		entries         []int
	}
	var groups []*group
	byKey := map[[2]string]*group{}
	for i, e := range l.Upstreams {
		k := [2]string{e.Source.Repository, e.Source.Ref}
		g := byKey[k]
		if g == nil {
			g = &group{repository: k[0], ref: k[1]}
			byKey[k] = g
			groups = append(groups, g)
		}
		g.entries = append(g.entries, i)
	}
	for _, g := range groups {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		checkGroup(ctx, l, g.repository, g.ref, g.entries, local, f, rep)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, r := range rep.Entries {
		switch r.Status {
		case StatusChanged:
			rep.Changed++
		case StatusUnchanged:
			rep.Unchanged++
		default:
			rep.Unchecked++
		}
	}
	return rep, nil
}

// checkGroup checks the entries idx of l, which follow ref of repository.
func checkGroup(ctx context.Context, l *Lock, repository, ref string, idx []int, local fs.FS, f Fetcher, rep *Report) {
	fail := func(i int, err error) {
		e := &l.Upstreams[i]
		rep.Entries[i] = EntryReport{Package: e.Package, Source: e.Source, Status: StatusUnchecked, Files: []FileChange{},
			LocalChanges: []LocalChange{}, Error: problemOf(err)}
	}
	locals := map[int]map[string]string{}
	localDigests := map[int]string{}
	var todo []int
	for _, i := range idx {
		files, digest, err := LocalFiles(local, l.Upstreams[i].Package)
		if err != nil {
			fail(i, err)
			continue
		}
		locals[i], localDigests[i] = files, digest
		todo = append(todo, i)
	}
	if len(todo) == 0 {
		return
	}
	tip := ""
	if isCommitID(ref) {
		tip = ref // a pinned commit: nothing moves
	} else {
		var err error
		if tip, err = f.Tip(ctx, repository, ref); err != nil {
			for _, i := range todo {
				fail(i, err)
			}
			return
		}
	}
	var moved []int
	for _, i := range todo {
		e := &l.Upstreams[i]
		if e.Source.Commit == tip {
			// The same commit is the same tree: nothing to fetch.
			r := Compare(e, &Captured{Commit: tip, Digest: e.Digest, Files: e.Files, License: e.License}, locals[i])
			r.LocalDigest = localDigests[i]
			rep.Entries[i] = r
			continue
		}
		moved = append(moved, i)
	}
	if len(moved) == 0 {
		return
	}
	var paths []string
	whole := false
	for _, i := range moved {
		e := &l.Upstreams[i]
		lic := ""
		if e.License != nil {
			lic = e.License.Path
		}
		p := sparsePaths(e.Source.Path, lic)
		if p == nil {
			whole = true
		}
		for _, x := range p {
			if !slices.Contains(paths, x) {
				paths = append(paths, x)
			}
		}
	}
	if whole {
		paths = nil
	}
	slices.Sort(paths)
	co, err := f.Checkout(ctx, repository, ref, paths)
	if err != nil {
		for _, i := range moved {
			fail(i, err)
		}
		return
	}
	if co.Close != nil {
		defer co.Close()
	}
	for _, i := range moved {
		e := &l.Upstreams[i]
		lic := ""
		if e.License != nil {
			lic = e.License.Path
		}
		cur, err := captureAt(co, repository, e.Source.Path, lic, false)
		if err != nil {
			fail(i, err)
			continue
		}
		r := Compare(e, cur, locals[i])
		r.LocalDigest = localDigests[i]
		rep.Entries[i] = r
	}
}

// problemOf is the reportable form of err.
func problemOf(err error) *Problem {
	return &Problem{Code: askerr.CodeOf(err), Message: err.Error(), Try: askerr.TryOf(err)}
}
