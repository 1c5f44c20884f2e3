package format

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"slices"
	"strings"
)

// FileHash is one record of the canonical digest tree: a package-relative
// path and the digest string of its bytes ("sha256-" + base64).
type FileHash struct {
	// Path is the slash-separated, package-relative file path.
	Path string
	// Digest is the file's digest string, as FileDigest returns it.
	Digest string
}

// Digest returns the canonical integrity of a package: "sha256-" followed by
// the standard, padded base64 of the SHA-256 of the digest tree of files.
//
// The algorithm is the one the origin registry's values were made with:
//
//  1. each file's digest string is "sha256-" + base64(sha256(bytes));
//     for the root skill.yaml only, every top-level `integrity:` line is
//     removed first (see StripIntegrity);
//  2. each file contributes the record path, NUL, digest string, "\n";
//  3. records are concatenated in ascending byte order of the path
//     (no Unicode normalisation: the bytes of the UTF-8 path are compared
//     and hashed as given);
//  4. the result is "sha256-" + base64(sha256(concatenation)).
//
// files is the package's file set, as Load returns it; order does not
// matter, but a duplicate or invalid path is an error. Digest opens files
// through fsys and trusts them to be regular files: Load has already
// refused symbolic links and special files. Files are streamed, never read
// whole into memory, so packages of hundreds of megabytes are fine.
func Digest(fsys fs.FS, files []string) (string, error) {
	return NewDigester().Digest(fsys, files)
}

// Digester computes digests with reusable buffers. It is not safe for
// concurrent use; use one Digester per goroutine.
type Digester struct {
	buf []byte
	h   hash.Hash
	br  *bufio.Reader
}

// NewDigester returns a Digester with a 64 KiB copy buffer.
func NewDigester() *Digester {
	return &Digester{buf: make([]byte, 64<<10), h: sha256.New()}
}

// Digest is the package-level Digest using d's buffers.
func (d *Digester) Digest(fsys fs.FS, files []string) (string, error) {
	sorted := slices.Clone(files)
	slices.Sort(sorted)
	hashes := make([]FileHash, 0, len(sorted))
	for i, name := range sorted {
		if i > 0 && sorted[i-1] == name {
			return "", fmt.Errorf("digest: %s is listed twice", name)
		}
		if !fs.ValidPath(name) || name == "." {
			return "", fmt.Errorf("digest: %q is not a valid package path", name)
		}
		sum, err := d.file(fsys, name)
		if err != nil {
			return "", err
		}
		hashes = append(hashes, FileHash{Path: name, Digest: sum})
	}
	return CombineDigests(hashes), nil
}

func (d *Digester) file(fsys fs.FS, name string) (string, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return "", fmt.Errorf("digest: %w", err)
	}
	defer f.Close()
	var r io.Reader = f
	if name == ManifestFile {
		r = d.strip(f)
	}
	sum, err := d.FileDigest(r)
	if err != nil {
		return "", fmt.Errorf("digest: %s: %w", name, err)
	}
	return sum, nil
}

// strip is StripIntegrity reusing d's line reader.
func (d *Digester) strip(r io.Reader) io.Reader {
	if d.br == nil {
		d.br = bufio.NewReaderSize(r, 4096)
	} else {
		d.br.Reset(r)
	}
	return &integrityStripper{r: d.br, lineStart: true}
}

// FileDigest returns the digest string of everything r yields:
// "sha256-" + base64(sha256(bytes)).
func (d *Digester) FileDigest(r io.Reader) (string, error) {
	d.h.Reset()
	if _, err := io.CopyBuffer(hashWriter{d.h}, readerOnly{r}, d.buf); err != nil {
		return "", err
	}
	return formatSum(d.h.Sum(nil)), nil
}

// hashWriter hides the hash's other methods so io.CopyBuffer really uses
// the buffer instead of looking for ReaderFrom.
type hashWriter struct{ h hash.Hash }

// Write adds p to the hash.
func (w hashWriter) Write(p []byte) (int, error) { return w.h.Write(p) }

// readerOnly hides the reader's WriteTo (an *os.File has one), which would
// otherwise make io.CopyBuffer ignore the buffer and allocate its own.
type readerOnly struct{ r io.Reader }

// Read reads from the wrapped reader.
func (r readerOnly) Read(p []byte) (int, error) { return r.r.Read(p) }

// FileDigest returns "sha256-" + base64(sha256(r's bytes)), streaming r.
func FileDigest(r io.Reader) (string, error) { return NewDigester().FileDigest(r) }

// CombineDigests builds the package integrity from per-file records, as in
// steps 2 to 4 of Digest. It sorts a copy of hashes by path; callers that
// hash files from another source (a tar stream, say) use it with
// FileDigest and StripIntegrity.
func CombineDigests(hashes []FileHash) string {
	sorted := slices.Clone(hashes)
	slices.SortFunc(sorted, func(a, b FileHash) int { return strings.Compare(a.Path, b.Path) })
	h := sha256.New()
	for _, fh := range sorted {
		io.WriteString(h, fh.Path)
		h.Write([]byte{0})
		io.WriteString(h, fh.Digest)
		h.Write([]byte{'\n'})
	}
	return formatSum(h.Sum(nil))
}

func formatSum(sum []byte) string { return "sha256-" + base64.StdEncoding.EncodeToString(sum) }

// BytesDigest is FileDigest of data held in memory, with no copy buffer.
func BytesDigest(data []byte) string {
	sum := sha256.Sum256(data)
	return formatSum(sum[:])
}

// SumDigest writes a SHA-256 sum (a hash.Hash's Sum of a file's bytes) in
// the form FileDigest returns.
func SumDigest(sum []byte) string { return formatSum(sum) }

// StripIntegrity returns a reader that yields r without its top-level
// `integrity:` lines: the lines that start at column 1 with exactly
// "integrity:", removed together with their line end ("\n" or "\r\n").
// This is how the root skill.yaml is hashed, so that writing the integrity
// into the manifest does not change it. The rule is textual, decided as
// follows:
//
//   - an indented `integrity:` is a nested key, not the manifest's, and is
//     kept;
//   - a CRLF line is removed with its "\r\n", and a last line without a
//     line end is removed too;
//   - every top-level `integrity:` line is removed, not only the first.
//     DecodeManifest rejects a manifest with the key twice, so for every
//     valid manifest this is the same as removing the one line; removing
//     all keeps Digest a total function that never fails on content;
//   - only the line itself is removed: a block scalar's indented
//     continuation lines, which no real manifest writes for an integrity,
//     stay and are hashed;
//   - spellings YAML also reads as the key (`"integrity":`, `integrity :`)
//     are not removed.
func StripIntegrity(r io.Reader) io.Reader {
	return &integrityStripper{r: bufio.NewReaderSize(r, 4096), lineStart: true}
}

// integrityStripper is the reader StripIntegrity returns.
type integrityStripper struct {
	r         *bufio.Reader
	pending   []byte
	lineStart bool // the next chunk starts a line
	dropping  bool // the current line is being removed
	err       error
}

// Read yields the next bytes of the input that are not on a top-level
// `integrity:` line.
func (s *integrityStripper) Read(p []byte) (int, error) {
	for len(s.pending) == 0 {
		if s.err != nil {
			return 0, s.err
		}
		chunk, err := s.r.ReadSlice('\n')
		if s.lineStart {
			s.dropping = bytes.HasPrefix(chunk, []byte("integrity:"))
		}
		s.lineStart = len(chunk) > 0 && chunk[len(chunk)-1] == '\n'
		if !s.dropping {
			s.pending = chunk
		}
		switch {
		case err == nil, errors.Is(err, bufio.ErrBufferFull):
		default:
			s.err = err
		}
	}
	n := copy(p, s.pending)
	s.pending = s.pending[n:]
	return n, nil
}

// ParseIntegrity splits an integrity string "<algo>-<digest>" into its
// algorithm and raw digest bytes. The algorithm is sha256, sha384 or
// sha512 (the Subresource Integrity set; this package produces sha256).
// The digest is standard padded base64, as Digest writes it; a lower- or
// upper-case hexadecimal digest of the algorithm's exact length is also
// accepted, because DESIGN §3.3 shows that form and the two cannot be
// confused (their lengths differ for every algorithm).
func ParseIntegrity(s string) (algo string, sum []byte, err error) {
	algo, enc, ok := strings.Cut(s, "-")
	if !ok {
		return "", nil, fmt.Errorf("integrity %q must look like sha256-<base64 digest>", s)
	}
	var size int
	switch algo {
	case "sha256":
		size = sha256.Size
	case "sha384":
		size = 48
	case "sha512":
		size = 64
	default:
		return "", nil, fmt.Errorf("integrity %q uses the unsupported algorithm %q; use sha256", s, algo)
	}
	if len(enc) == 2*size {
		if b, err := hex.DecodeString(enc); err == nil {
			return algo, b, nil
		}
	}
	b, err := base64.StdEncoding.Strict().DecodeString(enc)
	if err != nil || len(b) != size {
		return "", nil, fmt.Errorf("integrity %q does not hold a %d-byte %s digest in padded base64 or hex", s, size, algo)
	}
	return algo, b, nil
}

// SameIntegrity reports whether two integrity strings name the same
// algorithm and digest, whatever encoding each uses. Malformed strings are
// never the same as anything.
func SameIntegrity(a, b string) bool {
	algoA, sumA, errA := ParseIntegrity(a)
	algoB, sumB, errB := ParseIntegrity(b)
	return errA == nil && errB == nil && algoA == algoB && subtle.ConstantTimeCompare(sumA, sumB) == 1
}
