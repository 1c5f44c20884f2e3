package catindex

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// catalogFile is a collection's catalog file name (catalog.FileName).
const catalogFile = "skills-catalog.json"

// CheckPlace refuses (ASK_CATALOG_INDEX_PLACE) an index folder dir that is
// not a folder; that holds the evidence database (skills-usage.db) or is
// the folder of evidenceDB, the evidence store this machine uses ("" when
// unknown); that is inside one of collections (absolute folders), or
// inside the git repository holding one; or that is inside any folder —
// itself included — holding a skills-catalog.json, which is how the
// collections already in the index (whose folders the index never
// records) are recognised. It reads only file metadata.
func CheckPlace(dir string, collections []string, evidenceDB string) error {
	if !filepath.IsAbs(dir) {
		return placeErr(fmt.Sprintf("the index folder %q is not absolute", dir))
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return placeErr(fmt.Sprintf("the index folder %s is not a folder", dir), "name a folder with --index DIR")
	}
	real := realPath(dir)
	if _, err := os.Lstat(filepath.Join(dir, EvidenceName)); err == nil {
		return placeErr(fmt.Sprintf("the index folder %s holds the evidence database %s; the catalog index is kept apart from it", dir, EvidenceName))
	}
	if evidenceDB != "" && realPath(filepath.Dir(evidenceDB)) == real {
		return placeErr(fmt.Sprintf("the index folder %s is the folder of the evidence database %s; the catalog index is kept apart from it", dir, evidenceDB))
	}
	for _, c := range collections {
		rc := realPath(c)
		if within(real, rc) {
			return placeErr(fmt.Sprintf("the index folder %s is inside the source collection %s; the index is derived and lives outside every source", dir, c))
		}
		if repo := repoRoot(rc); repo != "" && within(real, repo) {
			return placeErr(fmt.Sprintf("the index folder %s is inside the git repository %s that holds the source collection %s", dir, repo, c))
		}
	}
	for p := real; ; {
		if fi, err := os.Lstat(filepath.Join(p, catalogFile)); err == nil && !fi.IsDir() {
			return placeErr(fmt.Sprintf("the index folder %s is inside the collection %s (it holds %s); the index lives outside every source", dir, p, catalogFile))
		}
		parent := filepath.Dir(p)
		if parent == p {
			break
		}
		p = parent
	}
	return nil
}

// realPath resolves the links of the longest existing prefix of p, so
// that two names of one folder compare equal even before p exists.
func realPath(p string) string {
	p = filepath.Clean(p)
	var rest []string
	for {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			for i := len(rest) - 1; i >= 0; i-- {
				r = filepath.Join(r, rest[i])
			}
			return r
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Join(append([]string{p}, rest...)...)
		}
		rest = append(rest, filepath.Base(p))
		p = parent
	}
}

// within reports whether p is root or below it.
func within(p, root string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// repoRoot returns the nearest folder at or above dir with a .git entry,
// or "".
func repoRoot(dir string) string {
	for p := dir; ; {
		if _, err := os.Lstat(filepath.Join(p, ".git")); err == nil {
			return p
		} else if !errors.Is(err, fs.ErrNotExist) {
			return ""
		}
		parent := filepath.Dir(p)
		if parent == p {
			return ""
		}
		p = parent
	}
}
