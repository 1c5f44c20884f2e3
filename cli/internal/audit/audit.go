package audit

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/catalog"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/scan"
	"github.com/agent-skills/agent-skills/validate"
)

// Target is one package folder to audit.
type Target struct {
	// Dir is the folder, absolute.
	Dir string
	// Show is the folder as output shows it: slash-separated, relative to
	// the working folder when below it. The caller sets it (see Place).
	Show string
	// Base and Rel place the folder for SARIF: Rel is the slash-separated
	// path of Dir relative to the folder the uriBaseId Base stands for
	// ("." for that folder itself). See Place.
	Base, Rel string
	// Name is the package's folder name.
	Name string
	// Scope and Agents say, for an installed skill, where it is installed
	// ("project" or "global") and which agents read its folder.
	Scope  string
	Agents []string
	// Skipped says why the folder is not read (a symbolic link); empty
	// for a folder that is scanned.
	Skipped string
	// File, for a package installed as one file (a command, a workflow),
	// is its name in Dir, the agent folder that holds it; Kind its kind.
	// File is empty for a package folder.
	File string
	Kind format.Kind
}

// Place sets t's SARIF base: the uriBaseId id standing for the folder
// base, which holds t.Dir. It reports false, changing nothing, when t.Dir
// is not at or below base.
func (t *Target) Place(id, base string) bool {
	rel, err := filepath.Rel(base, t.Dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return false
	}
	t.Base, t.Rel = id, filepath.ToSlash(rel)
	return true
}

// Package is a target and what scanning it found.
type Package struct {
	Target
	// Report is the scan's report; empty for a skipped target.
	Report scan.Report
	// Err is why the scan stopped short (a file that could not be read);
	// Report then holds what was read before it.
	Err error
}

// Result is the audit of every target, in the order of the targets.
type Result struct {
	Packages []Package
}

// Counts returns how many findings there are at each severity, over every
// package, indexed by scan.Severity.
func (r Result) Counts() [scan.Critical + 1]int {
	var total [scan.Critical + 1]int
	for _, p := range r.Packages {
		for s, n := range p.Report.Counts() {
			total[s] += n
		}
	}
	return total
}

// Findings returns the number of findings over every package.
func (r Result) Findings() int {
	n := 0
	for _, p := range r.Packages {
		n += len(p.Report.Findings)
	}
	return n
}

// AtLeast returns how many findings are at or above s, and in how many
// packages.
func (r Result) AtLeast(s scan.Severity) (findings, packages int) {
	for _, p := range r.Packages {
		if n := len(p.Report.AtLeast(s)); n > 0 {
			findings += n
			packages++
		}
	}
	return findings, packages
}

// Audited returns the number of packages that were scanned: every one but
// the skipped.
func (r Result) Audited() int {
	n := 0
	for _, p := range r.Packages {
		if p.Skipped == "" {
			n++
		}
	}
	return n
}

// Failed returns the packages whose scan stopped short.
func (r Result) Failed() []Package {
	var out []Package
	for _, p := range r.Packages {
		if p.Err != nil {
			out = append(out, p)
		}
	}
	return out
}

// Folder returns the packages to audit at root, an absolute folder: root
// itself when it is a package, else every package below it that validate
// finds in a collection (validate.PackageDirs: .git, node_modules and
// .agent-skills are skipped, links are not followed, and a package's own
// nested package folders are files of it). A root holding COMMAND.md or
// WORKFLOW.js without a skill.yaml is audited as one package too. No
// package found is an empty list, not an error.
func Folder(root string) ([]Target, error) {
	fsys := os.DirFS(root)
	dirs, err := validate.PackageDirs(fsys)
	if err != nil {
		return nil, askerr.IO("cannot read "+root, err)
	}
	if len(dirs) == 0 && (exists(fsys, "COMMAND.md") || exists(fsys, "WORKFLOW.js")) {
		dirs = []string{"."}
	}
	out := make([]Target, len(dirs))
	for i, d := range dirs {
		dir := filepath.Join(root, filepath.FromSlash(d))
		out[i] = Target{Dir: dir, Name: filepath.Base(dir)}
	}
	return out, nil
}

func exists(fsys fs.FS, name string) bool {
	info, err := fs.Lstat(fsys, name)
	return err == nil && info.Mode().IsRegular()
}

// Installed returns the skills installed in roots, found by the catalog's
// scan of installed skills: every folder that is not hidden, a folder
// that is a symbolic link listed as skipped (it is never followed). Each
// root is scanned on its own, so that two folders of one name in two roots
// of a scope are both audited, although agents' listings show one. Roots
// that do not exist are skipped. Targets come sorted by scope (project
// first), root order and name.
func Installed(ctx context.Context, roots []catalog.Root) ([]Target, error) {
	var out []Target
	for _, r := range roots {
		skills, err := catalog.ScanInstalled(ctx, []catalog.Root{r}, catalog.ScanOptions{})
		if err != nil {
			return nil, err
		}
		for _, s := range skills {
			t := Target{Dir: s.Dir, Name: s.Name, Scope: r.Scope, Agents: slices.Clone(r.Readers)}
			if info, err := os.Lstat(s.Dir); err != nil {
				t.Skipped = "cannot be read: " + err.Error()
			} else if info.Mode()&fs.ModeSymlink != 0 {
				t.Skipped = "a symbolic link: not followed"
			} else if !info.IsDir() {
				continue
			}
			out = append(out, t)
		}
	}
	return out, nil
}

// FileRoot is a folder an agent reads packages of one kind from, each as
// one file named after it plus Ext (commands, workflows).
type FileRoot struct {
	Path, Scope string
	Readers     []string
	Kind        format.Kind
	Ext         string
}

// InstalledFiles returns the packages installed as single files in roots:
// every regular file whose name ends with its root's extension, and not
// hidden; a symbolic link is listed as skipped, never followed. Roots that
// do not exist are skipped. Targets come in root order, then by name.
func InstalledFiles(roots []FileRoot) ([]Target, error) {
	var out []Target
	for _, r := range roots {
		entries, err := os.ReadDir(r.Path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, askerr.IO("cannot read "+r.Path, err)
		}
		for _, de := range entries {
			name := de.Name()
			if strings.HasPrefix(name, ".") || !strings.HasSuffix(name, r.Ext) || len(name) == len(r.Ext) {
				continue
			}
			t := Target{Dir: r.Path, File: name, Name: strings.TrimSuffix(name, r.Ext), Kind: r.Kind,
				Scope: r.Scope, Agents: slices.Clone(r.Readers)}
			switch {
			case de.Type()&fs.ModeSymlink != 0:
				t.Skipped = "a symbolic link: not followed"
			case !de.Type().IsRegular():
				continue
			}
			out = append(out, t)
		}
	}
	return out, nil
}

// Scan scans every target that is not skipped, concurrently, and returns
// the result in the order of targets. Only ctx's error is returned; a
// package that cannot be read has its Err set.
func Scan(ctx context.Context, targets []Target, opts scan.Options) (Result, error) {
	res := Result{Packages: make([]Package, len(targets))}
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(len(targets), 1)) {
		wg.Go(func() {
			for i := range jobs {
				res.Packages[i] = scanOne(targets[i], opts)
			}
		})
	}
	for i := range targets {
		if ctx.Err() != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	return res, nil
}

func scanOne(t Target, opts scan.Options) Package {
	p := Package{Target: t}
	if t.Skipped != "" {
		return p
	}
	// Through an os.Root: format.Load refuses links, and a file swapped
	// for a link after that check still cannot lead outside the folder.
	root, err := os.OpenRoot(t.Dir)
	if err != nil {
		p.Err = err
		return p
	}
	defer root.Close()
	if t.File == "" {
		p.Report, p.Err = scan.FS(root.FS(), opts)
		return p
	}
	// One file of an agent folder: a bare package of that one file, its
	// entrypoint decoded so that the front-matter rules see it too.
	pkg := &format.Package{FS: root.FS(), Files: []string{t.File}, Kind: t.Kind, Bare: true, EntrypointFile: t.File}
	if data, err := fs.ReadFile(pkg.FS, t.File); err == nil {
		pkg.Entrypoint, _ = format.DecodeEntrypoint(data, t.File, t.Kind)
	}
	p.Report, p.Err = scan.Package(pkg, opts)
	return p
}

// FileURI returns the SARIF artifactLocation.uri of file (slash-separated,
// relative to the package) in the package placed at rel: a relative URI
// reference, each segment percent-encoded, with "./" in front when its first
// segment holds a colon (which would read as a scheme).
func FileURI(rel, file string) string {
	p := path.Join(rel, file)
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = escapeSegment(s)
	}
	u := strings.Join(segs, "/")
	if strings.Contains(segs[0], ":") {
		u = "./" + u
	}
	return u
}

// escapeSegment percent-encodes everything in a path segment but the
// unreserved characters of RFC 3986 and the sub-delimiters a path allows.
func escapeSegment(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			strings.IndexByte("-._~!$&'()*+,;=:@", c) >= 0:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}
