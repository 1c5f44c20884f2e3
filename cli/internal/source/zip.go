package source

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/validate"
)

// ExtractZip unpacks the zip archive (a .zip or .skill file) read through
// ra, of size bytes, into the existing, empty folder dir, with the rules
// registry.Extract applies to .tar.gz payloads: only regular files and
// folders (a symbolic link, device or other special entry, an encrypted
// entry, a duplicate name, names that differ only in case and unsafe paths
// are ASK_ARCHIVE_UNSAFE), and the limits of lim enforced while
// decompressing, never trusting the sizes the archive declares (crossing
// one is ASK_ARCHIVE_TOO_LARGE). macOS __MACOSX/ metadata entries are
// skipped. A single common top folder is stripped. Files are written 0644
// and folders 0755. It returns the slash-separated paths of the files
// written, sorted. On error dir may hold partial output.
func ExtractZip(ctx context.Context, ra io.ReaderAt, size int64, dir string, lim registry.ExtractLimits) ([]string, error) {
	if ents, err := os.ReadDir(dir); err != nil {
		return nil, err
	} else if len(ents) > 0 {
		return nil, fmt.Errorf("extract: %s is not empty", dir)
	}
	zr, err := zip.NewReader(ra, size)
	if err != nil {
		return nil, zipUnsafe("", "not a zip archive: "+err.Error())
	}
	if len(zr.File) > lim.MaxEntries {
		return nil, zipTooLarge("", fmt.Sprintf("more than %d entries", lim.MaxEntries))
	}
	stage, err := os.MkdirTemp(dir, ".extract-")
	if err != nil {
		return nil, err
	}
	x := &zipExtractor{lim: lim, root: stage, seen: map[string]bool{}, fold: map[string]string{}}
	for _, f := range zr.File {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := x.entry(f); err != nil {
			return nil, err
		}
	}
	return x.finish(dir)
}

// zipExtractor carries the state of one zip extraction.
type zipExtractor struct {
	lim        registry.ExtractLimits
	root       string
	compressed int64
	total      int64
	seen       map[string]bool
	fold       map[string]string
	files      []string
}

// entry validates and writes one zip entry.
func (x *zipExtractor) entry(f *zip.File) error {
	name := strings.TrimPrefix(f.Name, "./")
	if name == "__MACOSX" || strings.HasPrefix(name, "__MACOSX/") {
		return nil
	}
	mode := f.Mode()
	isDir := strings.HasSuffix(name, "/") || mode.IsDir()
	name = strings.TrimSuffix(name, "/")
	switch t := mode.Type(); {
	case t&fs.ModeSymlink != 0:
		return zipUnsafe(f.Name, "symbolic links are not allowed")
	case t&(fs.ModeDevice|fs.ModeCharDevice) != 0:
		return zipUnsafe(f.Name, "device files are not allowed")
	case t&^fs.ModeDir != 0:
		return zipUnsafe(f.Name, "special files are not allowed")
	}
	if f.Flags&0x1 != 0 {
		return zipUnsafe(f.Name, "encrypted entries are not supported")
	}
	if isDir && name == "" {
		return nil
	}
	if err := validate.CheckPath(name); err != nil {
		return zipUnsafe(f.Name, err.Error())
	}
	if err := x.claim(f.Name, name, isDir); err != nil {
		return err
	}
	full := filepath.Join(x.root, filepath.FromSlash(name))
	if isDir {
		return os.MkdirAll(full, 0o755)
	}
	if f.UncompressedSize64 > uint64(x.lim.MaxFileBytes) {
		return zipTooLarge(f.Name, fmt.Sprintf("file is %d bytes; the limit is %d", f.UncompressedSize64, x.lim.MaxFileBytes))
	}
	x.compressed += int64(f.CompressedSize64)
	rc, err := f.Open()
	if err != nil {
		return zipUnsafe(f.Name, "unreadable entry: "+err.Error())
	}
	defer rc.Close()
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return err
	}
	out, err := os.OpenFile(full, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	err = x.copy(out, rc, f.Name)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	x.files = append(x.files, name)
	return nil
}

// claim records a path and its parents, refusing duplicates, names that
// differ only in case, and a file used as a folder or the reverse.
func (x *zipExtractor) claim(raw, name string, isDir bool) error {
	elems := strings.Split(name, "/")
	for i := range elems {
		p := strings.Join(elems[:i+1], "/")
		wantDir := i < len(elems)-1 || isDir
		if d, ok := x.seen[p]; ok {
			if d && wantDir {
				continue
			}
			return zipUnsafe(raw, fmt.Sprintf("duplicate or conflicting entry %q", p))
		}
		low := strings.ToLower(p)
		if other, ok := x.fold[low]; ok && other != p {
			return zipUnsafe(raw, fmt.Sprintf("%q and %q differ only in case", other, p))
		}
		x.seen[p] = wantDir
		x.fold[low] = p
	}
	return nil
}

// copy streams one file body, counting bytes against every limit.
func (x *zipExtractor) copy(w io.Writer, r io.Reader, name string) error {
	buf := make([]byte, 32<<10)
	var n int64
	for {
		m, err := r.Read(buf)
		if m > 0 {
			n += int64(m)
			x.total += int64(m)
			switch {
			case n > x.lim.MaxFileBytes:
				return zipTooLarge(name, fmt.Sprintf("file is larger than %d bytes", x.lim.MaxFileBytes))
			case x.total > x.lim.MaxTotalBytes:
				return zipTooLarge(name, fmt.Sprintf("archive expands to more than %d bytes", x.lim.MaxTotalBytes))
			case x.total > x.lim.RatioGrace && x.total > x.lim.MaxRatio*max(x.compressed, 1):
				return zipTooLarge(name, fmt.Sprintf("compression ratio above %d:1", x.lim.MaxRatio))
			}
			if _, werr := w.Write(buf[:m]); werr != nil {
				return werr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return zipUnsafe(name, "corrupt archive: "+err.Error())
		}
	}
}

// finish strips a single common top folder and moves the staged tree into
// dir.
func (x *zipExtractor) finish(dir string) ([]string, error) {
	src, prefix := x.root, ""
	ents, err := os.ReadDir(x.root)
	if err != nil {
		return nil, err
	}
	if len(ents) == 1 && ents[0].IsDir() {
		src = filepath.Join(x.root, ents[0].Name())
		prefix = ents[0].Name() + "/"
		if ents, err = os.ReadDir(src); err != nil {
			return nil, err
		}
	}
	for _, e := range ents {
		if err := os.Rename(filepath.Join(src, e.Name()), filepath.Join(dir, e.Name())); err != nil {
			return nil, err
		}
	}
	if err := os.RemoveAll(x.root); err != nil {
		return nil, err
	}
	files := make([]string, 0, len(x.files))
	for _, f := range x.files {
		files = append(files, strings.TrimPrefix(f, prefix))
	}
	slices.Sort(files)
	return files, nil
}

// zipUnsafe builds an ASK_ARCHIVE_UNSAFE error for entry.
func zipUnsafe(entry, rule string) *Error {
	msg := "unsafe archive: " + rule
	if entry != "" {
		msg = fmt.Sprintf("unsafe archive entry %q: %s", entry, rule)
	}
	return &Error{Code: "ASK_ARCHIVE_UNSAFE", Message: msg,
		Try: []string{"do not install this archive; report it to whoever published it"}}
}

// zipTooLarge builds an ASK_ARCHIVE_TOO_LARGE error for entry.
func zipTooLarge(entry, rule string) *Error {
	msg := "archive exceeds a limit: " + rule
	if entry != "" {
		msg = fmt.Sprintf("archive entry %q exceeds a limit: %s", entry, rule)
	}
	return &Error{Code: "ASK_ARCHIVE_TOO_LARGE", Message: msg,
		Try: []string{"do not install this archive; report it to whoever published it"}}
}
