package registry

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/format"
)

// ExtractLimits bounds what Extract accepts from an untrusted archive.
// Every limit is enforced while decompressing, so extraction stops as soon
// as one is crossed.
type ExtractLimits struct {
	// MaxEntries caps the number of tar entries (files and directories).
	MaxEntries int
	// MaxFileBytes caps the uncompressed size of one file.
	MaxFileBytes int64
	// MaxTotalBytes caps the uncompressed size of all files together.
	MaxTotalBytes int64
	// MaxRatio caps uncompressed bytes per compressed byte, checked once
	// more than RatioGrace bytes have been decompressed.
	MaxRatio int64
	// RatioGrace is the uncompressed size below which the ratio is not
	// checked (small text files compress very well).
	RatioGrace int64
}

// DefaultExtractLimits returns 10,000 entries, 10 MiB per file, 100 MiB
// in all and a compression ratio of at most 200:1 beyond the first 1 MiB,
// matching the package limits of the format module.
func DefaultExtractLimits() ExtractLimits {
	return ExtractLimits{
		MaxEntries:    10_000,
		MaxFileBytes:  10 << 20,
		MaxTotalBytes: 100 << 20,
		MaxRatio:      200,
		RatioGrace:    1 << 20,
	}
}

// Extract unpacks the .tar.gz stream r into the existing, empty directory
// dir and returns the slash-separated paths of the regular files written,
// sorted. Only regular files and directories are accepted; symbolic and
// hard links, devices, FIFOs, duplicate names (also when they differ only
// in case) and unsafe paths are refused with ASK_ARCHIVE_UNSAFE naming the
// entry and the rule; crossing a limit is ASK_ARCHIVE_TOO_LARGE. When
// every entry sits under one common top folder (package/, name-1.0.0/)
// that folder is stripped. Files are written 0644 and directories 0755
// whatever the archive says. On error dir may hold partial output; the
// caller extracts into a temporary directory and removes it.
func Extract(ctx context.Context, r io.Reader, dir string, lim ExtractLimits) ([]string, error) {
	if ents, err := os.ReadDir(dir); err != nil {
		return nil, err
	} else if len(ents) > 0 {
		return nil, fmt.Errorf("extract: %s is not empty", dir)
	}
	stage, err := os.MkdirTemp(dir, ".extract-")
	if err != nil {
		return nil, err
	}
	x := &extractor{lim: lim, root: stage, seen: map[string]bool{}}
	cr := &countReader{r: r}
	x.compressed = cr
	zr, err := gzip.NewReader(cr)
	if err != nil {
		return nil, x.readFailure("", "not a gzip stream", err)
	}
	zr.Multistream(false)
	tr := tar.NewReader(zr)
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		h, err := tr.Next()
		if err == io.EOF {
			// Read the gzip stream to its end, under the same limits, so
			// that its CRC-32 and size trailer are checked too.
			if _, err := x.copy(io.Discard, zr, "(after the end of the archive)"); err != nil {
				return nil, err
			}
			break
		}
		if err != nil {
			return nil, x.readFailure("", "corrupt archive", err)
		}
		if err := x.entry(h, tr); err != nil {
			return nil, err
		}
	}
	return x.finish(dir)
}

// extractor carries the state of one extraction.
type extractor struct {
	lim        ExtractLimits
	root       string
	compressed *countReader
	entries    int
	total      int64
	seen       map[string]bool // path -> is directory
	names      format.PathSet  // refuses names that collide on Windows and macOS
	unportable []*format.PathError
	files      []string
}

// entry validates and writes one tar entry.
func (x *extractor) entry(h *tar.Header, r io.Reader) error {
	if h.Typeflag == tar.TypeXGlobalHeader {
		return nil // git archive writes one; it names no file
	}
	x.entries++
	if x.entries > x.lim.MaxEntries {
		return archiveTooLarge(h.Name, fmt.Sprintf("more than %d entries", x.lim.MaxEntries))
	}
	name := strings.TrimPrefix(h.Name, "./")
	isDir := false
	switch h.Typeflag {
	case tar.TypeReg: // tar.Reader reports a legacy TypeRegA entry as TypeReg or TypeDir
	case tar.TypeDir:
		isDir = true
		name = strings.TrimSuffix(name, "/")
	case tar.TypeSymlink:
		return archiveUnsafe(h.Name, "symbolic links are not allowed")
	case tar.TypeLink:
		return archiveUnsafe(h.Name, "hard links are not allowed")
	case tar.TypeChar, tar.TypeBlock:
		return archiveUnsafe(h.Name, "device files are not allowed")
	case tar.TypeFifo:
		return archiveUnsafe(h.Name, "FIFOs are not allowed")
	default:
		return archiveUnsafe(h.Name, fmt.Sprintf("entry type %q is not allowed", h.Typeflag))
	}
	if isDir && name == "" {
		return nil // "./" itself
	}
	if ok, err := x.admit(h.Name, name, isDir); !ok {
		if err == nil && !isDir {
			_, err = x.copy(io.Discard, r, h.Name) // a skipped body still counts against the limits
		}
		return err
	}
	full := filepath.Join(x.root, filepath.FromSlash(name))
	if isDir {
		return os.MkdirAll(full, 0o755)
	}
	if h.Size > x.lim.MaxFileBytes {
		return archiveTooLarge(h.Name, fmt.Sprintf("file is %d bytes; the limit is %d", h.Size, x.lim.MaxFileBytes))
	}
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(full, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	n, err := x.copy(f, r, h.Name)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if n != h.Size {
		return archiveUnsafe(h.Name, "truncated entry")
	}
	x.files = append(x.files, name)
	return nil
}

// copy streams one file body, counting bytes against every limit.
func (x *extractor) copy(w io.Writer, r io.Reader, name string) (int64, error) {
	buf := make([]byte, 32<<10)
	var n int64
	for {
		m, err := r.Read(buf)
		if m > 0 {
			n += int64(m)
			x.total += int64(m)
			switch {
			case n > x.lim.MaxFileBytes:
				return n, archiveTooLarge(name, fmt.Sprintf("file is larger than %d bytes", x.lim.MaxFileBytes))
			case x.total > x.lim.MaxTotalBytes:
				return n, archiveTooLarge(name, fmt.Sprintf("archive expands to more than %d bytes", x.lim.MaxTotalBytes))
			case x.total > x.lim.RatioGrace && x.total > x.lim.MaxRatio*max(x.compressed.n, 1):
				return n, archiveTooLarge(name, fmt.Sprintf("compression ratio above %d:1", x.lim.MaxRatio))
			}
			if _, werr := w.Write(buf[:m]); werr != nil {
				return n, werr
			}
		}
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, x.readFailure(name, "corrupt archive", err)
		}
	}
}

// readFailure explains a failed read of the archive: a failure of the
// stream underneath (a download that timed out, a cancelled command, a
// body over its cap) is returned as it is, anything else is the archive's
// own fault, ASK_ARCHIVE_UNSAFE.
func (x *extractor) readFailure(entry, what string, err error) error {
	if x.compressed.err != nil {
		return x.compressed.err
	}
	return archiveUnsafe(entry, what+": "+err.Error())
}

// finish strips a single common top folder and moves the staged tree into
// dir.
func (x *extractor) finish(dir string) ([]string, error) {
	if err := x.unportableError(); err != nil {
		return nil, err
	}
	src := x.root
	prefix := ""
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

// countReader counts the bytes read through it and keeps the first error
// of the reader underneath, other than io.EOF.
type countReader struct {
	r   io.Reader
	n   int64
	err error
}

// Read reads from the underlying reader and counts.
func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if err != nil && err != io.EOF && c.err == nil {
		c.err = err
	}
	return n, err
}

// meteredReader feeds a decompressor and adds every byte it hands out to
// *n. Being an io.ByteReader, it keeps compress/flate from reading ahead,
// so *n is the compressed size an entry really has, whatever size the
// archive declares for it.
type meteredReader struct {
	br *bufio.Reader
	n  *int64
}

// Read reads and counts.
func (m *meteredReader) Read(p []byte) (int, error) {
	n, err := m.br.Read(p)
	*m.n += int64(n)
	return n, err
}

// ReadByte reads one byte and counts it.
func (m *meteredReader) ReadByte() (byte, error) {
	b, err := m.br.ReadByte()
	if err == nil {
		*m.n++
	}
	return b, err
}

// archiveUnsafe builds an ASK_ARCHIVE_UNSAFE error for entry.
func archiveUnsafe(entry, rule string) *Error {
	msg := "unsafe archive: " + rule
	if entry != "" {
		msg = fmt.Sprintf("unsafe archive entry %q: %s", entry, rule)
	}
	return &Error{
		Code:    CodeArchiveUnsafe,
		Message: msg,
		Try:     []string{"do not install this package; report it to the registry's maintainers"},
	}
}

// archiveTooLarge builds an ASK_ARCHIVE_TOO_LARGE error for entry.
func archiveTooLarge(entry, rule string) *Error {
	return &Error{
		Code:    CodeArchiveTooLarge,
		Message: fmt.Sprintf("archive entry %q exceeds a limit: %s", entry, rule),
		Try:     []string{"do not install this package; report it to the registry's maintainers"},
	}
}

// isArchiveError reports whether err is one of Extract's own refusals.
func isArchiveError(err error) bool {
	var e *Error
	return errors.As(err, &e) && (e.Code == CodeArchiveUnsafe || e.Code == CodeArchiveTooLarge)
}
