package install

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/format"
)

// onDisk is what is at a package's destination, compared with its receipt.
type onDisk struct {
	// exists is true when something is at the destination.
	exists bool
	// kindOK is true when that something has the expected shape: a real
	// folder for the directory shape, a regular file for the file shape.
	kindOK bool
	// files are the regular files and symbolic links found inside a
	// directory-shaped destination, slash-separated and sorted.
	files []string
	// changed and missing are the receipt's files whose digest differs or
	// that are absent, sorted.
	changed, missing []string
	// added are files present but not in the receipt, sorted.
	added []string
}

// modified reports whether any tracked file was changed or is missing.
func (d *onDisk) modified() bool { return len(d.changed) > 0 || len(d.missing) > 0 }

// DriftState is how one file of an installed package differs from what
// its receipt records.
type DriftState string

// Drift states.
const (
	// DriftChanged is a tracked file whose bytes or mode changed.
	DriftChanged DriftState = "changed"
	// DriftMissing is a tracked file that is gone.
	DriftMissing DriftState = "missing"
	// DriftAdded is a file the receipt does not list: the user's own.
	DriftAdded DriftState = "added"
)

// Drift is one file of an installed package that differs from its
// receipt.
type Drift struct {
	// Path is the file, slash-separated, relative to the package folder.
	Path  string     `json:"path"`
	State DriftState `json:"state"`
}

// drift lists every file that differs from the receipt, sorted by path.
func (d *onDisk) drift() []Drift {
	var out []Drift
	for _, g := range []struct {
		files []string
		state DriftState
	}{{d.changed, DriftChanged}, {d.missing, DriftMissing}, {d.added, DriftAdded}} {
		for _, f := range g.files {
			out = append(out, Drift{Path: f, State: g.state})
		}
	}
	slices.SortFunc(out, func(a, b Drift) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// modifiedList renders the changed and missing files for a report.
func (d *onDisk) modifiedList() []string {
	var out []string
	for _, f := range d.changed {
		out = append(out, f+" (changed)")
	}
	for _, f := range d.missing {
		out = append(out, f+" (missing)")
	}
	slices.Sort(out)
	return out
}

// pkgRoot opens, as an os.Root, the folder a package's records are
// relative to: the package folder for the directory shape (which must be
// a real folder, not a link), the agent root for the file shape. Every
// read of a tracked file goes through it, so a link inside a package (or
// a receipt naming one) never leads a comparison outside the package. It
// returns nil when there is nothing to open.
func pkgRoot(dest string, shape agents.Shape) (*os.Root, error) {
	dir := dest
	if shape == agents.ShapeFile {
		dir = filepath.Dir(dest)
	} else if info, err := os.Lstat(dest); err != nil || !info.IsDir() {
		return nil, err
	}
	r, err := os.OpenRoot(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return r, err
}

// recordRel returns the name of a receipt record in pkgRoot's folder.
func recordRel(dest string, shape agents.Shape, rel string) string {
	if shape == agents.ShapeFile {
		return filepath.Base(dest)
	}
	return filepath.FromSlash(rel)
}

// presence is what inspect finds without reading any file: whether dest
// is there, and with the shape's kind (a folder or a regular file).
func presence(dest string, shape agents.Shape) (*onDisk, error) {
	d := &onDisk{}
	info, err := os.Lstat(dest)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, err
	default:
		d.exists = true
		if shape == agents.ShapeFile {
			d.kindOK = info.Mode().IsRegular()
		} else {
			d.kindOK = info.IsDir()
		}
	}
	return d, nil
}

// inspect looks at dest and compares it with rec (which may be nil).
// It never follows a symbolic link: a link where a folder is expected is
// something, but not a folder this package wrote.
func inspect(dest string, shape agents.Shape, rec *receipt, dg *format.Digester) (*onDisk, error) {
	d, err := presence(dest, shape)
	if err != nil {
		return nil, err
	}
	present := map[string]bool{}
	if d.kindOK && shape == agents.ShapeDirectory {
		err := filepath.WalkDir(dest, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if e.IsDir() {
				return nil
			}
			rel, _ := filepath.Rel(dest, p)
			rel = filepath.ToSlash(rel)
			d.files = append(d.files, rel)
			present[rel] = true
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if rec == nil {
		d.added = d.files
		return d, nil
	}
	var r *os.Root
	var pf *pkgFd
	if d.kindOK {
		if pf, err = openPkgFd(dest, shape); err != nil {
			return nil, err
		}
		if pf == nil {
			if r, err = pkgRoot(dest, shape); err != nil {
				return nil, err
			}
		}
	}
	if r != nil {
		defer r.Close()
	}
	if pf != nil {
		defer pf.Close()
	}
	tracked := map[string]bool{}
	for _, f := range rec.Files {
		tracked[f.Path] = true
		if (r == nil && pf == nil) || (shape == agents.ShapeDirectory && !present[f.Path]) {
			d.missing = append(d.missing, f.Path)
			continue
		}
		var same bool
		if pf != nil {
			same, err = pf.fileMatches(recordRel(dest, shape, f.Path), f.Digest, dg)
		} else {
			same, err = fileMatches(r, recordRel(dest, shape, f.Path), f.Digest, dg)
		}
		if errors.Is(err, fs.ErrNotExist) {
			d.missing = append(d.missing, f.Path)
			continue
		}
		if err != nil {
			return nil, err
		}
		if !same {
			d.changed = append(d.changed, f.Path)
		}
	}
	for _, f := range d.files {
		if !tracked[f] {
			d.added = append(d.added, f)
		}
	}
	return d, nil
}

// fileMatches reports whether the regular file rel in r has digest want.
// A symbolic link or other non-regular file never matches.
func fileMatches(r *os.Root, rel, want string, dg *format.Digester) (bool, error) {
	info, err := r.Lstat(rel)
	if err != nil {
		return false, err
	}
	if !info.Mode().IsRegular() {
		return false, nil
	}
	f, err := r.OpenFile(rel, os.O_RDONLY|oNoFollow, 0)
	if err != nil {
		return false, err
	}
	defer f.Close()
	got, err := dg.FileDigest(f)
	if err != nil {
		return false, err
	}
	return got == want, nil
}

// matches reports whether every file rec tracks is at dest with its digest.
func matches(dest string, shape agents.Shape, rec *receipt, dg *format.Digester) bool {
	if pf, err := openPkgFd(dest, shape); err != nil {
		return false
	} else if pf != nil {
		defer pf.Close()
		for _, f := range rec.Files {
			ok, err := pf.fileMatches(recordRel(dest, shape, f.Path), f.Digest, dg)
			if err != nil || !ok {
				return false
			}
		}
		return true
	}
	r, err := pkgRoot(dest, shape)
	if err != nil || r == nil {
		return false
	}
	defer r.Close()
	for _, f := range rec.Files {
		ok, err := fileMatches(r, recordRel(dest, shape, f.Path), f.Digest, dg)
		if err != nil || !ok {
			return false
		}
	}
	return true
}

// anyPresent reports whether any file rec tracks exists at dest.
func anyPresent(dest string, shape agents.Shape, rec *receipt) bool {
	r, err := pkgRoot(dest, shape)
	if err != nil || r == nil {
		return false
	}
	defer r.Close()
	for _, f := range rec.Files {
		if _, err := r.Lstat(recordRel(dest, shape, f.Path)); err == nil {
			return true
		}
	}
	return false
}
