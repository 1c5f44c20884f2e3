package catalog

import (
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// MaxReadBytes caps the size of a file ReadDir and ReadFS serve.
const MaxReadBytes = 256 << 10

// EntrypointFile is the resource served when none is named.
const EntrypointFile = "SKILL.md"

// Document is one Markdown file of a package, as a read returns it.
type Document struct {
	// Skill is the package name.
	Skill string `json:"skill"`
	// Resource is the package-relative path served.
	Resource string `json:"resource"`
	// Source says where the package comes from (see Skill.Source).
	Source string `json:"source"`
	// Version is the package version, when known.
	Version string `json:"version,omitempty"`
	// Digest is the content digest: "sha256-" + base64 of the SHA-256 of
	// the bytes served.
	Digest string `json:"digest"`
	// Size is the number of bytes served.
	Size int `json:"size"`
	// Content is the file's text.
	Content string `json:"content"`
}

// ContentDigest returns "sha256-" + the standard base64 of the SHA-256 of b.
func ContentDigest(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

// CheckResource validates a requested resource and returns it in canonical
// form: "" means SKILL.md; otherwise the path must be SKILL.md or a ".md"
// file under references/, written as a plain relative slash path. Absolute
// and drive paths, "..", "." or empty segments, backslashes, percent signs
// (so no encoded escape such as %2e%2e/ or %2f can be decoded later),
// control characters and invalid UTF-8 are ASK_CATALOG_READ_DENIED.
func CheckResource(resource string) (string, error) {
	if resource == "" {
		return EntrypointFile, nil
	}
	if err := CheckPath(resource); err != nil {
		return "", err
	}
	if resource == EntrypointFile {
		return resource, nil
	}
	if !strings.HasPrefix(resource, "references/") {
		return "", denied(resource, "only SKILL.md and Markdown files under references/ are served")
	}
	if path.Ext(resource) != ".md" {
		return "", denied(resource, "only Markdown (.md) files are served")
	}
	return resource, nil
}

// CheckPath is the confinement half of CheckResource: it accepts any plain
// relative slash path inside a package and refuses, as
// ASK_CATALOG_READ_DENIED, absolute and drive paths, "..", "." or empty
// segments, backslashes, percent signs, control characters, invalid UTF-8
// and paths above 1024 bytes. It says nothing about which files are
// served: CheckResource adds read_skill's rule, and the SEP-2640 resources
// serve a package's file set.
func CheckPath(resource string) error {
	switch {
	case len(resource) > 1024:
		return denied(resource[:64]+"…", "the path is longer than 1024 bytes")
	case !utf8.ValidString(resource):
		return denied(resource, "the path is not valid UTF-8")
	case strings.ContainsAny(resource, "%"):
		return denied(resource, "percent-encoded paths are not accepted (an encoded escape such as %2e%2e/ could leave the package)")
	case strings.Contains(resource, `\`):
		return denied(resource, "backslashes are not accepted; use / between folders")
	case strings.HasPrefix(resource, "/") || (len(resource) >= 2 && resource[1] == ':'):
		return denied(resource, "absolute paths are not accepted; name a file inside the package")
	}
	for _, r := range resource {
		if r < 0x20 || r == 0x7f {
			return denied(resource, "control characters are not accepted")
		}
	}
	for _, seg := range strings.Split(resource, "/") {
		if seg == ".." {
			return denied(resource, "\"..\" would leave the package")
		}
	}
	if !fs.ValidPath(resource) || resource == "." {
		return denied(resource, "empty or \".\" path segments are not accepted")
	}
	return nil
}

// ReadDir reads resource (checked with CheckResource) from the package
// folder dir without following any symbolic link: dir itself and every
// folder on the way must be real folders and the file a regular file, each
// checked with os.Lstat, and the file opened must be the one checked.
// A missing file is ASK_CATALOG_NOT_FOUND; a link, a special file or a file
// above MaxReadBytes is ASK_CATALOG_READ_DENIED.
func ReadDir(dir, resource string) ([]byte, string, error) {
	res, err := CheckResource(resource)
	if err != nil {
		return nil, "", err
	}
	b, err := readDir(dir, res, MaxReadBytes)
	return b, res, err
}

// ReadDirFile reads the package file rel (checked with CheckPath, not
// with read_skill's SKILL.md-and-references rule) from the folder dir,
// confined exactly as ReadDir is, with max as the size cap. The SEP-2640
// resources serve a package's whole file set through it.
func ReadDirFile(dir, rel string, max int64) ([]byte, error) {
	if err := CheckPath(rel); err != nil {
		return nil, err
	}
	return readDir(dir, rel, max)
}

// readDir is ReadDir's walk for a checked path res with the cap max.
func readDir(dir, res string, max int64) ([]byte, error) {
	cur := filepath.Clean(dir)
	fi, err := os.Lstat(cur)
	if err != nil {
		return nil, notFound("the package folder " + dir + " cannot be read")
	}
	if fi.Mode()&fs.ModeSymlink != 0 || !fi.IsDir() {
		return nil, denied(res, "the package folder is a symbolic link or not a folder")
	}
	segs := strings.Split(res, "/")
	for i, seg := range segs {
		cur = filepath.Join(cur, seg)
		fi, err = os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, missing(res)
		}
		if err != nil {
			return nil, denied(res, err.Error())
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return nil, denied(res, strings.Join(segs[:i+1], "/")+" is a symbolic link, which is never followed")
		}
		last := i == len(segs)-1
		if !last && !fi.IsDir() {
			return nil, missing(res)
		}
		if last && !fi.Mode().IsRegular() {
			return nil, denied(res, "not a regular file")
		}
	}
	if fi.Size() > max {
		return nil, tooLarge(res, fi.Size(), max)
	}
	f, err := openSame(cur, fi)
	if err != nil {
		return nil, denied(res, err.Error())
	}
	defer f.Close()
	return readCapped(f, res, max)
}

// ReadFS reads resource (checked with CheckResource) from a package file
// system, such as a registry's verified package. When fsys can report
// links (fs.ReadLinkFS, as os.DirFS does) every step is checked with
// fs.Lstat and a link is refused; the file must be regular and at most
// MaxReadBytes.
func ReadFS(fsys fs.FS, resource string) ([]byte, string, error) {
	res, err := CheckResource(resource)
	if err != nil {
		return nil, "", err
	}
	b, err := readFS(fsys, res, MaxReadBytes)
	return b, res, err
}

// ReadFSFile reads the package file rel (checked with CheckPath) from
// fsys, confined exactly as ReadFS is, with max as the size cap.
func ReadFSFile(fsys fs.FS, rel string, max int64) ([]byte, error) {
	if err := CheckPath(rel); err != nil {
		return nil, err
	}
	return readFS(fsys, rel, max)
}

// readFS is ReadFS's walk for a checked path res with the cap max.
func readFS(fsys fs.FS, res string, max int64) ([]byte, error) {
	var err error
	segs := strings.Split(res, "/")
	var fi fs.FileInfo
	for i := range segs {
		p := strings.Join(segs[:i+1], "/")
		if _, ok := fsys.(fs.ReadLinkFS); ok {
			fi, err = fs.Lstat(fsys, p)
		} else {
			fi, err = fs.Stat(fsys, p)
		}
		if errors.Is(err, fs.ErrNotExist) {
			return nil, missing(res)
		}
		if err != nil {
			return nil, denied(res, err.Error())
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return nil, denied(res, p+" is a symbolic link, which is never followed")
		}
		if i < len(segs)-1 && !fi.IsDir() {
			return nil, missing(res)
		}
	}
	if !fi.Mode().IsRegular() {
		return nil, denied(res, "not a regular file")
	}
	if fi.Size() > max {
		return nil, tooLarge(res, fi.Size(), max)
	}
	f, err := fsys.Open(res)
	if err != nil {
		return nil, missing(res)
	}
	defer f.Close()
	return readCapped(f, res, max)
}

// readCapped reads r, refusing more than max bytes.
func readCapped(r io.Reader, res string, max int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, denied(res, err.Error())
	}
	if int64(len(b)) > max {
		return nil, tooLarge(res, int64(len(b)), max)
	}
	return b, nil
}

// missing builds the ASK_CATALOG_NOT_FOUND error of a resource.
func missing(res string) *Error {
	return notFound("the package has no "+res,
		"read SKILL.md first: it names the files under references/")
}

// tooLarge builds the error of a file above the cap max.
func tooLarge(res string, n, max int64) *Error {
	return denied(res, fmt.Sprintf("it is %d bytes, above the %d-byte cap", n, max))
}
