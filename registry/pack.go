package registry

import (
	"archive/tar"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"time"
)

// PackEpoch is the modification time of every entry Pack writes, in Unix
// seconds: 1980-01-01T00:00:00Z, the earliest time every archive format
// (zip included) can represent, so that no tool shows a zero date.
const PackEpoch = 315532800

// PackPrefix is the top folder Pack puts every entry under, as npm does;
// Extract strips it again.
const PackPrefix = "package/"

// Pack writes files of fsys as a reproducible .tar.gz to w: every entry
// under PackPrefix, sorted by path, each parent directory listed once
// before its contents, files mode 0644 and directories 0755, uid and gid
// 0 with empty user and group names, modification time PackEpoch, and a
// gzip header with no name and no time at best compression. The same
// file set with the same bytes therefore always gives the same archive
// (with the same Go release: compress/flate is not frozen across
// releases). files are slash-separated paths, such as format.Package.Files;
// every one must be a safe relative path to a regular file.
func Pack(fsys fs.FS, files []string, w io.Writer) error {
	sorted := slices.Clone(files)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(zw)
	dirs := map[string]bool{}
	for _, name := range sorted {
		if why := checkPath(name); why != "" {
			return fmt.Errorf("pack: unsafe path %q: %s", name, why)
		}
		for _, d := range parents(name) {
			if dirs[d] {
				continue
			}
			dirs[d] = true
			if err := tw.WriteHeader(packHeader(d+"/", tar.TypeDir, 0o755, 0)); err != nil {
				return err
			}
		}
		if err := packFile(fsys, name, tw); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return zw.Close()
}

// packFile writes one regular file entry.
func packFile(fsys fs.FS, name string, tw *tar.Writer) error {
	f, err := fsys.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return fmt.Errorf("pack: %s is not a regular file", name)
	}
	if err := tw.WriteHeader(packHeader(name, tar.TypeReg, 0o644, info.Size())); err != nil {
		return err
	}
	n, err := io.Copy(tw, f)
	if err != nil {
		return err
	}
	if n != info.Size() {
		return fmt.Errorf("pack: %s changed size while being packed", name)
	}
	return nil
}

// packHeader returns a header with every variable field fixed.
func packHeader(name string, typ byte, mode int64, size int64) *tar.Header {
	return &tar.Header{
		Typeflag: typ,
		Name:     PackPrefix + name,
		Mode:     mode,
		Size:     size,
		ModTime:  time.Unix(PackEpoch, 0),
		Format:   tar.FormatPAX,
	}
}

// parents returns the parent directories of a slash path, outermost first.
func parents(name string) []string {
	var out []string
	for d := path.Dir(name); d != "."; d = path.Dir(d) {
		out = append(out, d)
	}
	slices.Reverse(out)
	return out
}
