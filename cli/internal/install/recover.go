package install

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/format"
)

// Recover finishes or rolls back what an interrupted Install or Uninstall
// left in the roots of the selected agents: each pending receipt is
// resolved by looking at which version is actually in place (the receipt
// whose every file matches its digest wins), an old version renamed aside
// by the fallback path is put back when its destination is missing, and
// staging leftovers are removed. Install and Uninstall call it before
// anything else. The caller holds the scope's run lock (WithLock). With
// opts.DryRun it does nothing.
//
// It first checks every root (guard) and refuses with ASK_ROOT_UNSAFE,
// changing nothing, a root that a link in the project leads out of it, a
// link or a foreign file system in its .agent-skills metadata, or a
// pending receipt that names anything but its own package's place. It
// removes only staging entries of the names transactions give them.
func Recover(ctx context.Context, opts Options) error {
	if opts.DryRun {
		return nil
	}
	roots := scanRoots(&opts)
	if err := guard(&opts, roots); err != nil {
		return err
	}
	return recoverRoots(ctx, roots, format.NewDigester(), opts.meta())
}

// guard checks, before anything is read or written, that every root is
// safe to use: not led out of the project by a link in it (checkRoot),
// and with metadata this package could have written (checkMeta).
func guard(opts *Options, roots []rootInfo) error {
	for _, ri := range roots {
		if err := checkRoot(opts, ri.path); err != nil {
			return err
		}
		if err := checkMeta(ri, opts.meta()); err != nil {
			return err
		}
	}
	return nil
}

// checkRoot refuses a project root that a symbolic link inside the
// project makes resolve outside it. Roots outside the project (the home
// folder's, or a folder the user's configuration names) are the user's
// own choice and are not checked.
func checkRoot(opts *Options, root string) error {
	project := opts.Env.ProjectRoot
	if opts.Scope != agents.ScopeProject || project == "" || !within(project, root) {
		return nil
	}
	if _, esc := resolveBelow(project, root); esc != nil {
		return escapeError(root, project, esc)
	}
	return nil
}

// recoverRoots runs recoverRoot on each root and syncs the result.
func recoverRoots(ctx context.Context, roots []rootInfo, dg *format.Digester, v *metaView) error {
	var s syncer
	for _, ri := range roots {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := recoverRoot(ri, dg, &s, v); err != nil {
			return err
		}
	}
	return s.flush()
}

// recoverRoot resolves the pending receipts of one root, checked by
// guard, and clears its staging area.
func recoverRoot(ri rootInfo, dg *format.Digester, s *syncer, v *metaView) error {
	root := ri.path
	if _, err := os.Lstat(filepath.Join(root, metaDir)); err != nil {
		return nil
	}
	ents, err := v.entries(root)
	if err != nil {
		return ioError("read", receiptsDir(root), err)
	}
	var tmps []string
	for n := range ents {
		if tmpReceipt(n) {
			tmps = append(tmps, n)
		}
	}
	pending, runs, err := v.pending(root)
	if err != nil {
		return ioError("read", receiptsDir(root), err)
	}
	if len(tmps)+len(pending)+len(runs) > 0 {
		// What follows changes the folder: the view lists it again.
		v.writing()
		defer v.forget(root)
	}
	slices.Sort(tmps)
	for _, n := range tmps {
		// A receipt write interrupted before its rename.
		os.Remove(filepath.Join(receiptsDir(root), n))
	}
	for _, name := range pending {
		s.root(root)
		if err := resolvePending(ri, name, dg, v); err != nil {
			return err
		}
	}
	for _, n := range runs {
		// Every entry is settled (a torn journal names none).
		s.root(root)
		p := filepath.Join(receiptsDir(root), n)
		if err := removeFile(p); err != nil {
			return ioError("remove the pending receipts", p, err)
		}
	}
	return cleanStaging(root, s)
}

// resolvePending settles one pending receipt and removes it.
func resolvePending(ri rootInfo, name string, dg *format.Digester, v *metaView) error {
	root := ri.path
	dest := shapeDest(root, name, ri.loc)
	j, err := readJournal(v, root, name, dest, ri.loc.Shape)
	if err != nil {
		return err
	}
	if j != nil && j.Dest != "" {
		if j.Aside != "" {
			aside := filepath.Join(root, j.Aside)
			if _, err := os.Lstat(dest); errors.Is(err, fs.ErrNotExist) {
				if _, err := os.Lstat(aside); err == nil {
					if err := asideOK(aside); err != nil {
						return err
					}
					if err := os.Rename(aside, dest); err != nil {
						return ioError("restore", dest, err)
					}
				}
			}
		}
		rec, _, _, err := settled(v, root, name, j, dg)
		if err != nil {
			return ioError("read the receipt of", name, err)
		}
		p := receiptPath(root, name)
		old, _, _ := readReceiptIn(v, root, name)
		switch {
		case rec == nil:
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return ioError("remove the receipt", p, err)
			}
		case old == nil || !equalReceipt(old, rec):
			if err := writeReplace(p, encodeReceipt(rec)); err != nil {
				return ioError("write the receipt", p, err)
			}
		}
	}
	if err := os.Remove(pendingPath(root, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return ioError("remove the pending receipt", pendingPath(root, name), err)
	}
	return nil
}

// equalReceipt reports whether two receipts are identical.
func equalReceipt(a, b *receipt) bool {
	return string(encodeReceipt(a)) == string(encodeReceipt(b))
}

// settled returns the receipt that describes what is in place for name in
// root, without changing anything: with a pending journal j (checked by
// readJournal), its receipt when the new version's files are all there,
// otherwise the committed receipt — or none, for an uninstall whose files
// are gone. raw is the receipt file's bytes when that is the one
// returned, and pending tells whether a journal was consulted.
func settled(v *metaView, root, name string, j *journal, dg *format.Digester) (rec *receipt, raw []byte, pending bool, err error) {
	old, raw, err := readReceiptIn(v, root, name)
	if j == nil {
		return old, raw, false, err
	}
	if j.Dest == "" || !filepath.IsLocal(j.Dest) {
		return old, raw, true, err
	}
	dest := filepath.Join(root, j.Dest)
	if j.Receipt != nil {
		if matches(dest, j.Receipt.Shape, j.Receipt, dg) {
			return j.Receipt, nil, true, nil
		}
		return old, raw, true, err
	}
	if err == nil && old != nil && !anyPresent(dest, old.Shape, old) {
		return nil, nil, true, nil
	}
	return old, raw, true, err
}

// current is settled for the journal currently on disk, if any, for the
// package name whose destination in root is dest, of shape. A journal
// that names anything else is an error (ASK_ROOT_UNSAFE).
func current(v *metaView, root, name, dest string, shape agents.Shape, dg *format.Digester) (rec *receipt, raw []byte, pending bool, err error) {
	j, err := readJournal(v, root, name, dest, shape)
	if err != nil {
		return nil, nil, false, err
	}
	return settled(v, root, name, j, dg)
}

// shapeDest returns where the package name sits in a root of shape.
func shapeDest(root, name string, loc agents.Location) string {
	loc.Root = root
	return loc.Dest(name)
}
