package registry

import (
	"archive/zip"
	"bufio"
	"compress/flate"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ExtractZip unpacks the zip archive (a .zip or .skill file) read through
// ra, of size bytes, into the existing, empty folder dir, with the rules
// Extract applies to .tar.gz payloads: only regular files and folders (a
// symbolic link, device or other special entry, an encrypted entry, a
// duplicate name, names that differ only in case and unsafe paths are
// ASK_ARCHIVE_UNSAFE), and the limits of lim enforced while decompressing,
// never trusting the sizes the archive declares (crossing one is
// ASK_ARCHIVE_TOO_LARGE). macOS __MACOSX/ metadata entries are skipped. A
// single common top folder is stripped. It returns the slash-separated
// paths of the files written, sorted. On error dir may hold partial output.
func ExtractZip(ctx context.Context, ra io.ReaderAt, size int64, dir string, lim ExtractLimits) ([]string, error) {
	if ents, err := os.ReadDir(dir); err != nil {
		return nil, err
	} else if len(ents) > 0 {
		return nil, fmt.Errorf("extract: %s is not empty", dir)
	}
	zr, err := zip.NewReader(ra, size)
	if err != nil {
		return nil, archiveUnsafe("", "not a zip archive: "+err.Error())
	}
	if len(zr.File) > lim.MaxEntries {
		return nil, archiveTooLarge("", fmt.Sprintf("more than %d entries", lim.MaxEntries))
	}
	stage, err := os.MkdirTemp(dir, ".extract-")
	if err != nil {
		return nil, err
	}
	x := &extractor{lim: lim, root: stage, seen: map[string]bool{}, compressed: &countReader{}}
	// The ratio check counts the compressed bytes each entry's
	// decompressor really consumes: the sizes in the central directory are
	// the archive's claim and may lie. archive/zip still checks every
	// entry's CRC-32 and uncompressed size against what was inflated.
	meter := func(r io.Reader) *meteredReader {
		return &meteredReader{br: bufio.NewReader(r), n: &x.compressed.n}
	}
	zr.RegisterDecompressor(zip.Store, func(r io.Reader) io.ReadCloser { return io.NopCloser(meter(r)) })
	zr.RegisterDecompressor(zip.Deflate, func(r io.Reader) io.ReadCloser { return flate.NewReader(meter(r)) })
	for _, f := range zr.File {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := x.zipEntry(f); err != nil {
			return nil, err
		}
	}
	return x.finish(dir)
}

// zipEntry validates and writes one zip entry.
func (x *extractor) zipEntry(f *zip.File) error {
	name := strings.TrimPrefix(f.Name, "./")
	if name == "__MACOSX" || strings.HasPrefix(name, "__MACOSX/") {
		return nil
	}
	x.entries++
	mode := f.Mode()
	isDir := strings.HasSuffix(name, "/") || mode.IsDir()
	name = strings.TrimSuffix(name, "/")
	switch t := mode.Type(); {
	case t&fs.ModeSymlink != 0:
		return archiveUnsafe(f.Name, "symbolic links are not allowed")
	case t&(fs.ModeDevice|fs.ModeCharDevice) != 0:
		return archiveUnsafe(f.Name, "device files are not allowed")
	case t&^fs.ModeDir != 0:
		return archiveUnsafe(f.Name, "special files are not allowed")
	}
	if f.Flags&0x1 != 0 {
		return archiveUnsafe(f.Name, "encrypted entries are not supported")
	}
	if isDir && name == "" {
		return nil
	}
	if ok, err := x.admit(f.Name, name, isDir); !ok {
		return err // nil for a skipped name: reported when the archive ends
	}
	full := filepath.Join(x.root, filepath.FromSlash(name))
	if isDir {
		return os.MkdirAll(full, 0o755)
	}
	if f.UncompressedSize64 > uint64(x.lim.MaxFileBytes) {
		return archiveTooLarge(f.Name, fmt.Sprintf("file is %d bytes; the limit is %d", f.UncompressedSize64, x.lim.MaxFileBytes))
	}
	rc, err := f.Open()
	if err != nil {
		return archiveUnsafe(f.Name, "unreadable entry: "+err.Error())
	}
	defer rc.Close()
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return err
	}
	out, err := os.OpenFile(full, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = x.copy(out, rc, f.Name)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	x.files = append(x.files, name)
	return nil
}
