package maintain

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/atomicfile"
	"github.com/agent-skills/agent-skills/cli/internal/catalog"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/validate"
)

// The catalog digest of a baseline when the catalog file has no bytes to
// digest.
const (
	// CatalogAbsent: the collection has no skills-catalog.json.
	CatalogAbsent = "absent"
	// CatalogUnreadable: skills-catalog.json is not a regular file (a
	// link, a folder) or is larger than catalog.MaxCatalogSize.
	CatalogUnreadable = "unreadable"
	// PackageUnreadable is a package's digest when one of its files could
	// not be read.
	PackageUnreadable = "unreadable"
)

// baselineVersion is the first line of the text a baseline digest hashes;
// it changes when that text does.
const baselineVersion = "agent-skills collection baseline 1"

// Baseline identifies the exact state of a collection that an audit
// inspected: every package's canonical digest (format.Digest over the file
// set format.Load finds, as catalog build computes it) and the digest of
// the catalog file's bytes, hashed together into Digest.
type Baseline struct {
	// Digest is "sha256-…" over the version line, one line per package
	// (path NUL digest, sorted by path) and the catalog line.
	Digest string `json:"digest"`
	// Catalog is format.FileDigest of skills-catalog.json's bytes, or
	// CatalogAbsent, or CatalogUnreadable.
	Catalog string `json:"catalog"`
	// Packages lists every package folder, sorted by path.
	Packages []PackageState `json:"packages"`
}

// PackageState is one package of a baseline.
type PackageState struct {
	// Path is the package folder relative to the collection root,
	// slash-separated ("." when the root is the package).
	Path string `json:"path"`
	// Digest is the package's canonical digest, or PackageUnreadable.
	Digest string `json:"digest"`
}

// seal computes b.Digest from its packages and catalog.
func (b *Baseline) seal() {
	b.Digest = b.sum()
}

// sum returns the digest Baseline's fields hash to.
func (b *Baseline) sum() string {
	var sb strings.Builder
	sb.WriteString(baselineVersion + "\n")
	pkgs := slices.Clone(b.Packages)
	slices.SortFunc(pkgs, func(x, y PackageState) int { return strings.Compare(x.Path, y.Path) })
	for _, p := range pkgs {
		fmt.Fprintf(&sb, "package\x00%s\x00%s\n", p.Path, p.Digest)
	}
	fmt.Fprintf(&sb, "catalog\x00%s\n", b.Catalog)
	d, _ := format.FileDigest(strings.NewReader(sb.String())) // a string reader cannot fail
	return d
}

// Consistent reports whether Digest is what the packages and catalog hash
// to, and the packages are sorted and unique: a document edited by hand
// is not.
func (b *Baseline) Consistent() bool {
	for i := 1; i < len(b.Packages); i++ {
		if b.Packages[i-1].Path >= b.Packages[i].Path {
			return false
		}
	}
	return b.Digest != "" && b.Digest == b.sum()
}

// Drift names every difference from old to cur, sorted: packages added,
// removed or changed (by path), then the catalog; empty when the two are
// the same state.
func Drift(old, cur Baseline) []string {
	was := map[string]string{}
	for _, p := range old.Packages {
		was[p.Path] = p.Digest
	}
	type change struct{ path, line string }
	var changes []change
	seen := map[string]bool{}
	for _, p := range cur.Packages {
		seen[p.Path] = true
		d, ok := was[p.Path]
		switch {
		case !ok:
			changes = append(changes, change{p.Path, "added: package " + p.Path})
		case d != p.Digest:
			changes = append(changes, change{p.Path, "changed: package " + p.Path})
		}
	}
	for _, p := range old.Packages {
		if !seen[p.Path] {
			changes = append(changes, change{p.Path, "removed: package " + p.Path})
		}
	}
	slices.SortFunc(changes, func(a, b change) int { return strings.Compare(a.path, b.path) })
	out := make([]string, 0, len(changes)+1)
	for _, c := range changes {
		out = append(out, c.line)
	}
	if old.Catalog != cur.Catalog {
		out = append(out, fmt.Sprintf("changed: %s (%s → %s)", catalog.FileName, old.Catalog, cur.Catalog))
	}
	return out
}

// state is what inspect read: the baseline and the catalog file itself.
type state struct {
	baseline Baseline
	// catalog is the catalog file's bytes; nil when absent or unreadable.
	catalog []byte
	// present: the catalog path exists (catalog may still be nil, when
	// it is not a regular file or too large: unreadable is set).
	present, unreadable bool
	// mode is the catalog file's permission bits when it is present.
	mode fs.FileMode
	// dirs are the package folders.
	dirs []string
}

// inspect reads the state of the collection at root: every package's
// digest, and the catalog file. A read failure other than what a baseline
// records (an absent or unreadable catalog, a package file that cannot be
// read) is an ASK_IO error.
func inspect(root string, lo format.LoadOptions) (*state, error) {
	fsys := os.DirFS(root)
	dirs, err := validate.PackageDirs(fsys)
	if err != nil {
		return nil, askerr.IO("cannot list the collection "+root, err)
	}
	st := &state{dirs: dirs, baseline: Baseline{Packages: make([]PackageState, 0, len(dirs))}}
	dg := format.NewDigester()
	for _, dir := range dirs {
		st.baseline.Packages = append(st.baseline.Packages, PackageState{Path: dir, Digest: packageDigest(fsys, dir, lo, dg)})
	}
	if err := st.readCatalog(filepath.Join(root, catalog.FileName)); err != nil {
		return nil, err
	}
	st.baseline.seal()
	return st, nil
}

// packageDigest is the digest of the package at dir: its file set as
// format.Load finds it (what it could read, valid or not), without the
// catalog file when the package is the collection root.
func packageDigest(fsys fs.FS, dir string, lo format.LoadOptions, dg *format.Digester) string {
	sub := fsys
	if dir != "." {
		s, err := fs.Sub(fsys, dir)
		if err != nil {
			return PackageUnreadable
		}
		sub = s
	}
	pkg, _ := format.Load(sub, lo)
	files := pkg.Files
	if dir == "." {
		files = slices.DeleteFunc(slices.Clone(files), func(f string) bool { return f == catalog.FileName })
	}
	d, err := dg.Digest(pkg.FS, files)
	if err != nil {
		return PackageUnreadable
	}
	return d
}

// readCatalog reads the catalog file into st, never following a link.
func (st *state) readCatalog(file string) error {
	fi, err := os.Lstat(file)
	if errors.Is(err, fs.ErrNotExist) {
		st.baseline.Catalog = CatalogAbsent
		return nil
	}
	if err != nil {
		return askerr.IO("cannot read "+file, err)
	}
	st.present, st.mode = true, fi.Mode().Perm()
	data, err := atomicfile.ReadPlain(file, false, catalog.MaxCatalogSize)
	switch {
	case errors.Is(err, atomicfile.ErrNotPlain) || errors.Is(err, atomicfile.ErrTooLarge):
		st.unreadable = true
		st.baseline.Catalog = CatalogUnreadable
		return nil
	case err != nil:
		return askerr.IO("cannot read "+file, err)
	case data == nil:
		// Removed between the Lstat and the read.
		st.present = false
		st.baseline.Catalog = CatalogAbsent
		return nil
	}
	st.catalog = data
	st.baseline.Catalog, _ = format.FileDigest(bytes.NewReader(data))
	return nil
}
