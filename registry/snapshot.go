package registry

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"
	"sync/atomic"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/format"
)

// MaxSnapshotSize bounds the package Snapshot holds in memory.
const MaxSnapshotSize = 64 << 20

// Snapshot returns name@version of r as a verified package held in
// memory, and its integrity; see Registry.Snapshot.
func Snapshot(ctx context.Context, r Registry, name, version string) (*format.Package, string, error) {
	return r.Snapshot(ctx, name, version)
}

// Snapshot returns name@version as a verified package held in memory: the
// payload's file set is read once into memory, loaded and digested over
// those very bytes, so whatever the caller installs from the result is
// exactly what was verified, even if the registry's files change
// meanwhile. Each byte is read from the registry (or the payload cache)
// once and digested once. Packages over MaxSnapshotSize are refused with
// ASK_PACKAGE_TOO_LARGE; use Fetch for those.
func (r *registry) Snapshot(ctx context.Context, name, version string) (*format.Package, string, error) {
	return r.snapshotWith(ctx, name, version, snapshotOf)
}

// snapshotWith verifies name@version's payload with of (snapshotOf or
// sealedSnapshotOf) against the integrity the index gives.
func (r *registry) snapshotWith(ctx context.Context, name, version string, of func(fsys fs.FS, name, version, integrity string) (*format.Package, error)) (*format.Package, string, error) {
	s, v, err := r.lookupSigned(ctx, name, version)
	if err != nil {
		return nil, "", err
	}
	pkg, err := r.be.payload(ctx, r, s, v, func(fsys fs.FS) (*format.Package, error) {
		return of(fsys, name, version, v.Integrity)
	})
	if err != nil {
		return nil, "", err
	}
	// A copy: the index's strings are slices of its whole text, which a
	// caller holding thousands of integrities would otherwise keep.
	return pkg, strings.Clone(v.Integrity), nil
}

// sealedSnapshot is Snapshot for a caller that would seal the package at
// once (Set, past its budget): the package comes back sealed (Seal), and
// the files it does not keep — all but skill.yaml and the entrypoint —
// are digested as they are read, through one reused buffer, instead of
// being read whole into memory first. Each byte is still read once and
// digested once, and the seal checks a file read again against that
// digest; only the payload's bytes are never held (a 10,000-package
// resolution read 180 MB into buffers it sealed away at once).
func (r *registry) sealedSnapshot(ctx context.Context, name, version string) (*format.Package, string, error) {
	return r.snapshotWith(ctx, name, version, sealedSnapshotOf)
}

// sealedSnapshotOf is snapshotOf, sealed: format.Load reads skill.yaml and
// the entrypoint through the recorder, whose bytes the seal keeps; every
// other file of the set is read once, streamed through the digester, and
// only its size and digest are kept. A package whose loading read a file
// outside its file set is verified by snapshotOf and sealed after.
func sealedSnapshotOf(fsys fs.FS, name, version, integrity string) (*format.Package, error) {
	rec, pkg, diags, err := loadRecorded(fsys, name, version)
	if err != nil {
		return nil, err
	}
	inSet := 0
	for _, p := range pkg.Files {
		if _, ok := rec.mem[p]; ok {
			inSet++
		}
	}
	if inSet != len(rec.mem) {
		pkg, err := snapshotOf(fsys, name, version, integrity)
		if err != nil {
			return nil, err
		}
		return Seal(pkg, name, version), nil
	}
	dg := digesters.Get().(*format.Digester)
	defer digesters.Put(dg)
	seal := &sealedFS{src: fsys, name: name, version: version, files: make([]sealedEntry, 0, len(pkg.Files))}
	hashes := make([]format.FileHash, 0, len(pkg.Files))
	total := rec.total
	for _, p := range pkg.Files {
		var sum string
		e := sealedEntry{path: p}
		if f, ok := rec.mem[p]; ok {
			var r io.Reader = bytes.NewReader(f.Data)
			if p == format.ManifestFile && bytes.Contains(f.Data, []byte("integrity:")) {
				r = format.StripIntegrity(r)
			}
			if sum, err = dg.FileDigest(r); err != nil {
				return nil, fmt.Errorf("digest of %s@%s: %w", name, version, err)
			}
			e.size = int64(len(f.Data))
			if p == format.ManifestFile || p == pkg.EntrypointFile {
				e.data = f.Data
			}
		} else {
			n, digest, err := digestFile(dg, fsys, p, MaxSnapshotSize-total)
			if err != nil {
				return nil, err
			}
			total += n
			sum, e.size = digest, n
		}
		e.sum = rawSum(sum)
		seal.files = append(seal.files, e)
		hashes = append(hashes, format.FileHash{Path: p, Digest: sum})
	}
	slices.SortFunc(seal.files, func(a, b sealedEntry) int { return strings.Compare(a.path, b.path) })
	pkg.FS = seal
	return checkLoaded(pkg, diags, name, version, integrity, func(*format.Package) (string, error) {
		return format.CombineDigests(hashes), nil
	})
}

// loadRecorded loads name@version from fsys through a recordFS, which
// keeps the bytes of the files the loader read (skill.yaml and the
// entrypoint); an error reading fsys wins over the load's own.
func loadRecorded(fsys fs.FS, name, version string) (*recordFS, *format.Package, format.Diagnostics, error) {
	rec := &recordFS{src: fsys, mem: fstest.MapFS{}}
	pkg, diags, err := loadChecked(rec, name, version)
	if rec.err != nil {
		return nil, nil, nil, rec.err
	}
	if err != nil {
		return nil, nil, nil, err
	}
	return rec, pkg, diags, nil
}

// digestFile reads the file p of fsys once through dg, refusing more than
// limit bytes as readAll does, and returns its size and digest.
func digestFile(dg *format.Digester, fsys fs.FS, p string, limit int64) (int64, string, error) {
	f, err := fsys.Open(p)
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	cr := &countingReader{r: io.LimitReader(f, limit+1)}
	sum, err := dg.FileDigest(cr)
	if err != nil {
		return 0, "", err
	}
	if cr.n > limit {
		return 0, "", tooLargeForMemory(p)
	}
	return cr.n, sum, nil
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// snapshotOf is Verify over an in-memory copy of fsys, made in one pass:
// format.Load reads skill.yaml and the entrypoint through a recorder that
// keeps their bytes, the rest of the file set is read after it, and the
// digest and every check run over the copy, which becomes the package's
// FS.
func snapshotOf(fsys fs.FS, name, version, integrity string) (*format.Package, error) {
	rec, pkg, diags, err := loadRecorded(fsys, name, version)
	if err != nil {
		return nil, err
	}
	for _, p := range pkg.Files {
		if _, ok := rec.mem[p]; ok {
			continue
		}
		data, err := readAll(fsys, p, MaxSnapshotSize-rec.total)
		if err != nil {
			return nil, err
		}
		rec.total += int64(len(data))
		rec.mem[p] = &fstest.MapFile{Data: data, Mode: 0o644}
	}
	// Keep only the file set. When Load read a file outside it (an
	// entrypoint the `files` list omits), load the copy again, so the
	// package is exactly what its file set holds.
	mem := &snapshotFS{MapFS: make(fstest.MapFS, len(pkg.Files)), src: fsys, sums: make(map[string]string, len(pkg.Files))}
	for _, p := range pkg.Files {
		mem.MapFS[p] = rec.mem[p]
	}
	if len(rec.mem) != len(mem.MapFS) {
		if pkg, diags, err = loadChecked(mem.MapFS, name, version); err != nil {
			return nil, err
		}
	}
	pkg.FS = mem
	return checkLoaded(pkg, diags, name, version, integrity, mem.digest)
}

// snapshotFS is a snapshot's payload: the bytes, where they were read
// from, and the digest of each file's bytes as the verification computed
// them (Seal checks a file read again against it).
type snapshotFS struct {
	fstest.MapFS
	src  fs.FS
	sums map[string]string // format.FileDigest of the bytes; skill.yaml's is of its stripped bytes
}

// FileDigest returns the digest the verification computed of the file at
// name (as format.FileDigest), so that the installer records it without
// digesting the bytes once more; not for skill.yaml, whose verified
// digest is of its bytes without the integrity line.
func (m *snapshotFS) FileDigest(name string) (string, bool) {
	if name == format.ManifestFile {
		return "", false
	}
	sum, ok := m.sums[name]
	return sum, ok && sum != ""
}

// digest is format.Digest over the in-memory files, recording each file's
// digest on the way.
func (m *snapshotFS) digest(pkg *format.Package) (string, error) {
	dg := digesters.Get().(*format.Digester)
	defer digesters.Put(dg)
	hashes := make([]format.FileHash, 0, len(pkg.Files))
	for _, p := range pkg.Files {
		data := m.MapFS[p].Data
		var r io.Reader = bytes.NewReader(data)
		if p == format.ManifestFile && bytes.Contains(data, []byte("integrity:")) {
			// Without the key there is nothing to strip, and no 4 KiB
			// reader to allocate for each package.
			r = format.StripIntegrity(r)
		}
		sum, err := dg.FileDigest(r)
		if err != nil {
			return "", err
		}
		m.sums[p] = sum
		hashes = append(hashes, format.FileHash{Path: p, Digest: sum})
	}
	return format.CombineDigests(hashes), nil
}

// recordFS serves fsys to format.Load and keeps the bytes of every
// regular file Load reads, so that the snapshot never reads them twice.
// Directory listings and file information come from fsys itself (Lstat
// included, so symbolic links are seen and refused as they are there).
type recordFS struct {
	src   fs.FS
	mem   fstest.MapFS
	total int64
	err   error // a file over the snapshot budget
}

// Open reads a regular file whole into memory and serves the copy;
// anything else is served by fsys.
func (r *recordFS) Open(name string) (fs.File, error) {
	if f, ok := r.mem[name]; ok && f != nil {
		return r.mem.Open(name)
	}
	f, err := r.src.Open(name)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		if err != nil {
			f.Close()
			return nil, err
		}
		return f, nil
	}
	data, err := readSized(f, info.Size(), name, MaxSnapshotSize-r.total)
	f.Close()
	if err != nil {
		if r.err == nil {
			r.err = err
		}
		return nil, err
	}
	r.total += int64(len(data))
	r.mem[name] = &fstest.MapFile{Data: data, Mode: 0o644}
	return r.mem.Open(name)
}

// ReadDir lists fsys.
func (r *recordFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(r.src, name) }

// Stat asks fsys.
func (r *recordFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(r.src, name) }

// Lstat asks fsys, which does not follow a final symbolic link when it
// implements fs.ReadLinkFS (os.DirFS does).
func (r *recordFS) Lstat(name string) (fs.FileInfo, error) { return fs.Lstat(r.src, name) }

// ReadLink asks fsys.
func (r *recordFS) ReadLink(name string) (string, error) { return fs.ReadLink(r.src, name) }

// readAll reads one file, refusing more than limit bytes.
func readAll(fsys fs.FS, p string, limit int64) ([]byte, error) {
	f, err := fsys.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var size int64 = -1
	if info, err := f.Stat(); err == nil {
		size = info.Size()
	}
	return readSized(f, size, p, limit)
}

// readSized reads f, whose size is probably size (-1: unknown), into a
// buffer of exactly that size when it is right, refusing more than limit
// bytes.
func readSized(f io.Reader, size int64, p string, limit int64) ([]byte, error) {
	if size < 0 || size > limit {
		return readAllFrom(f, p, limit)
	}
	data := make([]byte, size, size+1)
	n, err := io.ReadFull(f, data)
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		return data[:n], nil // shrank since the stat
	}
	if err != nil {
		return nil, err
	}
	// Grew since the stat? Read the rest as a file of unknown size.
	rest, err := readAllFrom(f, p, limit-size)
	if err != nil {
		return nil, err
	}
	return append(data, rest...), nil
}

// readAllFrom reads f, refusing more than limit bytes.
func readAllFrom(f io.Reader, p string, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, tooLargeForMemory(p)
	}
	return data, nil
}

// tooLargeForMemory is the error of a package past MaxSnapshotSize at its
// file p.
func tooLargeForMemory(p string) *Error {
	return &Error{Code: format.CodePackageTooLarge, Message: fmt.Sprintf("%s is larger than %d MiB, the most a package may hold in memory", p, MaxSnapshotSize>>20)}
}

// digestHook, when set, is called once for every package digest this
// package computes (a verification), with the package's name and version.
var digestHook atomic.Pointer[func(name, version string)]

// SetDigestHook makes every verification of a payload (one digest of
// name@version, wherever it happens) call f, and returns a function that
// removes it. Tests and benchmarks count digests with it ("each payload
// is digested once per run"); f must be safe for concurrent use.
func SetDigestHook(f func(name, version string)) (restore func()) {
	digestHook.Store(&f)
	return func() { digestHook.Store(nil) }
}

// countDigest reports one digest of name@version to the hook.
func countDigest(name, version string) {
	if f := digestHook.Load(); f != nil {
		(*f)(name, version)
	}
}
