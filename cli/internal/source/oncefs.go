package source

import (
	"bytes"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/agent-skills/agent-skills/format"
)

// onceFS is a source tree (a treeFS) read once per run: each folder is
// listed once, each file opened and read once, and every later look at
// them — discovery's SKILL.md reads and Lstats, the sibling index, the
// walk of a skill that snapshots it, format.Load — is answered from what
// was read. Discovery, materialisation and validation all read the source
// through one onceFS; before it, a skill's SKILL.md was opened seven times
// and each folder listed four. It is safe for concurrent use and reads
// outside its lock (the skills of a source are materialised in
// parallel): two goroutines asking for one path at the same moment may
// both read it, and the first read kept is the one both are given.
//
// What it answers is what the treeFS gave when it was first asked, so the
// limits and refusals stay the treeFS's: no link is followed (a folder is
// listed, a file opened, by one openat2 that refuses every link on the
// way), a link or special file is reported as such, and anything the fast
// path does not handle — an error, a link, the root itself — is asked of
// the treeFS, which gives the exact error. A source that changes during
// the run is seen as it was first read: the bytes a skill is verified
// over are the bytes read here (see snapshotTree and pinnedFS), never
// read again.
//
// File bytes are kept only until the snapshot of their skill takes them
// (take), only for files of at most eagerRead bytes, and at most
// onceCache bytes in all; folders keep their listings (names and types)
// for the run.
type onceFS struct {
	t     *treeFS
	mu    sync.Mutex
	dirs  map[string]*listing // by path, "." for the root
	files map[string]*readOnce
	// cached is how many bytes of files files holds, at most onceCache.
	cached int64
	// entrypoints decodes the front matter of the SKILL.md files read
	// here, each once: discovery, the skill.yaml synthesised for a bare
	// skill and format.Load all decode it (see entrypointsOf); the skills
	// of a source are materialised in parallel, and the cache is safe for
	// that.
	entrypoints format.EntrypointCache
}

// entrypointsOf returns the entrypoint cache of fsys when it is a onceFS,
// and nil (decode without one) otherwise.
func entrypointsOf(fsys fs.FS) *format.EntrypointCache {
	if o, ok := fsys.(*onceFS); ok {
		return &o.entrypoints
	}
	return nil
}

// onceCache bounds the bytes a onceFS holds between the read of a file
// and the snapshot that takes them: discovery reads every skill's SKILL.md
// before any skill is snapshot, and a source may offer a thousand of a
// megabyte each. Past it a file's bytes are not kept, and it is opened
// again when it is read.
var onceCache int64 = 16 << 20 // a variable for the tests

// eagerRead is the size up to which a file is read whole when it is
// first looked at (a Stat, an Lstat or a directory entry's Info): a skill's
// files are small, and the read that gives the size also gives the bytes.
// Larger files are stat'ed then, and opened again when they are read.
const eagerRead = 1 << 20

// listing is one folder's entries, sorted by name.
type listing struct {
	ents []onceEntry
	err  error
}

// readOnce is what was read of one regular file: its info, and its bytes
// until they are taken (nil for a file over eagerRead).
type readOnce struct {
	info fs.FileInfo
	data []byte
}

// newOnceFS reads t once.
func newOnceFS(t *treeFS) *onceFS {
	return &onceFS{t: t, dirs: map[string]*listing{}, files: map[string]*readOnce{}}
}

// Close closes the tree.
func (s *onceFS) Close() error { return s.t.Close() }

// list returns the listing of the folder name (".", or a valid path),
// listing it on first use.
func (s *onceFS) list(name string) *listing {
	s.mu.Lock()
	l, ok := s.dirs[name]
	s.mu.Unlock()
	if ok {
		return l
	}
	// Listed outside the lock, so that the skills materialised in
	// parallel read their folders in parallel; the first listing kept is
	// the one every caller sees.
	return s.keepListing(name, s.listNow(name))
}

// listNow lists the folder name from the treeFS.
func (s *onceFS) listNow(name string) *listing {
	l := &listing{}
	bp := getdentsBufs.Get().(*[]byte)
	raw, ok := s.t.listRaw(name, bp)
	getdentsBufs.Put(bp)
	if !ok {
		ents, err := s.t.ReadDir(name)
		if err != nil {
			l.err = err
			return l
		}
		raw = make([]rawEntry, len(ents))
		for i, e := range ents {
			raw[i] = rawEntry{name: e.Name(), typ: e.Type()}
		}
	}
	slices.SortFunc(raw, func(a, b rawEntry) int { return strings.Compare(a.name, b.name) })
	l.ents = make([]onceEntry, len(raw))
	for i, r := range raw {
		l.ents[i] = onceEntry{s: s, dir: name, name: r.name, typ: r.typ}
	}
	return l
}

// keepListing remembers l as the listing of name, unless another was
// remembered first, which it returns instead.
func (s *onceFS) keepListing(name string, l *listing) *listing {
	s.mu.Lock()
	defer s.mu.Unlock()
	if first, ok := s.dirs[name]; ok {
		return first
	}
	s.dirs[name] = l
	return l
}

// getdentsBufs are the buffers folders are listed through.
var getdentsBufs = sync.Pool{New: func() any { return new([]byte) }}

// entry finds name in its folder's listing: ok is false when the folder
// cannot be listed (the caller asks the treeFS for the exact error), and
// found false when the folder has no such entry.
func (s *onceFS) entry(name string) (e onceEntry, found, ok bool) {
	return s.entryIn(name, true)
}

// entryIn is entry; without list, a folder not listed yet is not listed
// for it (ok is false).
func (s *onceFS) entryIn(name string, list bool) (e onceEntry, found, ok bool) {
	dir, base := path.Split(name)
	dir = strings.TrimSuffix(dir, "/")
	if dir == "" {
		dir = "."
	}
	if !list && !s.listed(dir) {
		return onceEntry{}, false, false
	}
	l := s.list(dir)
	if l.err != nil {
		return onceEntry{}, false, false
	}
	i, found := slices.BinarySearchFunc(l.ents, base, func(e onceEntry, n string) int { return strings.Compare(e.name, n) })
	if !found {
		return onceEntry{}, false, true
	}
	return l.ents[i], true, true
}

// listed reports whether the folder name was listed without an error.
func (s *onceFS) listed(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, ok := s.dirs[name]
	return ok && l.err == nil
}

// file returns what was read of the regular file name, reading it on
// first use; ok is false when the fast read did not work (the caller
// asks the treeFS).
func (s *onceFS) file(name string) (*readOnce, bool) {
	s.mu.Lock()
	r, ok := s.files[name]
	s.mu.Unlock()
	if ok {
		return r, true
	}
	// Read outside the lock, as list lists; the first read kept is the
	// one every caller sees.
	info, data, ok := s.t.readRaw(name, eagerRead)
	if !ok {
		info, data, ok = s.t.readChecked(name, eagerRead)
	}
	if !ok || info == nil {
		return nil, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if r, ok := s.files[name]; ok {
		return r, true
	}
	if s.cached+int64(len(data)) > onceCache {
		data = nil
	}
	s.cached += int64(len(data))
	r = &readOnce{info: info, data: data}
	s.files[name] = r
	return r, true
}

// lstat answers Stat and Lstat for a path that its folder lists as a
// folder or regular file, or that is a folder listed itself (its
// listing's openat2 refused every link on the way: a Stat of a skill
// folder, as a restore makes, does not list the hundreds of folders
// beside it); ok is false otherwise.
func (s *onceFS) lstat(name string) (fs.FileInfo, error, bool) {
	if name == "." || !fs.ValidPath(name) {
		return nil, nil, false
	}
	e, found, ok := s.entryIn(name, false)
	if !ok {
		if s.listed(name) {
			return dirInfo(path.Base(name)), nil, true
		}
		e, found, ok = s.entry(name)
	}
	switch {
	case !ok:
		return nil, nil, false
	case !found:
		return nil, &fs.PathError{Op: "lstat", Path: name, Err: syscall.ENOENT}, true
	case e.typ.IsDir():
		return dirInfo(e.name), nil, true
	case !e.typ.IsRegular():
		return nil, nil, false
	}
	r, ok := s.file(name)
	if !ok {
		return nil, nil, false
	}
	return r.info, nil, true
}

// Stat returns the info of name; a link anywhere on the way, the last
// element included, is refused as treeFS.Stat refuses it.
func (s *onceFS) Stat(name string) (fs.FileInfo, error) {
	if info, err, ok := s.lstat(name); ok {
		if err != nil {
			err.(*fs.PathError).Op = "stat"
		}
		return info, err
	}
	return s.t.Stat(name)
}

// Lstat returns the info of name, which may be a link.
func (s *onceFS) Lstat(name string) (fs.FileInfo, error) {
	if info, err, ok := s.lstat(name); ok {
		return info, err
	}
	return s.t.Lstat(name)
}

// entryType returns the type of name as its folder lists it (a link is a
// link), without reading or stat'ing it: discovery only needs to know
// whether a SKILL.md is a regular file.
func (s *onceFS) entryType(name string) (fs.FileMode, error) {
	if fs.ValidPath(name) && name != "." {
		e, found, ok := s.entry(name)
		switch {
		case ok && !found:
			return 0, &fs.PathError{Op: "lstat", Path: name, Err: syscall.ENOENT}
		case ok:
			return e.typ, nil
		}
	}
	info, err := s.t.Lstat(name)
	if err != nil {
		return 0, err
	}
	return info.Mode().Type(), nil
}

// ReadDir lists the folder name, sorted.
func (s *onceFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	l := s.list(name)
	if l.err != nil {
		return nil, l.err
	}
	out := make([]fs.DirEntry, len(l.ents))
	for i, e := range l.ents {
		out[i] = e
	}
	return out, nil
}

// ReadFile returns the bytes of the file name.
func (s *onceFS) ReadFile(name string) ([]byte, error) {
	data, _, err := s.read(name, false, -1)
	return data, err
}

// take returns the bytes and info of the regular file name, at most size
// bytes of it (the size its limits were checked on), and forgets the
// bytes: the snapshot of its skill holds them now.
func (s *onceFS) take(name string, size int64) ([]byte, fs.FileInfo, error) {
	return s.read(name, true, size)
}

// read returns the bytes of name — what was read of it when it is a
// regular file read whole, else read through the treeFS, at most limit
// bytes when limit is not negative — and forgets them when take is set.
func (s *onceFS) read(name string, take bool, limit int64) ([]byte, fs.FileInfo, error) {
	if info, err, ok := s.lstat(name); ok && err != nil {
		err.(*fs.PathError).Op = "open"
		return nil, nil, err
	} else if ok && !info.IsDir() {
		s.mu.Lock()
		r := s.files[name]
		data := r.data
		if take {
			r.data = nil
			s.cached -= int64(len(data))
		}
		s.mu.Unlock()
		if data != nil {
			if limit >= 0 && int64(len(data)) > limit {
				data = data[:limit]
			}
			return data, r.info, nil
		}
	}
	f, err := s.t.Open(name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if limit < 0 || limit > info.Size() {
		limit = info.Size()
	}
	data := make([]byte, limit)
	n, err := io.ReadFull(f, data)
	if err == io.ErrUnexpectedEOF {
		err = nil
	}
	return data[:n], info, err
}

// Open opens name: a file read whole is served from memory.
func (s *onceFS) Open(name string) (fs.File, error) {
	if info, err, ok := s.lstat(name); ok && err == nil && !info.IsDir() && info.Size() <= eagerRead {
		data, info, err := s.read(name, false, -1)
		if err != nil {
			return nil, err
		}
		return &onceFile{Reader: bytes.NewReader(data), info: info}, nil
	}
	return s.t.Open(name)
}

// ReadLink returns the target of the link name.
func (s *onceFS) ReadLink(name string) (string, error) { return s.t.ReadLink(name) }

// onceEntry is an entry of a listing.
type onceEntry struct {
	s         *onceFS
	dir, name string
	typ       fs.FileMode
}

func (e onceEntry) Name() string      { return e.name }
func (e onceEntry) IsDir() bool       { return e.typ.IsDir() }
func (e onceEntry) Type() fs.FileMode { return e.typ }

// Info is the entry's Lstat.
func (e onceEntry) Info() (fs.FileInfo, error) {
	if e.dir == "." {
		return e.s.Lstat(e.name)
	}
	return e.s.Lstat(e.dir + "/" + e.name)
}

// String renders the entry as fs.FormatDirEntry does.
func (e onceEntry) String() string { return fs.FormatDirEntry(e) }

// onceFile is a file served from what was read.
type onceFile struct {
	*bytes.Reader
	info fs.FileInfo
}

func (f *onceFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *onceFile) Close() error               { return nil }

// dirInfo is the info of a folder as its parent lists it: the listing
// gives its type, not its mode bits or times, and nothing reads them (a
// folder is made 0755 wherever it is installed).
type dirInfo string

func (d dirInfo) Name() string       { return string(d) }
func (d dirInfo) Size() int64        { return 0 }
func (d dirInfo) Mode() fs.FileMode  { return fs.ModeDir | 0o755 }
func (d dirInfo) ModTime() time.Time { return time.Time{} }
func (d dirInfo) IsDir() bool        { return true }
func (d dirInfo) Sys() any           { return nil }

// rawEntry is a folder entry as the kernel lists it.
type rawEntry struct {
	name string
	typ  fs.FileMode
}

// readChecked is readRaw through the checked treeFS: the file is opened
// once, stat'ed on its descriptor and, up to max bytes, read whole.
func (t *treeFS) readChecked(name string, max int64) (fs.FileInfo, []byte, bool) {
	f, err := t.Open(name)
	if err != nil {
		return nil, nil, false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return nil, nil, false
	}
	if info.Size() > max {
		return info, nil, true
	}
	data := make([]byte, info.Size())
	n, err := io.ReadFull(f, data)
	if err != nil && err != io.ErrUnexpectedEOF {
		return nil, nil, false
	}
	return sizedInfo{info, int64(n)}, data[:n], true
}

// sizedInfo is a file's info with the size of the bytes read of it.
type sizedInfo struct {
	fs.FileInfo
	size int64
}

func (i sizedInfo) Size() int64 { return i.size }

// readHook, when set, is called for every open of a source's file or
// folder for reading (op "open") through a treeFS or onceFS, with its
// path on disk.
var readHook atomic.Pointer[func(op, name string)]

// SetReadHook makes every open of a source's file or folder for reading
// call f with "open" and its path, and returns a function that removes
// it. Tests count opens with it ("each source file is opened once per
// run"); f must be safe for concurrent use.
func SetReadHook(f func(op, name string)) (restore func()) {
	readHook.Store(&f)
	return func() { readHook.Store(nil) }
}

// countRead reports an open of name (a path inside t) to the hook.
func (t *treeFS) countRead(op, name string) {
	if f := readHook.Load(); f != nil {
		(*f)(op, t.root.Name()+"/"+name)
	}
}
