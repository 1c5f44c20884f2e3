package registry

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"testing/fstest"
	"time"

	"github.com/agent-skills/agent-skills/format"
)

// HeldBytes returns how many payload bytes the snapshot pkg holds in
// memory; 0 for a package that is not a snapshot or is sealed.
func HeldBytes(pkg *format.Package) int64 {
	m, ok := pkg.FS.(*snapshotFS)
	if !ok {
		return 0
	}
	var n int64
	for _, f := range m.MapFS {
		n += int64(len(f.Data))
	}
	return n
}

// Seal returns a copy of the snapshot pkg that no longer holds the bytes
// of its files in memory, for a caller that keeps many packages until it
// installs them: skill.yaml and the entrypoint stay in memory; every other
// file is read again, when it is opened, from where the snapshot read it
// (the registry's folder or the payload cache), and checked as it is read
// against the digest the verification computed. A file whose bytes are no
// longer those fails the read, at its end and before the reader sees
// io.EOF, with ASK_INTEGRITY_MISMATCH, so what is installed from a sealed
// package is still exactly what was verified. A package that is not a
// snapshot is returned unchanged.
func Seal(pkg *format.Package, name, version string) *format.Package {
	s := sealFS(pkg, name, version, strings.Clone)
	if s == nil {
		return pkg
	}
	out := *pkg
	out.FS = s
	return &out
}

// sealFS is the payload of the snapshot pkg, sealed; nil when pkg is not a
// snapshot. The paths it keeps are copies made by own (a caller sealing
// thousands of packages shares one copy of each path among them): a path
// the loader found may be a slice of the decoded skill.yaml, which the
// seal would otherwise keep whole for each package.
func sealFS(pkg *format.Package, name, version string, own func(string) string) *sealedFS {
	m, ok := pkg.FS.(*snapshotFS)
	if !ok {
		return nil
	}
	s := &sealedFS{src: m.src, name: name, version: version, files: make([]sealedEntry, 0, len(m.MapFS))}
	for p, f := range m.MapFS {
		e := sealedEntry{path: own(p), size: int64(len(f.Data)), sum: rawSum(m.sums[p])}
		if p == format.ManifestFile || p == pkg.EntrypointFile {
			e.data = f.Data
		}
		s.files = append(s.files, e)
	}
	slices.SortFunc(s.files, func(a, b sealedEntry) int { return strings.Compare(a.path, b.path) })
	return s
}

// load decodes the sealed package again from the bytes it holds: the same
// bytes the verification loaded, so the same package, decoded afresh
// (positions included) for a caller that validates it. Only skill.yaml and
// the entrypoint are read, both from memory; nothing is digested again.
func (s *sealedFS) load() (*format.Package, error) {
	pkg, _, err := loadChecked(s, s.name, s.version)
	if err != nil {
		return nil, err
	}
	// The loader's paths may be slices of the decoded skill.yaml; a
	// caller that keeps them (an installer's plan) would keep that whole.
	// The seal's copies are the same strings.
	for i, p := range pkg.Files {
		if e, ok := s.file(p); ok {
			pkg.Files[i] = e.path
		}
	}
	if e, ok := s.file(pkg.EntrypointFile); ok {
		pkg.EntrypointFile = e.path
	}
	return pkg, nil
}

// Reloader returns, for a sealed snapshot (Seal), the function that
// decodes it again from the verified bytes its seal holds — skill.yaml and
// the entrypoint, read from memory, nothing digested again — so that a
// caller holding thousands of packages until it installs them keeps only
// the seals and not their decoded manifests; nil for any other package.
// The package it returns is sealed over the same seal.
func Reloader(pkg *format.Package) func() (*format.Package, error) {
	s, ok := pkg.FS.(*sealedFS)
	if !ok {
		return nil
	}
	return s.load
}

// Sealed reports whether pkg is a sealed snapshot (Seal).
func Sealed(pkg *format.Package) bool {
	_, ok := pkg.FS.(*sealedFS)
	return ok
}

// sealedFS is a sealed snapshot's payload. Its files are a slice sorted
// by path rather than a map: a run holds one per package past the budget,
// thousands of them.
type sealedFS struct {
	src           fs.FS
	name, version string
	files         []sealedEntry
}

// sealedEntry is one file: its path, size and digest, and its bytes when
// kept. The digest is kept as its 32 bytes, not as the 51-character text
// the verification wrote (a 10,000-package install keeps 30,000).
type sealedEntry struct {
	path string
	data []byte
	size int64
	sum  [sha256.Size]byte // zero when unknown
}

// rawSum returns the SHA-256 sum a digest "sha256-<base64>" spells, or
// zero for anything else.
func rawSum(digest string) (sum [sha256.Size]byte) {
	b64, ok := strings.CutPrefix(digest, "sha256-")
	if !ok || base64.StdEncoding.DecodedLen(len(b64)) < sha256.Size {
		return sum
	}
	var buf [sha256.Size + 2]byte
	if n, err := base64.StdEncoding.Decode(buf[:], []byte(b64)); err != nil || n != sha256.Size {
		return sum
	}
	copy(sum[:], buf[:sha256.Size])
	return sum
}

// file returns the entry of the file at name.
func (s *sealedFS) file(name string) (sealedEntry, bool) {
	i, ok := slices.BinarySearchFunc(s.files, name, func(e sealedEntry, name string) int { return strings.Compare(e.path, name) })
	if !ok {
		return sealedEntry{}, false
	}
	return s.files[i], true
}

// FileDigest returns the digest the verification computed of the file at
// name (as format.FileDigest), so that the installer records it without
// reading the file once more; not for skill.yaml, whose verified digest
// is of its bytes without the integrity line.
func (s *sealedFS) FileDigest(name string) (string, bool) {
	e, ok := s.file(name)
	if !ok || name == format.ManifestFile || e.sum == ([sha256.Size]byte{}) {
		return "", false
	}
	return format.SumDigest(e.sum[:]), true
}

// Open opens a file of the package; a folder is the listing of the files
// below it.
func (s *sealedFS) Open(name string) (fs.File, error) {
	e, ok := s.file(name)
	if !ok {
		return s.shape().Open(name)
	}
	info := sealedInfo{name: path.Base(name), size: e.size}
	if e.data != nil {
		return &sealedFile{info: info, r: &memReader{data: e.data}, left: e.size}, nil
	}
	f, err := s.src.Open(name)
	if err != nil {
		return nil, err
	}
	return &sealedFile{info: info, r: f, c: f, h: sha256.New(), want: e.sum, left: e.size, fsys: s, path: name}, nil
}

// Stat describes a file as the snapshot recorded it, or a folder of the
// package.
func (s *sealedFS) Stat(name string) (fs.FileInfo, error) {
	if e, ok := s.file(name); ok {
		return sealedInfo{name: path.Base(name), size: e.size}, nil
	}
	if _, ok := s.below(name); ok && fs.ValidPath(name) {
		return sealedDirInfo(path.Base(name)), nil
	}
	return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
}

// ReadDir lists a folder of the package, sorted by name: its files as
// Stat describes them, and its folders. Listed from the sorted files
// themselves, not from a tree built for the call: the loader lists and
// checks the folders of every package it decodes again, 10,000 of them
// in a large install.
func (s *sealedFS) ReadDir(name string) ([]fs.DirEntry, error) {
	files, ok := s.below(name)
	if !ok || !fs.ValidPath(name) {
		if _, isFile := s.file(name); isFile {
			return nil, &fs.PathError{Op: "readdir", Path: name, Err: errors.New("not a directory")}
		}
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	prefix := ""
	if name != "." {
		prefix = name + "/"
	}
	var out []fs.DirEntry
	for _, e := range files {
		child, _, isDir := strings.Cut(e.path[len(prefix):], "/")
		if isDir {
			// The files below one folder are adjacent in path order.
			if n := len(out); n > 0 && out[n-1].Name() == child && out[n-1].IsDir() {
				continue
			}
			out = append(out, fs.FileInfoToDirEntry(sealedDirInfo(child)))
			continue
		}
		out = append(out, fs.FileInfoToDirEntry(sealedInfo{name: child, size: e.size}))
	}
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out, nil
}

// below returns the files under the folder name ("." for the root), a
// run of the sorted files; false when no file is under it, so that it is
// not a folder of the package.
func (s *sealedFS) below(name string) ([]sealedEntry, bool) {
	if name == "." {
		return s.files, len(s.files) > 0
	}
	prefix := name + "/"
	i, _ := slices.BinarySearchFunc(s.files, prefix, func(e sealedEntry, p string) int { return strings.Compare(e.path, p) })
	j := i
	for j < len(s.files) && strings.HasPrefix(s.files[j].path, prefix) {
		j++
	}
	return s.files[i:j], j > i
}

// shape is the package's tree, for listing folders (the sizes it lists
// are not the files').
func (s *sealedFS) shape() fs.FS {
	m := make(fstest.MapFS, len(s.files))
	for _, e := range s.files {
		m[e.path] = &fstest.MapFile{Mode: 0o644}
	}
	return m
}

// sealedFile reads one file of a sealed package, checking the bytes.
type sealedFile struct {
	info sealedInfo
	r    io.Reader
	c    io.Closer
	h    hash.Hash // nil for a file held in memory
	want [sha256.Size]byte
	sum  [sha256.Size]byte // the hash's, on the way
	left int64
	fsys *sealedFS
	path string
}

func (f *sealedFile) Stat() (fs.FileInfo, error) { return f.info, nil }

func (f *sealedFile) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if f.h == nil {
		return n, err
	}
	if int64(n) > f.left {
		return 0, f.changed("it grew")
	}
	f.left -= int64(n)
	f.h.Write(p[:n])
	if err == io.EOF {
		if f.left != 0 {
			return n, f.changed("it shrank")
		}
		if got := f.h.Sum(f.sum[:0]); !bytes.Equal(got, f.want[:]) {
			return n, f.changed("its bytes differ")
		}
	}
	return n, err
}

func (f *sealedFile) Close() error {
	if f.c != nil {
		return f.c.Close()
	}
	return nil
}

// changed is the error of a file that is no longer what was verified.
func (f *sealedFile) changed(how string) error {
	return &Error{
		Code:    CodeIntegrityMismatch,
		Message: fmt.Sprintf("integrity check failed for %s@%s: %s changed after it was verified (%s)", f.fsys.name, f.fsys.version, f.path, how),
		Detail:  []string{"The registry's files changed while agent-skills was installing them; nothing unverified was installed."},
		Try:     []string{"run the command again", "report it to the registry's maintainers if it happens again"},
	}
}

// memReader reads a byte slice.
type memReader struct{ data []byte }

func (m *memReader) Read(p []byte) (int, error) {
	if len(m.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p, m.data)
	m.data = m.data[n:]
	return n, nil
}

// sealedDirInfo describes a folder of a sealed package as a snapshot's
// in-memory tree did: mode 0555.
type sealedDirInfo string

func (d sealedDirInfo) Name() string       { return string(d) }
func (d sealedDirInfo) Size() int64        { return 0 }
func (d sealedDirInfo) Mode() fs.FileMode  { return fs.ModeDir | 0o555 }
func (d sealedDirInfo) ModTime() time.Time { return time.Time{} }
func (d sealedDirInfo) IsDir() bool        { return true }
func (d sealedDirInfo) Sys() any           { return nil }

// sealedInfo describes a file of a sealed package as a snapshot does: a
// regular file, mode 0644.
type sealedInfo struct {
	name string
	size int64
}

func (i sealedInfo) Name() string       { return i.name }
func (i sealedInfo) Size() int64        { return i.size }
func (i sealedInfo) Mode() fs.FileMode  { return 0o644 }
func (i sealedInfo) ModTime() time.Time { return time.Time{} }
func (i sealedInfo) IsDir() bool        { return false }
func (i sealedInfo) Sys() any           { return nil }
