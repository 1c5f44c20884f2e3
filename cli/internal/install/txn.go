package install

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agent-skills/agent-skills/agents"
)

// txnKind is what a transaction does to one package in one root.
type txnKind int

const (
	// txnWrite puts a new version in place, keeping the user's files.
	txnWrite txnKind = iota
	// txnRemove takes the package away, keeping the user's files.
	txnRemove
	// txnReceipt rewrites the receipt only: the files are unchanged.
	txnReceipt
	// txnMove renames a file-shaped package from one of its places to
	// the other (disabling or enabling it), unchanged.
	txnMove
)

// swapMode records how the new version replaced the old one, which is
// what undoing it needs to know.
type swapMode int

const (
	swapNone     swapMode = iota
	swapPlain             // nothing was there; renamed into place
	swapExchange          // RENAME_EXCHANGE: the old version is at stage
	swapAside             // the old version was renamed to aside first
	swapFileOver          // a file renamed over the old, kept as aside
	swapAway              // an uninstall renamed the package to aside
	swapHalf              // the old folder is aside, the new not yet in
	swapFileHalf          // the old file is kept as aside, still in place
	swapMoved             // a txnMove renamed the file from from to dest
)

// stagedFile is one file a write transaction stages.
type stagedFile struct {
	rel      string
	content  []byte
	fsys     fs.FS
	copyFrom string
	perm     fs.FileMode
	// from, when set, is an installed file carried into the staged copy
	// under the name rel (carry: a hard link where possible), for a
	// package that changes only its file names.
	from string
}

// txn is the transaction for one package in one root. Its steps are
// staged, pending, swapped and committed; undo reverses the steps taken.
type txn struct {
	kind  txnKind
	root  string
	name  string
	dest  string
	shape agents.Shape
	// from is, for txnMove, the package's place before the move.
	from  string
	files []stagedFile
	// keep are the user's files (relative to dest) carried over.
	keep []string
	// rec is the receipt after the commit; nil for txnRemove.
	rec *receipt
	// keepRole takes rec's role from the existing receipt (Item.KeepRole).
	keepRole bool
	// oldReceipt is the receipt file's bytes before, nil when none.
	oldReceipt []byte
	existed    bool

	id    string
	stage string
	aside string
	mode  swapMode

	staged, pending, swapped, committed bool
}

// newID returns a random name for staging entries.
func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// prepare names the transaction's staging entries. Staged files end in
// ".staged" and old ones in ".old" — never ".md", which Claude Code would
// list as a command even below a hidden folder.
func (t *txn) prepare() {
	t.id = t.name + "." + newID()
	base := filepath.Join(stagingDir(t.root), t.id)
	t.stage = base + ".staged"
	t.aside = base + ".old"
}

// needsStage reports whether the transaction writes a staged copy.
func (t *txn) needsStage() bool {
	return t.kind == txnWrite || (t.kind == txnRemove && len(t.keep) > 0 && t.existed)
}

// doStage writes the new version into the staging area.
func (t *txn) doStage(s *syncer) error {
	if !t.needsStage() {
		return nil
	}
	if err := mkMeta(t.root, "staging"); err != nil {
		return err
	}
	s.root(t.root)
	t.staged = true
	if t.shape == agents.ShapeFile {
		f := t.files[0]
		if err := writeStaged(t.stage, f); err != nil {
			return ioError("stage", t.stage, err)
		}
		s.add(t.stage)
		return nil
	}
	if err := os.Mkdir(t.stage, 0o755); err != nil {
		return ioError("stage", t.stage, err)
	}
	for _, f := range t.files {
		p := filepath.Join(t.stage, filepath.FromSlash(f.rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return ioError("stage", p, err)
		}
		if f.from != "" {
			if err := carry(f.from, p); err != nil {
				return ioError("stage", p, err)
			}
		} else if err := writeStaged(p, f); err != nil {
			return ioError("stage", p, err)
		}
		s.add(p)
	}
	for _, rel := range t.keep {
		from := filepath.Join(t.dest, filepath.FromSlash(rel))
		p := filepath.Join(t.stage, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return ioError("stage", p, err)
		}
		if err := carry(from, p); err != nil {
			return ioError("keep your file", from, err)
		}
		s.add(p)
	}
	return nil
}

// writeStaged writes one staged file, which must not exist yet.
func writeStaged(p string, f stagedFile) error {
	out, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if f.copyFrom != "" {
		in, err := f.fsys.Open(f.copyFrom)
		if err != nil {
			out.Close()
			return err
		}
		_, err = io.Copy(out, in)
		in.Close()
		if err != nil {
			out.Close()
			return err
		}
	} else if _, err := out.Write(f.content); err != nil {
		out.Close()
		return err
	}
	if err := out.Chmod(f.perm); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// carry puts the user's file from into the staged copy at to: a hard link
// when the file system allows it (the same bytes, no copy), otherwise a
// copy of a regular file or a new symbolic link with the same target.
func carry(from, to string) error {
	if err := os.Link(from, to); err == nil {
		return nil
	}
	info, err := os.Lstat(from)
	if err != nil {
		return err
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		target, err := os.Readlink(from)
		if err != nil {
			return err
		}
		return os.Symlink(target, to)
	}
	dir, base := filepath.Split(from)
	return writeStaged(to, stagedFile{fsys: os.DirFS(dir), copyFrom: base, perm: info.Mode().Perm()})
}

// writePending writes the pending receipt: the journal recovery reads
// after a crash.
func (t *txn) writePending(s *syncer) error {
	if t.kind == txnReceipt {
		return nil
	}
	j := journal{Receipt: t.rec}
	j.Dest, _ = filepath.Rel(t.root, t.dest)
	// Recovery renames the old version back only when the destination is
	// missing and the transaction meant something to be there.
	if t.existed && t.shape == agents.ShapeDirectory && t.needsStage() {
		j.Aside, _ = filepath.Rel(t.root, t.aside)
	}
	data, _ := json.MarshalIndent(j, "", "  ")
	if err := mkMeta(t.root, "receipts"); err != nil {
		return err
	}
	s.root(t.root)
	t.pending = true
	// Written in place: the swap waits until the syncer has made it
	// durable, and recovery discards a pending receipt that does not parse,
	// which can only be one whose swap never happened.
	p := pendingPath(t.root, t.name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		return ioError("write the pending receipt", p, err)
	}
	s.add(p)
	return nil
}

// writeReplace writes data to p through a temporary file renamed over it,
// so that p is never seen half-written. Durability is the syncer's job.
func writeReplace(p string, data []byte) error {
	tmp := filepath.Join(filepath.Dir(p), "."+filepath.Base(p)+".tmp-"+newID())
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, p); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// swap puts the staged version in place of the old one.
func (t *txn) swap(opts *Options) error {
	switch t.kind {
	case txnReceipt:
		return nil
	case txnMove:
		if err := renameNoReplace(t.from, t.dest); err != nil {
			return ioError("rename", t.from, err)
		}
		t.mode, t.swapped = swapMoved, true
		return nil
	case txnRemove:
		if !t.existed {
			return nil
		}
		if !t.needsStage() {
			if err := mkMeta(t.root, "staging"); err != nil {
				return err
			}
			if err := os.Rename(t.dest, t.aside); err != nil {
				return ioError("remove", t.dest, err)
			}
			t.mode, t.swapped = swapAway, true
			return nil
		}
	}
	if err := os.MkdirAll(filepath.Dir(t.dest), 0o755); err != nil {
		return ioError("create", filepath.Dir(t.dest), err)
	}
	switch {
	case !t.existed:
		if err := renameNoReplace(t.stage, t.dest); err != nil {
			return ioError("install into", t.dest, err)
		}
		t.mode = swapPlain
	case t.shape == agents.ShapeFile:
		if err := carry(t.dest, t.aside); err != nil {
			return ioError("keep the old version of", t.dest, err)
		}
		t.mode, t.swapped = swapFileHalf, true
		if err := hookAt(opts, PointMidSwap); err != nil {
			return err
		}
		if err := os.Rename(t.stage, t.dest); err != nil {
			return ioError("install into", t.dest, err)
		}
		t.mode = swapFileOver
	default:
		err := errExchangeUnsupported
		if !opts.noExchange {
			err = exchange(t.stage, t.dest)
		}
		switch {
		case err == nil:
			t.mode = swapExchange
		case errors.Is(err, errExchangeUnsupported):
			if err := os.Rename(t.dest, t.aside); err != nil {
				return ioError("move aside", t.dest, err)
			}
			// A crash here leaves the destination missing; the pending
			// receipt's aside lets recovery put the old version back.
			t.mode, t.swapped = swapHalf, true
			if err := hookAt(opts, PointMidSwap); err != nil {
				return err
			}
			if err := os.Rename(t.stage, t.dest); err != nil {
				return ioError("install into", t.dest, err)
			}
			t.mode = swapAside
		default:
			return ioError("install into", t.dest, err)
		}
	}
	t.swapped = true
	return nil
}

// commit writes (or for an uninstall removes) the receipt.
func (t *txn) commit(s *syncer) error {
	p := receiptPath(t.root, t.name)
	if t.rec == nil {
		if t.oldReceipt != nil {
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return ioError("remove the receipt", p, err)
			}
		}
		t.committed = true
		s.root(t.root)
		return nil
	}
	if err := mkMeta(t.root, "receipts"); err != nil {
		return err
	}
	t.committed = true
	if err := writeReplace(p, encodeReceipt(t.rec)); err != nil {
		return ioError("write the receipt", p, err)
	}
	s.root(t.root)
	s.add(p)
	return nil
}

// cleanup removes what a committed transaction no longer needs: the old
// version, the pending receipt and empty staging folders.
func (t *txn) cleanup() error {
	var errs []error
	if t.pending {
		if err := os.Remove(pendingPath(t.root, t.name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	errs = append(errs, removeStaging(t))
	return errors.Join(errs...)
}

// removeStaging deletes the transaction's staging entries and, when it is
// empty, the staging folder, through removeStaged: a link is removed,
// never followed.
func removeStaging(t *txn) error {
	if t.stage == "" {
		return nil
	}
	err := errors.Join(removeStaged(t.root, t.stage), removeStaged(t.root, t.aside))
	os.Remove(stagingDir(t.root))
	return err
}

// undo reverses every step taken, latest first, so that the root holds
// the old version and the old receipt again.
func (t *txn) undo(s *syncer) error {
	var errs []error
	if t.committed {
		p := receiptPath(t.root, t.name)
		var err error
		if t.oldReceipt != nil {
			err = writeReplace(p, t.oldReceipt)
		} else {
			err = os.Remove(p)
			if errors.Is(err, fs.ErrNotExist) {
				err = nil
			}
		}
		if err != nil {
			errs = append(errs, err)
		} else {
			t.committed = false
		}
	}
	if t.swapped {
		var err error
		switch t.mode {
		case swapPlain:
			err = os.Rename(t.dest, t.stage)
		case swapExchange:
			err = exchange(t.stage, t.dest)
		case swapAside:
			err = os.Rename(t.dest, t.stage)
			if err == nil {
				err = os.Rename(t.aside, t.dest)
			}
		case swapFileOver, swapAway, swapHalf:
			err = os.Rename(t.aside, t.dest)
		case swapFileHalf:
			err = os.Remove(t.aside)
		case swapMoved:
			err = os.Rename(t.dest, t.from)
		}
		if err != nil {
			errs = append(errs, err)
		} else {
			t.swapped = false
		}
	}
	s.root(t.root)
	if len(errs) > 0 {
		// Leave the pending receipt: the next run's recovery settles
		// whichever version is in place.
		return errors.Join(errs...)
	}
	if t.pending {
		if err := os.Remove(pendingPath(t.root, t.name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	if t.staged || t.mode != swapNone {
		errs = append(errs, removeStaging(t))
	}
	return errors.Join(errs...)
}
