package install

import (
	"encoding/json"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// Memo carries what one command learns of the receipts folders from one
// call of this package to the next: the entries of each root's receipts
// folder and the receipts and pending receipts read or written. A command
// that holds the run lock (WithLock) across several calls — an install,
// then the scans that settle skills.lock — passes one Memo in the
// Options of each, so that a later call reads nothing an earlier one read
// or wrote: the calls keep it up to date with everything they write, and
// nothing else writes below .agent-skills while the lock is held. Without
// a Memo, each call still reads each receipts folder once. A Memo is not
// for calls made without the run lock, nor across commands.
type Memo struct {
	v metaView
}

// NewMemo returns an empty Memo.
func NewMemo() *Memo { return &Memo{} }

// Forget drops what m knows, as a Memo that missed a write does: the
// next call given m lists the receipts folders afresh. A command calls it
// once it is done with the receipts, so as not to hold them (up to
// metaKeep bytes, with their decoded receipts) while it finishes.
func (m *Memo) Forget() {
	m.v.mu.Lock()
	defer m.v.mu.Unlock()
	m.v.roots, m.v.kept = nil, 0
}

// metaView is what one call (or one Memo) knows of each root's receipts
// folder: its entries, listed with one getdents, and the files read from
// it. A name the listing lacks is not there — no system call asks again —
// and a file is opened (O_NOFOLLOW, at most maxMetaFile) only when listed,
// and only once; a listed link is ASK_ROOT_UNSAFE without being opened.
// The transactions record what they write and remove (wrote, removed);
// anything unsure (an undo, a recovery that changed the folder) forgets
// the root, which is then listed afresh.
type metaView struct {
	mu    sync.Mutex
	roots map[string]*rootMeta
	// memo marks a Memo's view, valid only while gen is metaWrites.
	memo bool
	gen  uint64
	// listed and opened count the folders listed and the files opened
	// through the view, for tests.
	listed, opened int
	// kept counts the bytes of the files the view holds (metaKeep).
	kept int
}

// metaKeep bounds the bytes of receipts (and other receipts-folder files)
// one view keeps, read or written, with the receipts they decode to: an
// install of 1,000 packages into two roots keeps every receipt it wrote
// for the scans that follow, one of 10,000 keeps the first ones and the
// scans read the others from their files, checked as any file the view
// does not hold (a listed regular file, opened without following a link).
// Without a bound the view would hold every receipt of the run — tens of
// MiB — until the command ends.
var metaKeep = 3 << 19

// keep reports whether the view can hold n more bytes of root rm's files,
// and counts them if so.
func (v *metaView) keep(rm *rootMeta, n int) bool {
	if v.kept+n > metaKeep {
		return false
	}
	v.kept += n
	rm.kept += n
	return true
}

// drop forgets rm's file file, and its bytes.
func (v *metaView) drop(rm *rootMeta, file string) {
	if f, ok := rm.files[file]; ok {
		v.kept -= len(f.data)
		rm.kept -= len(f.data)
		delete(rm.files, file)
	}
}

// metaWrites counts the calls that wrote below any .agent-skills in this
// process. A Memo whose count is not the current one missed a write made
// without it (a call given no Memo, or another Memo) and starts afresh:
// only the writes of calls that share it keep it up to date.
var metaWrites atomic.Uint64

// sync empties a Memo's view that missed a write, at the start of a call.
func (v *metaView) sync() {
	v.mu.Lock()
	defer v.mu.Unlock()
	if g := metaWrites.Load(); v.gen != g {
		v.roots, v.gen, v.kept = nil, g, 0
	}
}

// writing records, before a call writes below .agent-skills, that it
// does: a Memo that saw every write so far stays valid, since the call
// keeps it up to date; any other is emptied by its next sync.
func (v *metaView) writing() {
	if v == nil || !v.memo {
		metaWrites.Add(1)
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if metaWrites.CompareAndSwap(v.gen, v.gen+1) {
		v.gen++
		return
	}
	v.roots, v.gen, v.kept = nil, metaWrites.Add(1), 0
}

// rootMeta is one root's receipts folder as listed and read.
type rootMeta struct {
	// ents maps each entry's name to its type bits (fs.FileMode.Type).
	ents map[string]fs.FileMode
	// files holds what was read or written, by entry name.
	files map[string]metaFile
	// runs are the entries of the run journals (isRunJournal) by package
	// name: each is what <name>.json.pending would hold, plus the name;
	// runOf names the journal file each is in.
	runs  map[string][]byte
	runOf map[string]string
	// kept counts the bytes of files (see metaView.keep).
	kept int
}

// runJournal is a run journal: the pending receipts of one run's
// transactions in one root, written as one file (see writeJournals).
type runJournal struct {
	SchemaVersion int               `json:"schemaVersion"`
	Entries       []json.RawMessage `json:"entries"`
}

// runEntry is one transaction's pending receipt in a run journal.
type runEntry struct {
	Name string `json:"name"`
	journal
}

// isRunJournal reports whether n is a run journal's name, as
// writeJournals gives them: .run-<16 hex digits>.pending.
func isRunJournal(n string) bool {
	id, ok := strings.CutPrefix(n, ".run-")
	if !ok {
		return false
	}
	id, ok = strings.CutSuffix(id, ".pending")
	return ok && isID(id)
}

// addRun records the entries of the run journal file, which holds data.
// A journal that does not parse is torn: it was being written before
// any swap of its run, so it names nothing to settle. Of two entries for
// one name, the first is kept; the other is never acted on.
func (rm *rootMeta) addRun(file string, data []byte) {
	var rj runJournal
	if json.Unmarshal(data, &rj) != nil {
		return
	}
	for _, raw := range rj.Entries {
		var e struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(raw, &e) != nil {
			continue
		}
		rm.addRunEntry(file, e.Name, raw)
	}
}

// addRunEntry records raw, the pending receipt of name in the run journal
// file, unless an earlier entry holds name.
func (rm *rootMeta) addRunEntry(file, name string, raw []byte) {
	if _, dup := rm.runs[name]; dup {
		return
	}
	if rm.runs == nil {
		rm.runs, rm.runOf = map[string][]byte{}, map[string]string{}
	}
	rm.runs[name], rm.runOf[name] = raw, file
}

// metaFile is one receipts-folder file's bytes, or why it could not be
// read.
type metaFile struct {
	data []byte
	err  error
	// rec is the receipt data decodes to, once decoded (or written).
	rec *receipt
}

// meta returns the view of the call, made on first use: the Memo's when
// the caller gave one.
func (o *Options) meta() *metaView {
	if o.mv == nil {
		if o.Memo != nil {
			o.mv = &o.Memo.v
			o.mv.memo = true
			o.mv.sync()
		} else {
			o.mv = &metaView{}
		}
	}
	return o.mv
}

// root returns root's listing, listing the folder on first use. It
// returns nil when the folder cannot be listed (other than missing): the
// callers then read the disk as they would without a view.
func (v *metaView) root(root string) *rootMeta {
	if rm := v.roots[root]; rm != nil {
		return rm
	}
	ents, err := os.ReadDir(receiptsDir(root))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	v.listed++
	rm := &rootMeta{ents: make(map[string]fs.FileMode, len(ents)), files: map[string]metaFile{}}
	for _, e := range ents {
		rm.ents[e.Name()] = e.Type()
	}
	for _, e := range ents {
		if isRunJournal(e.Name()) && e.Type()&fs.ModeSymlink == 0 {
			// Read without following a link; checkMeta refuses links.
			if data, err := readMetaFile(filepath.Join(receiptsDir(root), e.Name())); err == nil {
				v.opened++
				rm.addRun(e.Name(), data)
			}
		}
	}
	if v.roots == nil {
		v.roots = map[string]*rootMeta{}
	}
	v.roots[root] = rm
	return rm
}

// entries returns the names and types of root's receipts folder, and
// whether it could be listed (a missing folder is listed, empty).
func (v *metaView) entries(root string) (map[string]fs.FileMode, error) {
	if v == nil {
		return listTypes(root)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if rm := v.root(root); rm != nil {
		return rm.ents, nil
	}
	return listTypes(root)
}

// listTypes lists root's receipts folder without a view.
func listTypes(root string) (map[string]fs.FileMode, error) {
	ents, err := os.ReadDir(receiptsDir(root))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	out := make(map[string]fs.FileMode, len(ents))
	for _, e := range ents {
		out[e.Name()] = e.Type()
	}
	return out, nil
}

// read returns the bytes of the receipts-folder file file of root, like
// readMetaFile: fs.ErrNotExist when there is none, ASK_ROOT_UNSAFE for a
// link.
func (v *metaView) read(root, file string) ([]byte, error) {
	p := filepath.Join(receiptsDir(root), file)
	if v == nil {
		return readMetaFile(p)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	rm := v.root(root)
	if rm == nil {
		return readMetaFile(p)
	}
	typ, ok := rm.ents[file]
	if !ok {
		if name, pending := strings.CutSuffix(file, ".json.pending"); pending && rm.runs[name] != nil {
			return rm.runs[name], nil
		}
	}
	switch {
	case !ok:
		return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}
	case typ&fs.ModeSymlink != 0:
		return nil, linkError(p)
	}
	if f, ok := rm.files[file]; ok {
		return f.data, f.err
	}
	data, err := readMetaFile(p)
	v.opened++
	if v.keep(rm, len(data)) {
		rm.files[file] = metaFile{data: data, err: err}
	}
	return data, err
}

// wrote records that this run wrote data to root's receipts-folder file
// file (a regular file), keeping a copy of data while it keeps any
// (metaKeep); rec, when not nil, is the receipt data encodes, which the
// caller hands over and never changes again (a committed transaction's):
// the view keeps it as it is, not a copy, and hands out copies of it
// (decoded). Its dependencies, which the caller's Item may share, are
// copied.
func (v *metaView) wrote(root, file string, data []byte, rec *receipt) {
	if v == nil {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if rm := v.roots[root]; rm != nil {
		rm.ents[file] = 0
		v.drop(rm, file)
		if !v.keep(rm, len(data)) {
			return // read from the file when asked
		}
		f := metaFile{data: slices.Clone(data)}
		if rec != nil && roundTrips(rec) {
			if rec.Dependencies != nil {
				rec.Dependencies = maps.Clone(rec.Dependencies)
			}
			f.rec = rec
		}
		rm.files[file] = f
	}
}

// roundTrips reports whether r decodes from its JSON as it is: every
// string valid UTF-8 (JSON would replace the rest).
func roundTrips(r *receipt) bool {
	ok := func(ss ...string) bool {
		for _, s := range ss {
			if !utf8.ValidString(s) {
				return false
			}
		}
		return true
	}
	if !ok(r.Name, r.Version, string(r.Kind), string(r.Shape), r.Registry, r.Resolved, r.Integrity, string(r.Role), r.Source, r.Subpath, r.InstalledAt) {
		return false
	}
	for _, a := range r.Agents {
		if !ok(a) {
			return false
		}
	}
	for k, d := range r.Dependencies {
		if !ok(k, d) {
			return false
		}
	}
	for _, f := range r.Files {
		if !ok(f.Path, f.Digest, f.Mode) {
			return false
		}
	}
	return true
}

// decoded returns a copy of the receipt file decodes to, when the view
// has it: decoding a receipt costs more than reading it.
func (v *metaView) decoded(root, file string) (*receipt, bool) {
	if v == nil {
		return nil, false
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if rm := v.roots[root]; rm != nil && rm.files[file].rec != nil {
		return cloneReceipt(rm.files[file].rec), true
	}
	return nil, false
}

// decode records the receipt that file, as read through the view,
// decodes to.
func (v *metaView) decode(root, file string, rec *receipt) {
	if v == nil {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if rm := v.roots[root]; rm != nil {
		if f, ok := rm.files[file]; ok && f.err == nil {
			f.rec = cloneReceipt(rec)
			rm.files[file] = f
		}
	}
}

// removed records that this run removed root's receipts-folder file file.
func (v *metaView) removed(root, file string) {
	if v == nil {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if rm := v.roots[root]; rm != nil {
		delete(rm.ents, file)
		v.drop(rm, file)
		for name, f := range rm.runOf {
			if f == file {
				delete(rm.runs, name)
				delete(rm.runOf, name)
			}
		}
	}
}

// wroteRun records that this run wrote the run journal file to root's
// receipts folder. The view keeps none of its entries, nor its bytes (at
// 10,000 packages, tens of MiB): nothing reads them through the view
// before the run removes the journal (removed) or, failing, forgets the
// root; a reader of the journal file itself reads it from disk.
func (v *metaView) wroteRun(root, file string) {
	if v == nil {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if rm := v.roots[root]; rm != nil {
		rm.ents[file] = 0
	}
}

// pendingSource is the file the pending receipt of name in root is read
// from, for messages: its own, or the run journal that holds it.
func (v *metaView) pendingSource(root, name string) string {
	if v != nil {
		v.mu.Lock()
		defer v.mu.Unlock()
		if rm := v.roots[root]; rm != nil {
			if _, own := rm.ents[name+".json.pending"]; !own && rm.runOf[name] != "" {
				return filepath.Join(receiptsDir(root), rm.runOf[name])
			}
		}
	}
	return pendingPath(root, name)
}

// pending returns the names with a pending receipt in root — a
// <name>.json.pending file or an entry of a run journal — sorted, and the
// run journals' file names.
func (v *metaView) pending(root string) (names, runs []string, err error) {
	if v == nil {
		v = &metaView{}
	}
	ents, err := v.entries(root)
	if err != nil {
		return nil, nil, err
	}
	seen := map[string]bool{}
	for n := range ents {
		if name, ok := strings.CutSuffix(n, ".json.pending"); ok {
			seen[name] = true
		} else if isRunJournal(n) {
			runs = append(runs, n)
		}
	}
	v.mu.Lock()
	if rm := v.roots[root]; rm != nil {
		for name := range rm.runs {
			seen[name] = true
		}
	}
	v.mu.Unlock()
	names = slices.Sorted(maps.Keys(seen))
	slices.Sort(runs)
	return names, runs, nil
}

// forget drops what the view knows of root: the next use lists it again.
func (v *metaView) forget(root string) {
	if v == nil {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if rm := v.roots[root]; rm != nil {
		v.kept -= rm.kept
		delete(v.roots, root)
	}
}
