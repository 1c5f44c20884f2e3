package install

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/atomicfile"
)

// txnKind is what a transaction does to one package in one root.
type txnKind uint8

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
type swapMode uint8

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
	// src, for a small file copied from fsys, holds its bytes while
	// several roots stage it (see sharedFile).
	src *sharedFile
}

// maxShared bounds the files whose bytes are read once for all the
// roots a package is staged into.
const maxShared = 256 << 10

// sharedFile is one small package file that several transactions (the
// package's roots) stage: it is read from the package's file system
// once, by whichever stages it first, and its bytes are dropped when the
// last one has written them, so that only the packages being staged hold
// any. A file staged into one root only is copied as it is read.
//
// The bytes are only written, never kept: they are read into a buffer
// from sharedBufs, which the last writer puts back, so that an install
// does not allocate each of its packages' files once more (at 10,000
// packages, about 180 MB the collector would otherwise go through).
type sharedFile struct {
	once sync.Once
	data []byte
	buf  *[]byte
	err  error
	// users counts the transactions that stage it; left those that have
	// not yet.
	users int
	left  atomic.Int32
}

// share counts t among the users of its shared files.
func (t *txn) share() {
	if t.kind != txnWrite {
		return
	}
	for _, f := range t.files {
		if f.src != nil {
			f.src.users++
			f.src.left.Add(1)
		}
	}
}

// bytes returns the file's bytes, reading them on first use, and whether
// it is shared at all; done must follow once they are written.
func (sf *sharedFile) bytes(fsys fs.FS, name string) ([]byte, bool, error) {
	if sf == nil || sf.users < 2 {
		return nil, false, nil
	}
	sf.once.Do(func() { sf.data, sf.buf, sf.err = readShared(fsys, name) })
	return sf.data, true, sf.err
}

// done drops the bytes once every user has written them, giving their
// buffer back.
func (sf *sharedFile) done() {
	if sf != nil && sf.left.Add(-1) == 0 {
		if sf.buf != nil {
			*sf.buf = sf.data[:0]
			sharedBufs.Put(sf.buf)
		}
		sf.data, sf.buf = nil, nil
	}
}

// sharedBufs are the buffers shared files are read into (readShared).
var sharedBufs sync.Pool

// readShared reads the file name of fsys as fs.ReadFile does, into a
// buffer from sharedBufs, which it returns with the bytes.
func readShared(fsys fs.FS, name string) ([]byte, *[]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	size := 0
	if info, err := f.Stat(); err == nil && info.Size() <= maxShared {
		size = int(info.Size())
	}
	bp, _ := sharedBufs.Get().(*[]byte)
	if bp == nil {
		bp = new([]byte)
	}
	if cap(*bp) < size+1 {
		*bp = make([]byte, 0, max(size+1, 32<<10))
	}
	data := (*bp)[:0]
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, bp, nil
		}
		if err != nil {
			*bp = data[:0]
			sharedBufs.Put(bp)
			return nil, nil, err
		}
	}
}

// maxMetaFile bounds a receipt or pending receipt read: a receipt lists
// one line per file, and a larger one was not written by agent-skills.
const maxMetaFile = 64 << 20

// errTooLarge is the error of a receipt larger than maxMetaFile.
var errTooLarge = errors.New("larger than any receipt agent-skills writes")

// txn is the transaction for one package in one root. Its steps are
// staged, pending, swapped and committed; undo reverses the steps taken.
//
// An install holds one per package and root until its commit (20,000 at
// 10,000 packages in two roots): the fields are ordered so that the small
// ones share one word, and the staging entries' paths are derived from a
// number (stagePath) rather than kept.
type txn struct {
	root  string
	name  string
	dest  string
	shape agents.Shape
	files []stagedFile
	// x holds what few transactions have (a move's origin, the user's
	// files carried over); nil for the others.
	x *txnExtra
	// rec is the receipt after the commit; nil for txnRemove, and once
	// the run journal holds it for a run too large to keep every receipt
	// (recOff).
	rec *receipt
	// oldReceipt is the receipt file's bytes before, nil when none.
	oldReceipt []byte
	// recOff and recN are where the receipt is in the root's run journal
	// (recN bytes from recOff), when rec was let go: the commit reads it
	// back from there. recN is 0 while rec is kept.
	recOff int64
	// sid names the staging entries once prepared (see stagePath).
	sid  uint64
	recN int32
	kind txnKind
	mode swapMode
	// keepRole takes rec's role from the existing receipt (Item.KeepRole).
	keepRole bool
	existed  bool
	// prepared says the staging entries are named (sid).
	prepared bool

	staged, pending, swapped, committed bool
}

// txnExtra is the part of a transaction that most have none of.
type txnExtra struct {
	// from is, for txnMove, the package's place before the move.
	from string
	// keep are the user's files (relative to dest) carried over.
	keep []string
}

// keeps returns the user's files carried over (txnExtra.keep).
func (t *txn) keeps() []string {
	if t.x == nil {
		return nil
	}
	return t.x.keep
}

// setKeep sets the user's files carried over.
func (t *txn) setKeep(keep []string) {
	if t.x == nil && keep == nil {
		return
	}
	t.extra().keep = keep
}

// fromPath returns a move's origin (txnExtra.from).
func (t *txn) fromPath() string {
	if t.x == nil {
		return ""
	}
	return t.x.from
}

// extra returns t.x, made on first use.
func (t *txn) extra() *txnExtra {
	if t.x == nil {
		t.x = &txnExtra{}
	}
	return t.x
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
	var b [8]byte
	_, _ = rand.Read(b[:])
	t.sid, t.prepared = binary.BigEndian.Uint64(b[:]), true
}

// stageName is the staged copy's name in its root's staging folder,
// <name>.<16 hex>.staged, with suffix in place of ".staged" when given.
func (t *txn) stageName(suffix string) string {
	var id [8]byte
	binary.BigEndian.PutUint64(id[:], t.sid)
	b := make([]byte, 0, len(t.name)+1+16+len(suffix))
	b = append(b, t.name...)
	b = append(b, '.')
	b = hex.AppendEncode(b, id[:])
	return string(append(b, suffix...))
}

// stagePath is the staged copy's place once prepared, "" before: derived
// from sid each time it is needed rather than kept, since an install
// holds every transaction until its commit and uses the path only to
// stage, swap and clean up.
func (t *txn) stagePath() string {
	if !t.prepared {
		return ""
	}
	return filepath.Join(stagingDir(t.root), t.stageName(".staged"))
}

// asidePath is where the old version goes, next to the staged copy.
func (t *txn) asidePath() string {
	if !t.prepared {
		return ""
	}
	return filepath.Join(stagingDir(t.root), t.stageName(".old"))
}

// destPath is where the installed package's file rel is.
func (t *txn) destPath(rel string) string {
	return filepath.Join(t.dest, filepath.FromSlash(rel))
}

// needsStage reports whether the transaction writes a staged copy.
func (t *txn) needsStage() bool {
	return t.kind == txnWrite || (t.kind == txnRemove && len(t.keeps()) > 0 && t.existed)
}

// doStage writes the new version into the staging area, through the
// root's staging folder that sd made and opened once for the run.
func (t *txn) doStage(ctx context.Context, s *syncer, sd *stageDirs) error {
	if !t.needsStage() {
		return nil
	}
	dir, err := sd.open(t.root)
	if err != nil {
		return err
	}
	s.root(t.root)
	t.staged = true
	return t.stageInto(ctx, dir, s)
}

// stagedPath is where the staged copy's file rel is, for messages and
// for the syncer.
func (t *txn) stagedPath(rel string) string {
	return filepath.Join(t.stagePath(), filepath.FromSlash(rel))
}

// stageDirs makes and opens each root's staging folder once per run, for
// the transactions that stage into it, on whichever goroutine comes first.
type stageDirs struct {
	mu   sync.Mutex
	dirs map[string]*stageDir
}

// stageDir is one root's staging folder, made (mkMeta) and opened.
type stageDir struct {
	once sync.Once
	err  error
	// fd is the folder opened without following a link (unix), or -1.
	fd int
}

// open returns the staging folder of root, made and opened on first use.
func (sd *stageDirs) open(root string) (*stageDir, error) {
	sd.mu.Lock()
	if sd.dirs == nil {
		sd.dirs = map[string]*stageDir{}
	}
	d := sd.dirs[root]
	if d == nil {
		d = &stageDir{fd: -1}
		sd.dirs[root] = d
	}
	sd.mu.Unlock()
	d.once.Do(func() {
		if d.err = mkMeta(root, "staging"); d.err == nil {
			d.fd, d.err = openDirFd(stagingDir(root))
		}
	})
	return d, d.err
}

// close closes every staging folder opened.
func (sd *stageDirs) close() {
	for _, d := range sd.dirs {
		closeFd(d.fd)
		d.fd = -1
	}
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

// appendEntry appends t's pending receipt as its root's run journal
// holds it — what json.Marshal gives for t's runEntry: the receipt to be
// (compact; the receipt file holds it indented), the destination and, for
// the rename-aside fallback, where the old version goes. It is encoded
// where the journal is written and kept nowhere: the commit encodes the
// receipt again (appendReceipt), which costs less than keeping the bytes
// of thousands of receipts from one step to the other.
func (t *txn) appendEntry(e []byte) []byte {
	e, _ = t.appendEntrySpan(e)
	return e
}

// appendEntrySpan is appendEntry, also returning where in e the receipt
// is (none: n is 0).
func (t *txn) appendEntrySpan(e []byte) ([]byte, journalSpan) {
	var span journalSpan
	dest, _ := filepath.Rel(t.root, t.dest)
	e = append(e, `{"name":`...)
	e = appendJSONString(e, t.name)
	e = append(e, `,"dest":`...)
	e = appendJSONString(e, dest)
	if t.rec != nil {
		e = append(e, `,"receipt":`...)
		start := len(e)
		e = appendReceipt(e, t.rec, false)
		span = journalSpan{off: int64(start), n: len(e) - start}
	}
	// Recovery renames the old version back only when the destination is
	// missing and the transaction meant something to be there.
	if t.existed && t.shape == agents.ShapeDirectory && t.needsStage() {
		aside, _ := filepath.Rel(t.root, t.asidePath())
		e = append(e, `,"aside":`...)
		e = appendJSONString(e, aside)
	}
	return append(e, '}'), span
}

// appendJSONString appends s as json.Marshal encodes a string: as it is,
// quoted, when it holds only printable ASCII that JSON and its HTML
// escaping leave alone (every name, path and digest agent-skills writes),
// otherwise through json.Marshal.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// The run journals: for each root, one file (receipts/.run-<16 hex>.pending)
// holding the pending receipt of every transaction of the run in that
// root — the journal recovery reads after a crash. A receipt-only
// transaction has one too: its receipt is rewritten over the old one
// through a rename that a power loss can leave pointing at a file whose
// bytes never reached the disk, and only the journal can give it back.
// One file per root, not one per package: each pending receipt was a file
// created before the swaps and removed after the commit.
//
// A journal is written as its transactions are staged, a batch at a time
// (journal), under a temporary name recovery removes as it removes an
// interrupted receipt write (.run.json.tmp-<16 hex>, see tmpReceipt), and
// renamed to its own name once complete (closeJournals), where the whole
// journal used to be written at once: after staging, before the flush that
// makes it and the staged copies durable, before any swap. So a run never
// holds more than a chunk of its journals, and a crash before that rename
// leaves no journal at all, as before; recovery still discards a journal
// that does not parse, which can only be one whose swaps never happened.
// Both names are created O_EXCL: nothing there is followed or overwritten.

// journalChunk is how many bytes of a run journal are written at once.
const journalChunk = 256 << 10

// journalSpan is where a receipt is in its run journal file.
type journalSpan struct {
	off int64
	n   int
}

// runJournalW is one root's run journal being written.
type runJournalW struct {
	tmp, final string
	f          *os.File
	buf        []byte
	// written counts the bytes written to f; entries the entries.
	written int64
	entries int
	// rd reads the receipts back at the commit (receiptFromJournal).
	rd  *bufio.Reader
	rf  *os.File
	pos int64
}

// journal appends the pending receipts of ts, just staged, to the run
// journals of their roots, creating each on first use. A receipt stays
// with its transaction while the run keeps at most metaKeep bytes of them
// (the receipts a view would keep after the commit); past that the
// transaction lets it go, and its commit reads it back from the journal.
func (m *madeDirs) journal(ts []*txn, s *syncer) error {
	for _, t := range ts {
		j, err := m.journalOf(t.root, s)
		if err != nil {
			return err
		}
		if j.entries > 0 {
			j.buf = append(j.buf, ',')
		}
		var span journalSpan
		j.buf, span = t.appendEntrySpan(j.buf)
		j.entries++
		if span.n > 0 {
			if m.recKept+span.n <= metaKeep {
				m.recKept += span.n
			} else {
				// span is in buf, which follows what was written.
				t.recOff, t.recN = j.written+span.off, int32(span.n)
				t.rec = nil
			}
		}
		if len(j.buf) >= journalChunk {
			if _, err := j.f.Write(j.buf); err != nil {
				return ioError("write the pending receipts", j.tmp, err)
			}
			j.written += int64(len(j.buf))
			j.buf = j.buf[:0]
		}
	}
	return nil
}

// journalOf returns root's run journal, created on first use (its
// receipts folder made first).
func (m *madeDirs) journalOf(root string, s *syncer) (*runJournalW, error) {
	if j := m.jw[root]; j != nil {
		return j, nil
	}
	if err := m.receipts(root); err != nil {
		return nil, err
	}
	s.root(root)
	id := newID()
	j := &runJournalW{
		tmp:   filepath.Join(receiptsDir(root), ".run.json.tmp-"+id),
		final: filepath.Join(receiptsDir(root), ".run-"+id+".pending"),
	}
	if m.journals == nil {
		m.journals, m.jw = map[string]string{}, map[string]*runJournalW{}
	}
	// Named before it is written: undoing removes a partial one.
	m.journals[root] = j.tmp
	f, err := os.OpenFile(j.tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		delete(m.journals, root)
		return nil, ioError("write the pending receipts", j.tmp, err)
	}
	j.f = f
	j.buf = make([]byte, 0, journalChunk+8<<10)
	j.buf = append(j.buf, `{"schemaVersion":`...)
	j.buf = strconv.AppendInt(j.buf, receiptSchema, 10)
	j.buf = append(j.buf, `,"entries":[`...)
	m.jw[root] = j
	m.jorder = append(m.jorder, root)
	return j, nil
}

// closeJournals completes each run journal and gives it its own name, in
// the order the roots were first journalled: the transactions have their
// pending receipts from then on.
func (m *madeDirs) closeJournals(txns []*txn, s *syncer) error {
	for _, root := range m.jorder {
		j := m.jw[root]
		if j.f == nil {
			continue
		}
		j.buf = append(j.buf, "]}"...)
		_, err := j.f.Write(j.buf)
		j.written += int64(len(j.buf))
		j.buf = nil
		if err == nil && 0o644&umask() != 0 {
			err = j.f.Chmod(0o644)
		}
		if cerr := j.f.Close(); err == nil {
			err = cerr
		}
		j.f = nil
		if err != nil {
			m.v.forget(root)
			return ioError("write the pending receipts", j.tmp, err)
		}
		if err := atomicfile.RenameNoReplace(j.tmp, j.final); err != nil {
			m.v.forget(root)
			return ioError("write the pending receipts", j.final, err)
		}
		m.journals[root] = j.final
		m.v.wroteRun(root, filepath.Base(j.final))
		s.root(root)
		s.add(j.final)
	}
	for _, t := range txns {
		t.pending = true
	}
	return nil
}

// receiptFromJournal reads back the receipt of t from its root's run
// journal (see journal): the journals are read forward, each once, since
// the commits go in the order the entries were written. The bytes are in
// m's read buffer, which the next call reuses: the commit indents them
// into the receipt file's encoding.
func (m *madeDirs) receiptFromJournal(t *txn) ([]byte, error) {
	j := m.jw[t.root]
	if j == nil || t.recOff < j.pos {
		return nil, errors.New("the run journal does not hold the receipt")
	}
	if j.rd == nil {
		f, err := os.OpenFile(j.final, os.O_RDONLY|oNoFollow, 0)
		if err != nil {
			return nil, err
		}
		j.rf, j.rd = f, bufio.NewReaderSize(f, 64<<10)
	}
	if _, err := j.rd.Discard(int(t.recOff - j.pos)); err != nil {
		return nil, err
	}
	if cap(m.rbuf) < int(t.recN) {
		m.rbuf = make([]byte, t.recN)
	}
	data := m.rbuf[:t.recN]
	if _, err := io.ReadFull(j.rd, data); err != nil {
		return nil, err
	}
	j.pos = t.recOff + int64(t.recN)
	return data, nil
}

// closeReaders closes the run journals read back.
func (m *madeDirs) closeReaders() {
	for _, j := range m.jw {
		if j.rf != nil {
			j.rf.Close()
			j.rf, j.rd = nil, nil
		}
		if j.f != nil {
			j.f.Close()
			j.f = nil
		}
	}
}

// madeDirs remembers, for one run, the roots whose receipts folder was
// made and checked (mkMeta), so that it is done once per root, not twice
// per transaction; v is the call's view of the receipts folders, which
// the run keeps up to date with what it writes.
type madeDirs struct {
	done map[string]bool
	v    *metaView
	// journals are the run journals written, by root: a temporary name
	// until complete (see journal).
	journals map[string]string
	jw       map[string]*runJournalW
	jorder   []string
	// recKept counts the bytes of the receipts transactions keep (journal).
	recKept int
	// buf is the receipt files' encoding buffer, reused by every commit;
	// rbuf the buffer receipts are read back from the run journals into.
	buf, rbuf []byte
}

// receipts makes root's receipts folder unless this run did already.
func (m *madeDirs) receipts(root string) error { return m.make(root, "receipts") }

// staging makes root's staging folder unless this run did already.
func (m *madeDirs) staging(root string) error { return m.make(root, "staging") }

func (m *madeDirs) make(root, sub string) error {
	key := filepath.Join(root, sub)
	if m.done[key] {
		return nil
	}
	if err := mkMeta(root, sub); err != nil {
		return err
	}
	if m.done == nil {
		m.done = map[string]bool{}
	}
	m.done[key] = true
	return nil
}

// writeReplace writes data to p through a temporary file renamed over it,
// so that p is never seen half-written. Durability is the syncer's job.
func writeReplace(p string, data []byte) error {
	tmp := filepath.Join(filepath.Dir(p), "."+filepath.Base(p)+".tmp-"+newID())
	if err := writeNew(tmp, data, 0o644); err != nil {
		removeFile(tmp)
		return err
	}
	if err := renameRaw(tmp, p); err != nil {
		removeFile(tmp)
		return err
	}
	return nil
}

// swap puts the staged version in place of the old one.
func (t *txn) swap(opts *Options, m *madeDirs) error {
	switch t.kind {
	case txnReceipt:
		return nil
	case txnMove:
		if err := atomicfile.RenameNoReplace(t.fromPath(), t.dest); err != nil {
			return ioError("rename", t.fromPath(), err)
		}
		t.mode, t.swapped = swapMoved, true
		return nil
	case txnRemove:
		if !t.existed {
			return nil
		}
		if !t.needsStage() {
			if err := m.staging(t.root); err != nil {
				return err
			}
			if err := os.Rename(t.dest, t.asidePath()); err != nil {
				return ioError("remove", t.dest, err)
			}
			t.mode, t.swapped = swapAway, true
			return nil
		}
	}
	stage := t.stagePath()
	// A staged transaction's root was made with its staging folder.
	if !t.staged || filepath.Dir(t.dest) != t.root {
		if err := os.MkdirAll(filepath.Dir(t.dest), 0o755); err != nil {
			return ioError("create", filepath.Dir(t.dest), err)
		}
	}
	switch {
	case !t.existed:
		if err := atomicfile.RenameNoReplace(stage, t.dest); err != nil {
			return ioError("install into", t.dest, err)
		}
		t.mode = swapPlain
	case t.shape == agents.ShapeFile:
		if err := carry(t.dest, t.asidePath()); err != nil {
			return ioError("keep the old version of", t.dest, err)
		}
		t.mode, t.swapped = swapFileHalf, true
		if err := hookAt(opts, PointMidSwap); err != nil {
			return err
		}
		if err := os.Rename(stage, t.dest); err != nil {
			return ioError("install into", t.dest, err)
		}
		t.mode = swapFileOver
	default:
		err := atomicfile.ErrExchangeUnsupported
		if !opts.noExchange {
			err = atomicfile.Exchange(stage, t.dest)
		}
		switch {
		case err == nil:
			t.mode = swapExchange
		case errors.Is(err, atomicfile.ErrExchangeUnsupported):
			if err := os.Rename(t.dest, t.asidePath()); err != nil {
				return ioError("move aside", t.dest, err)
			}
			// A crash here leaves the destination missing; the pending
			// receipt's aside lets recovery put the old version back.
			t.mode, t.swapped = swapHalf, true
			if err := hookAt(opts, PointMidSwap); err != nil {
				return err
			}
			if err := os.Rename(stage, t.dest); err != nil {
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
//
// While the pending receipt is on disk, recovery and Scan take the
// receipt from it whenever the new version's files are in place, which
// they are from the swap on: the receipt file itself is then only a copy
// that recovery rewrites if it is torn or missing. So a receipt where
// there was none is created in place (O_EXCL: nothing is followed, and
// nothing there is overwritten); one that replaces another still goes
// through a temporary file renamed over it, so that a receipt file is
// never written through, whatever it is linked to. A receipt-only
// transaction always replaces.
func (t *txn) commit(s *syncer, m *madeDirs) error {
	p := receiptPath(t.root, t.name)
	if t.rec == nil && t.recN == 0 {
		if t.oldReceipt != nil {
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				m.v.forget(t.root)
				return ioError("remove the receipt", p, err)
			}
			m.v.removed(t.root, t.name+".json")
		}
		t.committed = true
		s.root(t.root)
		return nil
	}
	if err := m.receipts(t.root); err != nil {
		return err
	}
	var data []byte
	if t.rec != nil {
		data = append(appendReceipt(m.buf[:0], t.rec, true), '\n')
	} else {
		compact, err := m.receiptFromJournal(t)
		if err != nil {
			return ioError("read the pending receipts of", t.name, err)
		}
		// The journal holds what json.Marshal gives: indented, it is
		// what encodeReceipt gives (json.MarshalIndent).
		b := bytes.NewBuffer(m.buf[:0])
		if err := json.Indent(b, compact, "", "  "); err != nil {
			return ioError("read the pending receipts of", t.name, err)
		}
		b.WriteByte('\n')
		data = b.Bytes()
	}
	m.buf = data
	t.committed = true
	err := errExist
	if t.pending && t.oldReceipt == nil {
		err = writeNew(p, data, 0o644)
	}
	if errors.Is(err, fs.ErrExist) {
		err = writeReplace(p, data)
	}
	if err != nil {
		m.v.forget(t.root)
		return ioError("write the receipt", p, err)
	}
	// The view keeps the receipt itself, while it keeps any (metaKeep):
	// nothing changes it after the commit. The transaction lets it go.
	m.v.wrote(t.root, t.name+".json", data, t.rec)
	t.rec = nil
	s.root(t.root)
	s.add(p)
	return nil
}

// errExist stands for a receipt that is to be replaced.
var errExist = fs.ErrExist

// cleanupAll removes what the committed transactions no longer need: the
// old versions, the run journals and empty staging folders. Each
// root's staging folder is opened once (openStaging) for the
// transactions that left something in it; one whose new version was
// renamed into an empty place left nothing there.
func cleanupAll(txns []*txn, m *madeDirs) error {
	var errs []error
	v := m.v
	for root, p := range m.journals {
		if err := removeFile(p); err != nil {
			errs = append(errs, err)
			v.forget(root)
		} else {
			v.removed(root, filepath.Base(p))
		}
	}
	byRoot := map[string][]*txn{}
	var order []string
	for _, t := range txns {
		if !t.prepared {
			continue
		}
		if _, ok := byRoot[t.root]; !ok {
			order = append(order, t.root)
		}
		if t.leftovers() {
			byRoot[t.root] = append(byRoot[t.root], t)
		} else {
			byRoot[t.root] = append(byRoot[t.root], nil)
		}
	}
	for _, root := range order {
		if slices.ContainsFunc(byRoot[root], func(t *txn) bool { return t != nil }) {
			r, err := openStaging(root)
			if err != nil || r == nil {
				errs = append(errs, err)
				continue
			}
			for _, t := range byRoot[root] {
				if t != nil {
					errs = append(errs, r.RemoveAll(t.stageName(".staged")), r.RemoveAll(t.stageName(".old")))
				}
			}
			r.Close()
		}
		os.Remove(stagingDir(root))
	}
	return errors.Join(errs...)
}

// leftovers reports whether a committed transaction may have left its
// staged copy or the old version in the staging folder: every one but a
// folder or file renamed into an empty place, or a move.
func (t *txn) leftovers() bool {
	switch t.mode {
	case swapPlain, swapMoved:
		return false
	case swapNone:
		return t.staged
	}
	return true
}

// removeStaging deletes the transaction's staging entries and, when it is
// empty, the staging folder, through removeStaged: a link is removed,
// never followed.
func removeStaging(t *txn) error {
	if !t.prepared {
		return nil
	}
	err := errors.Join(removeStaged(t.root, t.stagePath()), removeStaged(t.root, t.asidePath()))
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
		stage := t.stagePath()
		switch t.mode {
		case swapPlain:
			err = os.Rename(t.dest, stage)
		case swapExchange:
			err = atomicfile.Exchange(stage, t.dest)
		case swapAside:
			err = os.Rename(t.dest, stage)
			if err == nil {
				err = os.Rename(t.asidePath(), t.dest)
			}
		case swapFileOver, swapAway, swapHalf:
			err = os.Rename(t.asidePath(), t.dest)
		case swapFileHalf:
			err = os.Remove(t.asidePath())
		case swapMoved:
			err = os.Rename(t.dest, t.fromPath())
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
	// The run journal goes once every transaction of its root is undone
	// (run).
	if t.staged || t.mode != swapNone {
		errs = append(errs, removeStaging(t))
	}
	return errors.Join(errs...)
}
