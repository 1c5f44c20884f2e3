package source

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync/atomic"
	"testing/fstest"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/registry"
)

// This file serves a verified skill straight from its source tree
// (Options.InPlace): no copy of the skill is written before the install
// stages it into each destination.
//
// The skill is verified over a snapshot: every file is read once, through
// the tree's onceFS, into memory, and loaded, validated and digested from
// those bytes. The pinnedFS keeps the snapshot's bytes, up to a budget per
// source (pinnedBudget), and the install writes them: each file of the
// source is opened and read once per run, and the bytes installed are the
// bytes verified because they are the same bytes in memory.
//
// Past the budget only each file's size and digest are kept, and the
// install reads the files from the source again, through pinnedFS, which
// hands out only bytes whose digest is the one verified: a small file is
// read whole and checked before its first byte is returned, a large one is
// checked while it is copied and fails the read at its end, before the
// transaction that copies it can commit. A source that changes between the
// verification and the install then fails the install
// (ASK_INTEGRITY_MISMATCH); it can never get unverified bytes installed.

// pinnedWhole is the size up to which pinnedFS reads and checks a file
// before returning any of it; larger files are checked as they stream.
const pinnedWhole = 1 << 20

// pinnedBudget is how many bytes of verified files the packages read in
// place keep in memory for the install, all sources open at once
// together (as registry.Seal's budget for a registry's packages); the
// files past it are read again, and checked, when they are installed.
const pinnedBudget = 16 << 20

// budget is pinnedBudget, which tests lower to read past it; held is
// what the open sources' packages hold of it.
var budget, held atomic.Int64

func init() { budget.Store(pinnedBudget) }

// SetPinnedBudget sets how many bytes of verified files the packages read
// in place keep in memory (pinnedBudget), for the sources fetched until
// restore is called; 0 keeps none, so that the install reads and checks
// the source again. For tests that do not run in parallel with others.
func SetPinnedBudget(n int64) (restore func()) {
	budget.Store(n)
	return func() { budget.Store(pinnedBudget) }
}

// pinnedFS is a verified skill folder of a source, read in place. It
// serves exactly the package's files: each regular, mode 0644 (as the
// copy it replaces wrote them), and only with the bytes that were
// verified. Files made in memory (a synthesised skill.yaml) are served
// from memory.
type pinnedFS struct {
	// src is the source, open; when nil, each Open opens the folder
	// reopen as a treeFS of its own (see detach).
	src    *treeFS
	reopen string
	dir    string // the skill's folder in src ("" = the root)
	where  string // the source and folder, for messages
	files  map[string]pinnedFile
	mem    map[string][]byte
	// memSums are the digests of the files in mem (a synthesised
	// skill.yaml: one or none), so that the install hashes nothing.
	memSums [][2]string
	dirs    fstest.MapFS // the folder skeleton, for Stat and ReadDir of folders
}

// pinnedFile is what was verified of one file.
type pinnedFile struct {
	size   int64
	digest string // format.FileDigest of the raw bytes
	// data are the verified bytes, kept within the budget; nil past it.
	data []byte
}

// newPinnedFS pins the files of snap that the package keeps (files)
// to their sizes and digests (sums gives a file's digest, computed once
// per file); those in mem were made in memory. The bytes of each file are
// kept while keep(size) allows (it spends the source's budget); without
// them the file is read from the source again when it is installed.
func newPinnedFS(src *treeFS, dir, where string, snap fstest.MapFS, files []string, mem map[string][]byte, sums func(string) string, keep func(int64) bool) (*pinnedFS, error) {
	p := &pinnedFS{src: src, dir: dir, where: where, files: map[string]pinnedFile{}, mem: map[string][]byte{}, dirs: fstest.MapFS{}}
	for _, name := range files {
		f, ok := snap[name]
		if !ok {
			return nil, fmt.Errorf("source: %s is not in the snapshot", name)
		}
		if data, ok := mem[name]; ok {
			p.mem[name] = data
			p.memSums = append(p.memSums, [2]string{name, sums(name)})
		} else {
			pf := pinnedFile{size: int64(len(f.Data)), digest: sums(name)}
			if keep(pf.size) {
				pf.data = f.Data
			}
			p.files[name] = pf
		}
		p.dirs[name] = &fstest.MapFile{Mode: 0o644}
	}
	return p, nil
}

// detach makes p open the source folder root anew for each file instead
// of holding src open: a restore pins each skill of a collection through a
// tree of its own, and holding them all open until the install would need
// two descriptors per skill. Reopening by path is safe: whatever folder is
// found there, only bytes with the verified digests are handed out.
func (p *pinnedFS) detach(root string) {
	p.src, p.reopen = nil, root
}

// FileDigest returns the verified digest of the file name (as
// format.Digester.FileDigest gives it), without reading the file: the
// install records it in the receipt, and every read checks the bytes
// against it.
func (p *pinnedFS) FileDigest(name string) (string, bool) {
	if f, ok := p.files[name]; ok {
		return f.digest, true
	}
	for _, m := range p.memSums {
		if m[0] == name {
			return m[1], true
		}
	}
	return "", false
}

// Open opens the file or folder name of the package.
func (p *pinnedFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if data, ok := p.mem[name]; ok {
		return &memFile{Reader: bytes.NewReader(data), info: pinnedInfo{name: path.Base(name), size: int64(len(data))}}, nil
	}
	pf, ok := p.files[name]
	if !ok {
		return p.dirs.Open(name) // a folder, or fs.ErrNotExist
	}
	info := pinnedInfo{name: path.Base(name), size: pf.size}
	if pf.data != nil {
		return &memFile{Reader: bytes.NewReader(pf.data), info: info}, nil
	}
	src := p.src
	if src == nil {
		s, err := openTreeFS(p.reopen)
		if err != nil {
			return nil, p.changed(name, err.Error())
		}
		defer s.Close() // an open file outlives the folder's handles
		src = s
	}
	f, err := src.Open(join(p.dir, name))
	if err != nil {
		return nil, p.changed(name, err.Error())
	}
	if pf.size > pinnedWhole && name != format.ManifestFile && name != "SKILL.md" {
		return &pinnedReader{f: f, p: p, name: name, info: info, want: pf, h: sha256.New()}, nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, pf.size+1))
	if err != nil {
		return nil, p.changed(name, err.Error())
	}
	if int64(len(data)) != pf.size || format.BytesDigest(data) != pf.digest {
		return nil, p.changed(name, "its bytes are not the ones verified")
	}
	return &memFile{Reader: bytes.NewReader(data), info: info}, nil
}

// Stat returns the info of name without reading it.
func (p *pinnedFS) Stat(name string) (fs.FileInfo, error) {
	if data, ok := p.mem[name]; ok {
		return pinnedInfo{name: path.Base(name), size: int64(len(data))}, nil
	}
	if pf, ok := p.files[name]; ok {
		return pinnedInfo{name: path.Base(name), size: pf.size}, nil
	}
	return fs.Stat(p.dirs, name)
}

// ReadDir lists the folder name of the package.
func (p *pinnedFS) ReadDir(name string) ([]fs.DirEntry, error) {
	ents, err := fs.ReadDir(p.dirs, name)
	if err != nil {
		return nil, err
	}
	out := make([]fs.DirEntry, len(ents))
	for i, e := range ents {
		if e.IsDir() {
			out[i] = e
			continue
		}
		info, err := p.Stat(path.Join(name, e.Name()))
		if err != nil {
			return nil, err
		}
		out[i] = fs.FileInfoToDirEntry(info)
	}
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out, nil
}

// changed is the error for a file of the source that is not what was
// verified any more.
func (p *pinnedFS) changed(name, why string) error {
	return &askerr.Error{Code: registry.CodeIntegrityMismatch,
		Message: fmt.Sprintf("%s in %s changed after it was verified: %s", name, p.where, why),
		Detail:  []string{"Nothing was installed from it: the bytes installed are always the bytes verified."},
		Try:     []string{"install again once nothing is writing to the source", "if it keeps changing, find out what writes to it"}}
}

// pinnedReader streams a large pinned file, hashing what it reads; its
// last read fails when the bytes were not the ones verified.
type pinnedReader struct {
	f    fs.File
	p    *pinnedFS
	name string
	info pinnedInfo
	want pinnedFile
	h    hash.Hash
	n    int64
}

// Read reads from the source, failing at the end (or as soon as the file
// is longer than verified) when its bytes are not the verified ones.
func (r *pinnedReader) Read(b []byte) (int, error) {
	n, err := r.f.Read(b)
	r.h.Write(b[:n])
	r.n += int64(n)
	if r.n > r.want.size {
		return 0, r.p.changed(r.name, "it grew")
	}
	if err == io.EOF {
		if r.n != r.want.size || format.SumDigest(r.h.Sum(nil)) != r.want.digest {
			return n, r.p.changed(r.name, "its bytes are not the ones verified")
		}
	}
	return n, err
}

// Stat returns the pinned info.
func (r *pinnedReader) Stat() (fs.FileInfo, error) { return r.info, nil }

// Close closes the source file.
func (r *pinnedReader) Close() error { return r.f.Close() }

// memFile is a verified small file, served from memory.
type memFile struct {
	*bytes.Reader
	info pinnedInfo
}

// Stat returns the pinned info.
func (f *memFile) Stat() (fs.FileInfo, error) { return f.info, nil }

// Close does nothing.
func (f *memFile) Close() error { return nil }

// pinnedInfo is a pinned file's info: a regular file, mode 0644.
type pinnedInfo struct {
	name string
	size int64
}

func (i pinnedInfo) Name() string       { return i.name }
func (i pinnedInfo) Size() int64        { return i.size }
func (i pinnedInfo) Mode() fs.FileMode  { return 0o644 }
func (i pinnedInfo) ModTime() time.Time { return time.Time{} }
func (i pinnedInfo) IsDir() bool        { return false }
func (i pinnedInfo) Sys() any           { return nil }
