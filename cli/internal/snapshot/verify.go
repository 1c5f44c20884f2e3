package snapshot

import (
	"io/fs"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/format"
)

// ChangeProblem is a package of the tree that no longer loads cleanly:
// the cause of file and contract changes that follow it (a manifest that
// does not parse drops the files it listed from the package).
const ChangeProblem = "problem"

// Verify captures fsys again as want's kind says and returns Compare's
// changes, preceded, for each package that changed, by the errors that
// loading it reports now. No change means fsys still is what want holds.
func Verify(want *Snapshot, fsys fs.FS, opts Options) ([]Change, error) {
	var got *Snapshot
	var err error
	if want.Kind == "package" {
		got, err = CapturePackage(fsys, opts)
	} else {
		got, err = CaptureCollection(fsys, opts)
	}
	if err != nil {
		return nil, err
	}
	changes := Compare(want, got)
	changed := map[string]bool{}
	for _, c := range changes {
		if c.Kind != ChangeCatalog && c.Kind != ChangePackageRemoved {
			changed[c.Package] = true
		}
	}
	var out []Change
	for _, c := range changes {
		if changed[c.Package] {
			delete(changed, c.Package)
			out = append(out, problems(fsys, c.Package, opts)...)
		}
		out = append(out, c)
	}
	return out, nil
}

// problems returns the error diagnostics of loading the package at dir.
func problems(fsys fs.FS, dir string, opts Options) []Change {
	sub := fsys
	if dir != "." {
		var err error
		if sub, err = fs.Sub(fsys, dir); err != nil {
			return nil
		}
	}
	_, ds := format.Load(sub, opts.Load)
	var out []Change
	for _, d := range ds {
		if d.Severity == format.SeverityError {
			out = append(out, Change{Package: dir, Kind: ChangeProblem, File: d.File, After: d.String()})
		}
	}
	slices.SortStableFunc(out, func(a, b Change) int { return strings.Compare(a.File, b.File) })
	return out
}
