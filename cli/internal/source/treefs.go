package source

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync/atomic"
)

// errLink is the cause of every treeFS error for a path that is, or goes
// through, a symbolic link.
var errLink = errors.New("is a symbolic link, and links inside a source are never followed")

// treeFS reads a source's files — a local folder, a git checkout, an
// extracted archive — without ever following a symbolic link: a link to a
// file or folder, whether it points outside the source or inside it, is
// not a file or folder of the source. This is how packages treat links
// (format.Load refuses them) and how Go's module zips do; following links
// that stay inside would make the same bytes reachable under two paths and
// walks loop.
//
// Every operation checks each element of its path with Lstat, so no link
// on the way is followed, and goes through an os.Root, so that even a link
// swapped in after the check cannot lead outside the source. A file or
// folder that is opened must also be the one that was checked
// (os.SameFile), so a swap inside the source is refused too.
//
// treeFS implements fs.FS, fs.StatFS, fs.ReadDirFS, fs.ReadFileFS and
// fs.ReadLinkFS. Stat and Open refuse a link; Lstat reports one.
type treeFS struct {
	root *os.Root
	// dir is the root folder, for the one-call opens of openNoLinks (Linux),
	// and dirfd its descriptor; noOpenat2 records that the kernel refused
	// them. A treeFS may be read from several goroutines at once.
	dir       *os.File
	dirfd     int
	noOpenat2 atomic.Bool
}

// openTreeFS opens the folder dir, which may itself be reached through a
// link: the user named it.
func openTreeFS(dir string) (*treeFS, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	t := &treeFS{root: r, dir: openDir(r)}
	if t.dir != nil {
		t.dirfd = int(t.dir.Fd())
	}
	return t, nil
}

// Close releases the folder; a second Close does nothing.
func (t *treeFS) Close() error {
	if t.dir != nil {
		t.dir.Close()
		t.dir = nil
	}
	if t.root == nil {
		return nil
	}
	err := t.root.Close()
	t.root = nil
	return err
}

// walkTo Lstats every element of name and returns the info of the last.
// Every element but the last must be a real folder; the last may be
// anything, a link included, unless refuseLink is set.
func (t *treeFS) walkTo(op, name string, refuseLink bool) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	var info fs.FileInfo
	elems := strings.Split(name, "/")
	for i := range elems {
		sub := strings.Join(elems[:i+1], "/")
		var err error
		if info, err = t.root.Lstat(sub); err != nil {
			return nil, &fs.PathError{Op: op, Path: name, Err: unwrapPath(err)}
		}
		last := i == len(elems)-1
		switch {
		case info.Mode()&fs.ModeSymlink != 0 && (!last || refuseLink):
			return nil, &fs.PathError{Op: op, Path: sub, Err: errLink}
		case !last && !info.IsDir():
			return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
		}
	}
	return info, nil
}

// Open opens the file or folder name, refusing a link anywhere on the way.
func (t *treeFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if f, ok := t.openNoLinks(name); ok {
		t.countRead("open", name)
		return f, nil
	}
	info, err := t.walkTo("open", name, true)
	if err != nil {
		return nil, err
	}
	f, err := t.root.Open(name)
	if err != nil {
		return nil, err
	}
	got, err := f.Stat()
	if err != nil || !os.SameFile(info, got) {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: errors.New("changed while it was being read")}
	}
	t.countRead("open", name)
	return f, nil
}

// Stat returns the info of name, refusing a link anywhere on the way,
// the last element included: Stat never follows a link.
func (t *treeFS) Stat(name string) (fs.FileInfo, error) {
	if fs.ValidPath(name) {
		if info, ok := t.statNoLinks(name, false); ok {
			return info, nil
		}
	}
	return t.walkTo("stat", name, true)
}

// Lstat returns the info of name, which may be a link; no link before it
// is followed.
func (t *treeFS) Lstat(name string) (fs.FileInfo, error) {
	if fs.ValidPath(name) {
		if info, ok := t.statNoLinks(name, true); ok {
			return info, nil
		}
	}
	return t.walkTo("lstat", name, false)
}

// ReadLink returns the target of the link name, for fs.ReadLinkFS; no
// link before it is followed.
func (t *treeFS) ReadLink(name string) (string, error) {
	if _, err := t.walkTo("readlink", name, false); err != nil {
		return "", err
	}
	return t.root.Readlink(name)
}

// ReadDir lists the folder name, sorted; each entry's type is that of the
// entry itself (a link is a link, not what it points to).
func (t *treeFS) ReadDir(name string) ([]fs.DirEntry, error) {
	f, err := t.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ents, err := f.(*os.File).ReadDir(-1)
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return ents, err
}

// ReadFile reads the whole file name.
func (t *treeFS) ReadFile(name string) ([]byte, error) {
	f, err := t.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// isLink reports whether err is treeFS's refusal of a link.
func isLink(err error) bool { return errors.Is(err, errLink) }

// unwrapPath returns the cause of an *fs.PathError, so that a treeFS error
// names the path it was asked for once.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
