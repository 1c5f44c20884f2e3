package registry

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/agent-skills/agent-skills/format"
)

// Verify loads the package in fsys and checks it against an index entry:
// the canonical digest of its file set (format.Digest over format.Load's
// Files) must equal integrity, and the package must be called name at
// version. A mismatch is ASK_INTEGRITY_MISMATCH naming the expected and
// actual values; unsafe or oversized content keeps format's own code.
func Verify(fsys fs.FS, name, version, integrity string) (*format.Package, error) {
	pkg, diags, err := loadChecked(fsys, name, version)
	if err != nil {
		return nil, err
	}
	return checkLoaded(pkg, diags, name, version, integrity, func(pkg *format.Package) (string, error) {
		dg := digesters.Get().(*format.Digester)
		defer digesters.Put(dg)
		return dg.Digest(pkg.FS, pkg.Files)
	})
}

// digesters reuses the digest buffers across verifications, which run on
// several goroutines at once.
var digesters = sync.Pool{New: func() any { return format.NewDigester() }}

// checkLoaded digests a loaded package with digest and checks it against
// the index entry, as Verify describes.
func checkLoaded(pkg *format.Package, diags format.Diagnostics, name, version, integrity string, digest func(*format.Package) (string, error)) (*format.Package, error) {
	countDigest(name, version)
	sum, err := digest(pkg)
	if err != nil {
		return nil, fmt.Errorf("digest of %s@%s: %w", name, version, err)
	}
	if sum != integrity {
		return nil, mismatch(name, version, "the payload does not match the integrity recorded in the index", integrity, sum)
	}
	if !pkg.Bare && pkg.Manifest == nil {
		// The bytes are the published ones, but the manifest does not
		// decode: report the manifest's own problem.
		msg := "its skill.yaml does not decode"
		code := format.CodeManifestInvalid
		for _, d := range diags {
			if d.Severity == format.SeverityError {
				msg, code = d.String(), d.Code
				break
			}
		}
		return nil, &Error{
			Code:    code,
			Message: fmt.Sprintf("package %s@%s is unusable: %s", name, version, msg),
			Try:     []string{"report the broken package to the registry's maintainers"},
		}
	}
	if got := pkg.Name(); got != name {
		return nil, mismatch(name, version, "the payload's manifest names another package", name, got)
	}
	if got := pkg.Version(); got != version && !(pkg.Bare && got == "") {
		return nil, mismatch(name, version, "the payload's manifest names another version", version, got)
	}
	return pkg, nil
}

// loadChecked loads a payload, refusing unsafe or oversized content with
// format's own code.
func loadChecked(fsys fs.FS, name, version string) (*format.Package, format.Diagnostics, error) {
	pkg, diags := format.Load(fsys, format.LoadOptions{})
	for i, d := range diags {
		if d.Severity == format.SeverityError && (pkg == nil || d.Code == format.CodePackageUnsafeFile || d.Code == format.CodePackageTooLarge) {
			e := &Error{
				Code:    d.Code,
				Message: fmt.Sprintf("package %s@%s is unusable: %s", name, version, d.String()),
				Try:     []string{"do not install this package; report it to the registry's maintainers"},
			}
			for _, o := range diags[i+1:] { // every unsafe file at once, not just the first
				if o.Severity == format.SeverityError && o.Code == d.Code {
					e.Detail = append(e.Detail, o.String())
				}
			}
			return nil, nil, e
		}
	}
	if pkg == nil {
		return nil, nil, mismatch(name, version, "the payload is not a package", "a package", "nothing loadable")
	}
	return pkg, diags, nil
}

// mismatch builds the ASK_INTEGRITY_MISMATCH error.
func mismatch(name, version, what, expected, actual string) *Error {
	return &Error{
		Code:    CodeIntegrityMismatch,
		Message: fmt.Sprintf("integrity check failed for %s@%s: %s", name, version, what),
		Detail: []string{
			"expected: " + expected,
			"actual:   " + actual,
			"The payload or the index was altered; nothing was written.",
		},
		Try: []string{
			"do not install this package",
			"report it to the registry's maintainers",
		},
	}
}

// Package returns the verified package name@version.
func (r *registry) Package(ctx context.Context, name, version string) (*format.Package, error) {
	s, v, err := r.lookupSigned(ctx, name, version)
	if err != nil {
		return nil, err
	}
	return r.be.payload(ctx, r, s, v, func(fsys fs.FS) (*format.Package, error) {
		return Verify(fsys, name, version, v.Integrity)
	})
}

// Fetch copies the payload into a temporary directory beside dest,
// verifies it there, removes any file outside the package's file set and
// renames the directory to dest.
func (r *registry) Fetch(ctx context.Context, name, version, dest string) (*Fetched, error) {
	s, v, err := r.lookupSigned(ctx, name, version)
	if err != nil {
		return nil, err
	}
	if _, err := os.Lstat(dest); err == nil {
		return nil, fmt.Errorf("fetch %s@%s: %s already exists", name, version, dest)
	}
	parent := filepath.Dir(dest)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dest)+".tmp-")
	if err != nil {
		return nil, err
	}
	done := false
	defer func() {
		if !done {
			_ = os.RemoveAll(tmp)
		}
	}()
	// Copy what the source declares, then verify what was written: the
	// copy, not the source, is what gets installed.
	srcPkg, err := r.be.payload(ctx, r, s, v, func(fsys fs.FS) (*format.Package, error) {
		if v.Tarball != "" {
			return Verify(fsys, name, version, v.Integrity) // the payload cache's gate
		}
		pkg, _, err := loadChecked(fsys, name, version)
		return pkg, err
	})
	if err != nil {
		return nil, err
	}
	if err := copyFiles(ctx, srcPkg.FS, srcPkg.Files, tmp); err != nil {
		return nil, err
	}
	pkg, err := Verify(os.DirFS(tmp), name, version, v.Integrity)
	if err != nil {
		return nil, err
	}
	if err := Prune(tmp, pkg.Files); err != nil {
		return nil, err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp, dest); err != nil {
		return nil, err
	}
	done = true
	return &Fetched{
		Registry:  r.spec.Name,
		Name:      name,
		Version:   version,
		Integrity: v.Integrity,
		Resolved:  r.be.resolved(s, v),
		Files:     pkg.Files,
	}, nil
}

// copyFiles copies the listed regular files of fsys into dir.
func copyFiles(ctx context.Context, fsys fs.FS, files []string, dir string) error {
	for _, name := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		if why := checkPath(name); why != "" {
			return archiveUnsafe(name, why)
		}
		if err := copyFile(fsys, name, filepath.Join(dir, filepath.FromSlash(name))); err != nil {
			return err
		}
	}
	return nil
}

// copyFile copies one regular file, refusing anything else.
func copyFile(fsys fs.FS, name, to string) error {
	in, err := fsys.Open(name)
	if err != nil {
		return err
	}
	defer in.Close()
	info, err := in.Stat()
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return archiveUnsafe(name, "not a regular file")
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

// Prune removes every file below dir whose slash-separated relative path
// is not in keep, and the folders it leaves empty. Fetch uses it
// to drop what a payload carries outside its package's file set; sources
// do the same after copying a skill's folder.
func Prune(dir string, keep []string) error {
	var extra, dirs []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case rel == ".":
		case d.IsDir():
			dirs = append(dirs, p)
		case !sortedHas(keep, rel):
			extra = append(extra, p)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, p := range extra {
		if err := os.Remove(p); err != nil {
			return err
		}
	}
	slices.Reverse(dirs)
	for _, d := range dirs {
		if ents, err := os.ReadDir(d); err == nil && len(ents) == 0 {
			_ = os.Remove(d)
		}
	}
	return nil
}

// tarballPayload returns the package of a tarball version from the
// payload cache, downloading and extracting it on first use, as verify
// loads and checks it (Verify in place, or snapshotOf into memory). open
// returns the .tar.gz stream. The cache is keyed by name, version and the
// expected integrity, so a changed index entry never reuses it. A payload
// enters the cache only once verify accepted it, and a cached payload is
// verified again on every use: one that no longer matches (damaged, or
// cached unverified by an older agent-skills) is evicted, with a notice,
// and downloaded again, so a server that served bad bytes once and was
// fixed heals on the next run. The one verification is the use: the
// payload is digested once per call, not once for the cache and again
// for the caller.
func (r *registry) tarballPayload(ctx context.Context, v *Version, name string, open func(context.Context) (io.ReadCloser, error), verify func(fs.FS) (*format.Package, error)) (*format.Package, error) {
	if r.opts.CacheDir == "" {
		return nil, unavailable(r.spec.Name, "no cache directory configured for tarball payloads", nil)
	}
	key := name + "@" + v.Version + "-" + integrityKey(v.Integrity)
	dir := filepath.Join(r.opts.CacheDir, "payloads", key)
	if info, err := os.Lstat(dir); err == nil {
		verr := errors.New("not a folder")
		if info.IsDir() {
			var pkg *format.Package
			if pkg, verr = verify(os.DirFS(dir)); verr == nil {
				return pkg, nil
			}
		}
		r.opts.notify("registry %s: the cached payload of %s@%s is not what the index records (%s); downloading it again",
			r.spec.Name, name, v.Version, firstLine(verr.Error()))
		if err := os.RemoveAll(dir); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "."+key+".tmp-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	body, err := open(ctx)
	if err != nil {
		return nil, err
	}
	_, err = Extract(ctx, body, tmp, DefaultExtractLimits())
	body.Close()
	if err != nil {
		if isArchiveError(err) {
			var e *Error
			errors.As(err, &e)
			e.Message = fmt.Sprintf("%s@%s: %s", name, v.Version, e.Message)
		}
		return nil, err
	}
	pkg, err := verify(os.DirFS(tmp))
	if err != nil {
		return nil, err // the deferred RemoveAll keeps it out of the cache
	}
	if err := os.Rename(tmp, dir); err != nil && !errors.Is(err, fs.ErrExist) {
		if _, serr := os.Stat(dir); serr != nil {
			return nil, err
		}
	}
	// The payload now lives in the cache: a package verified in place is
	// read there, and a snapshot reads a sealed file again there.
	if snap, inMemory := pkg.FS.(*snapshotFS); inMemory {
		snap.src = os.DirFS(dir)
	} else {
		pkg.FS = os.DirFS(dir)
	}
	return pkg, nil
}

// integrityKey turns "sha256-<base64>" into 16 hex digits for file names.
func integrityKey(integrity string) string {
	b64 := strings.TrimPrefix(integrity, "sha256-")
	sum, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(sum) < 8 {
		return "unknown"
	}
	return hex.EncodeToString(sum[:8])
}

// sortedHas reports whether keep holds s; keep is sorted when it comes from
// format.Package.Files, else it is searched linearly.
func sortedHas(keep []string, s string) bool {
	if slices.IsSorted(keep) {
		_, ok := slices.BinarySearch(keep, s)
		return ok
	}
	return slices.Contains(keep, s)
}
