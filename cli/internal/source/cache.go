package source

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agent-skills/agent-skills/format"
)

// The verified-package cache keeps a copy of every package read from a
// source over the network, keyed by its integrity, under
// CacheDir/source-packages/<sha256 of the integrity> (beside the work
// folders of CacheDir/sources, which never outlive a fetch). Restore uses it when
// the network is forbidden (Options.Offline): a lock entry names the exact
// integrity, so a cached copy is used only when its bytes digest to it, and
// is checked again on every use. Fetch never reads it: which commit a
// branch or tag names cannot be known offline.

// verifiedDir is the cache folder of the package with integrity sum.
func verifiedDir(cacheDir, sum string) string {
	h := sha256.Sum256([]byte(sum))
	return filepath.Join(cacheDir, "source-packages", hex.EncodeToString(h[:16]))
}

// keepVerified copies the materialised package p into the cache, once;
// failures are ignored (the cache only saves a later offline run).
func keepVerified(p *Package, opts *Options) {
	if opts.CacheDir == "" || p.Integrity == "" || p.Pkg == nil {
		return
	}
	dest := verifiedDir(opts.CacheDir, p.Integrity)
	if _, err := os.Stat(dest); err == nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dest), ".new-")
	if err != nil {
		return
	}
	if err := copyFiles(packageFS(p), tmp, p.Pkg.Files); err != nil || os.Rename(tmp, dest) != nil {
		os.RemoveAll(tmp)
	}
}

// restoreVerified materialises the cached copy of what p pins into
// opts.Dir/<name>, checking its digest; ok=false when there is none (a
// copy that no longer matches is removed).
func restoreVerified(p Pin, opts *Options) (*Package, bool) {
	if opts.CacheDir == "" || p.Integrity == "" {
		return nil, false
	}
	src := verifiedDir(opts.CacheDir, p.Integrity)
	cached, diags := format.Load(os.DirFS(src), format.LoadOptions{})
	if cached == nil || cached.Manifest == nil || diags.HasErrors() || cached.Name() != p.Name {
		return nil, false
	}
	if sum, err := format.Digest(os.DirFS(src), cached.Files); err != nil || !format.SameIntegrity(p.Integrity, sum) {
		os.RemoveAll(src) // damaged: never used, fetched afresh online
		return nil, false
	}
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return nil, false
	}
	dest := filepath.Join(opts.Dir, p.Name)
	if err := copyFiles(os.DirFS(src), dest, cached.Files); err != nil {
		os.RemoveAll(dest)
		return nil, false
	}
	// The copy is digested again: the cache may change under us.
	pkg, _ := format.Load(os.DirFS(dest), format.LoadOptions{})
	sum, err := format.Digest(os.DirFS(dest), pkg.Files)
	if err != nil || !format.SameIntegrity(p.Integrity, sum) {
		os.RemoveAll(dest)
		return nil, false
	}
	manifest, _ := os.ReadFile(filepath.Join(dest, format.ManifestFile))
	return &Package{Name: pkg.Name(), Version: pkg.Version(), Dir: dest, Subpath: p.Subpath, Source: p.Source,
		Commit: p.Commit, Integrity: sum, Resolved: p.Resolved, Pkg: pkg,
		Synthesised: strings.HasPrefix(string(manifest), synthHeader)}, true
}

// copyFiles copies the regular files (slash-separated, relative to src)
// into the folder dst, creating it.
func copyFiles(src fs.FS, dst string, files []string) error {
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	for _, f := range files {
		info, err := fs.Lstat(src, f)
		if err != nil {
			return err
		}
		if !info.Mode().IsRegular() {
			return fmt.Errorf("source: %s is not a regular file", f)
		}
		to := filepath.Join(dst, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		if err := copyFile(src, f, to, info.Size()); err != nil {
			return err
		}
	}
	return nil
}

// packageFS is where p's files are read: its folder, or the source in
// place.
func packageFS(p *Package) fs.FS {
	if p.Dir == "" {
		return p.Pkg.FS
	}
	return os.DirFS(p.Dir)
}
