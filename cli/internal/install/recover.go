package install

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/format"
)

// Recover finishes or rolls back what an interrupted Install or Uninstall
// left in the roots of the selected agents: each pending receipt is
// resolved by looking at which version is actually in place (the receipt
// whose every file matches its digest wins), an old version renamed aside
// by the fallback path is put back when its destination is missing, and
// staging leftovers are removed. Install and Uninstall call it under
// their lock before anything else; it takes the lock itself when
// opts.LockPath is set. With opts.DryRun it does nothing.
func Recover(ctx context.Context, opts Options) error {
	if opts.DryRun {
		return nil
	}
	return locked(ctx, &opts, func() error {
		return recoverRoots(ctx, allRoots(&opts), format.NewDigester())
	})
}

// locked runs fn under opts.LockPath, unless it is empty or the run is dry.
func locked(ctx context.Context, opts *Options, fn func() error) error {
	if opts.DryRun || opts.LockPath == "" {
		return fn()
	}
	return WithLock(ctx, opts.LockPath, fn)
}

// allRoots returns every root, sorted, that the selected agents read for
// any kind in the scope.
func allRoots(opts *Options) []string {
	var out []string
	for _, a := range opts.Agents {
		for _, k := range format.Kinds() {
			if _, ok := a.LocationFor(k, opts.Scope, opts.Env); !ok {
				continue
			}
			for _, r := range agents.Roots(a, k, opts.Scope, opts.Env) {
				if !slices.Contains(out, r.Path) {
					out = append(out, r.Path)
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// recoverRoots runs recoverRoot on each root and syncs the result.
func recoverRoots(ctx context.Context, roots []string, dg *format.Digester) error {
	var s syncer
	for _, root := range roots {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := recoverRoot(root, dg, &s); err != nil {
			return err
		}
	}
	return s.flush()
}

// recoverRoot resolves the pending receipts of one root and clears its
// staging area.
func recoverRoot(root string, dg *format.Digester, s *syncer) error {
	if _, err := os.Lstat(filepath.Join(root, metaDir)); err != nil {
		return nil
	}
	ents, err := os.ReadDir(receiptsDir(root))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return ioError("read", receiptsDir(root), err)
	}
	for _, e := range ents {
		n := e.Name()
		if strings.HasPrefix(n, ".") && strings.Contains(n, ".tmp-") {
			// A receipt write interrupted before its rename.
			os.Remove(filepath.Join(receiptsDir(root), n))
			continue
		}
		name, ok := strings.CutSuffix(n, ".json.pending")
		if !ok {
			continue
		}
		s.root(root)
		if err := resolvePending(root, name, dg); err != nil {
			return err
		}
	}
	stage := stagingDir(root)
	left, err := os.ReadDir(stage)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return ioError("read", stage, err)
	}
	for _, e := range left {
		s.root(root)
		if err := os.RemoveAll(filepath.Join(stage, e.Name())); err != nil {
			return ioError("clean", filepath.Join(stage, e.Name()), err)
		}
	}
	os.Remove(stage)
	return nil
}

// resolvePending settles one pending receipt and removes it.
func resolvePending(root, name string, dg *format.Digester) error {
	j := readJournal(root, name)
	if j != nil && filepath.IsLocal(j.Dest) {
		dest := filepath.Join(root, j.Dest)
		if j.Aside != "" && filepath.IsLocal(j.Aside) {
			aside := filepath.Join(root, j.Aside)
			if _, err := os.Lstat(dest); errors.Is(err, fs.ErrNotExist) {
				if _, err := os.Lstat(aside); err == nil {
					if err := os.Rename(aside, dest); err != nil {
						return ioError("restore", dest, err)
					}
				}
			}
		}
		rec, _, _, err := settled(root, name, j, dg)
		if err != nil {
			return ioError("read the receipt of", name, err)
		}
		p := receiptPath(root, name)
		old, _, _ := readReceipt(root, name)
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
// root, without changing anything: with a pending journal j, its receipt
// when the new version's files are all there, otherwise the committed
// receipt — or none, for an uninstall whose files are gone. raw is the
// receipt file's bytes when that is the one returned, and pending tells
// whether a journal was consulted.
func settled(root, name string, j *journal, dg *format.Digester) (rec *receipt, raw []byte, pending bool, err error) {
	old, raw, err := readReceipt(root, name)
	if j == nil {
		return old, raw, false, err
	}
	if !filepath.IsLocal(j.Dest) {
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

// current is settled for the journal currently on disk, if any.
func current(root, name string, dg *format.Digester) (rec *receipt, raw []byte, pending bool, err error) {
	return settled(root, name, readJournal(root, name), dg)
}

// shapeDest returns where the package name sits in a root of shape.
func shapeDest(root, name string, loc agents.Location) string {
	loc.Root = root
	return loc.Dest(name)
}
