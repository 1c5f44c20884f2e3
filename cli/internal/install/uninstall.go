package install

import (
	"context"
	"path/filepath"
	"slices"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/format"
)

// Uninstall removes the named packages from every root of the selected
// agents that holds them, as one transaction, like Install.
//
// It removes exactly the files the receipt lists, cleans the folders left
// empty and removes the receipt; files the user added stay where they are
// (the outcome is then preserved, with the files listed), and the folder
// stays with them. The package disappears atomically: it is renamed away,
// or exchanged with a folder holding only the user's files. A package with
// a tracked file changed, an unreadable receipt, or no receipt at all
// (unmanaged) is refused with ASK_MODIFIED_INSTALL unless opts.Force,
// which removes the changed files too and, for an unmanaged package, the
// whole folder or file. A name that no root holds is ASK_NOT_INSTALLED,
// listing what is installed. Everything is checked before anything is
// removed. Deprecated roots, which this package never writes, are left
// alone. A name that is not one plain path element ("../x", ".hidden")
// is ASK_REFERENCE_INVALID.
func Uninstall(ctx context.Context, names []string, opts Options) (*Report, error) {
	for _, n := range names {
		// A name becomes a path below each root: "../x" must not reach
		// a folder beside it.
		if !safeName(n) {
			return nil, nameError(n)
		}
	}
	return uninstall(ctx, names, &opts)
}

// uninstall is Uninstall under the lock.
func uninstall(ctx context.Context, names []string, opts *Options) (*Report, error) {
	rep, dg, roots, err := openRoots(ctx, opts)
	if err != nil {
		return rep, err
	}
	var txns []*txn
	var refused []Result
	var missing []string
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		found := false
		for _, ri := range roots {
			if ri.deprecatedForAll() {
				continue
			}
			h, err := heldIn(opts, ri, name, dg)
			if err != nil {
				return rep, err
			}
			dest, rec, raw, rerr, disk := h.place, h.rec, h.raw, h.rerr, h.disk
			if rerr == nil && rec == nil && !disk.exists {
				continue
			}
			found = true
			r := Result{Name: name, Kind: ri.kind, Root: ri.path, Dest: dest, Readers: slices.Clone(ri.readers)}
			t := &txn{kind: txnRemove, root: ri.path, name: name, dest: dest, shape: ri.loc.Shape,
				oldReceipt: raw, existed: disk.exists}
			var problem string
			switch {
			case rerr != nil:
				problem = "its receipt cannot be read: " + rerr.Error()
			case rec == nil:
				problem = "it was not installed by agent-skills (no receipt)"
			case disk.exists && !disk.kindOK:
				problem = "something else is in its place"
			case disk.exists && disk.modified():
				problem = "files were changed or removed since it was installed"
				r.Modified = disk.modifiedList()
			}
			if rec != nil {
				r.Version, r.Kind, r.Role = rec.Version, rec.Kind, rec.Role
				for _, f := range rec.Files {
					if !slices.Contains(disk.missing, f.Path) {
						r.Files = append(r.Files, f.Path)
					}
				}
			} else {
				r.Files = disk.files
				if ri.loc.Shape == agents.ShapeFile && disk.exists {
					r.Files = []string{filepath.Base(dest)}
				}
			}
			if problem != "" && !opts.Force {
				r.Outcome, r.Reason = OutcomeRefused, problem
				refused = append(refused, r)
				rep.Results = append(rep.Results, r)
				continue
			}
			if rec != nil && rerr == nil && ri.loc.Shape == agents.ShapeDirectory && disk.kindOK {
				t.setKeep(disk.added)
			}
			r.Outcome = OutcomeRemoved
			if keep := t.keeps(); len(keep) > 0 {
				r.Outcome, r.Preserved = OutcomePreserved, keep
			}
			txns = append(txns, t)
			rep.Results = append(rep.Results, r)
		}
		if !found {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		installed, err := installedNames(roots, dg, opts.meta())
		if err != nil {
			return rep, err
		}
		return rep, notInstalledError(missing, installed)
	}
	if len(refused) > 0 {
		return rep, modifiedError("uninstall", refused)
	}
	if opts.DryRun {
		return rep, nil
	}
	return rep, run(ctx, txns, opts)
}

// installedNames lists the names with a receipt in any of roots, sorted
// and without duplicates.
func installedNames(roots []rootInfo, dg *format.Digester, v *metaView) ([]string, error) {
	var out []string
	for _, ri := range roots {
		for _, n := range receiptNames(v, ri.path) {
			rec, _, _, err := current(v, ri.path, n, shapeDest(ri.path, n, ri.loc), ri.loc.Shape, dg)
			if isUnsafe(err) {
				return nil, err
			}
			if err == nil && rec != nil && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	slices.Sort(out)
	return out, nil
}
