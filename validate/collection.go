package validate

import (
	"errors"
	"io/fs"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/scan"
)

// Result is the outcome of validating one package of a collection.
type Result struct {
	// Path is the package folder, slash-separated and relative to the
	// collection root ("." when the root itself is a package).
	Path string
	// Diagnostics are the package's problems; each File is relative to the
	// package folder, so a caller shows path.Join(Path, File).
	Diagnostics format.Diagnostics
	// Name, Kind and Version identify the package as far as it could be
	// read; they are empty when the package could not be loaded.
	Name    string
	Kind    format.Kind
	Version string
	// Scan is the content scanner's report on the package, with
	// Options.Scan; nil without it or when the package could not be
	// loaded. ScanErr is a file the scanner could not read (Scan then
	// holds what was read before it).
	Scan    *scan.Report
	ScanErr error
	// Nested lists the folders inside the package, relative to Path and
	// sorted, that hold a skill.yaml or SKILL.md of their own. They are
	// files of this package, not packages: Collection does not validate
	// them on their own, and the caller says so.
	Nested []string
}

// Collection finds every package below the root of fsys and validates each
// one, concurrently, with Dir. A folder holding skill.yaml or SKILL.md is a
// package, and Collection does not look inside it for more; so a single
// package, a collection such as skills/, and a registry root with
// skills/<name>/ folders all work; a package folder inside a package is
// reported in the outer one's Result.Nested. Folders named .git,
// node_modules and .agent-skills are skipped, and symbolic links are never
// followed. Each
// package's DirName is the last element of its path, or opts.DirName for a
// package at the root, and its Siblings the other package folders in the
// same parent folder.
//
// Packages are validated by a pool of runtime.GOMAXPROCS(0) workers, and
// the results come back sorted by Path. Finding no package is not an
// error: the result is empty. The error is non-nil only when a folder
// cannot be listed.
func Collection(fsys fs.FS, opts Options) ([]Result, error) {
	dirs, nested, err := findPackages(fsys)
	if err != nil {
		return nil, err
	}
	if opts.AgentFrontMatterKeys == nil {
		opts.AgentFrontMatterKeys = DefaultAgentFrontMatterKeys() // once, not per package
	}
	opts.licenses = new(sync.Map)
	siblings := siblingsOf(dirs)
	results := make([]Result, len(dirs))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(dirs)) {
		wg.Go(func() {
			for i := range jobs {
				o := opts
				o.Siblings = siblings[i]
				results[i] = validateAt(fsys, dirs[i], o)
			}
		})
	}
	for i := range dirs {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	for i := range results {
		results[i].Nested = nested[dirs[i]]
	}
	return results, nil
}

// PackageDirs returns the package folders below the root of fsys that
// Collection would validate, slash-separated, relative to the root ("."
// for the root itself) and sorted; packages inside a package are not
// listed. Commands that treat a collection package by package, such as
// audit, find them here.
func PackageDirs(fsys fs.FS) ([]string, error) {
	dirs, _, err := findPackages(fsys)
	return dirs, err
}

// siblingsOf returns, for each package folder of the sorted dirs, the
// names of the other package folders in the same parent folder.
func siblingsOf(dirs []string) [][]string {
	byParent := map[string][]string{}
	for _, d := range dirs {
		if d != "." {
			byParent[path.Dir(d)] = append(byParent[path.Dir(d)], path.Base(d))
		}
	}
	out := make([][]string, len(dirs))
	for i, d := range dirs {
		if d == "." {
			continue
		}
		for _, b := range byParent[path.Dir(d)] {
			if b != path.Base(d) {
				out[i] = append(out[i], b)
			}
		}
	}
	return out
}

// validateAt validates the package in folder dir of fsys.
func validateAt(fsys fs.FS, dir string, opts Options) Result {
	name := opts.DirName
	sub := fsys
	if dir != "." {
		name = path.Base(dir)
		s, err := fs.Sub(fsys, dir)
		if err != nil {
			// fs.Sub fails only for an invalid path, which WalkDir never yields.
			panic("validate: fs.Sub(" + dir + "): " + err.Error())
		}
		sub = s
	}
	opts.DirName = name
	pkg, diags := loadAndCheck(sub, opts)
	r := Result{Path: dir, Diagnostics: diags}
	if pkg != nil {
		r.Name, r.Kind, r.Version = pkg.Name(), pkg.Kind, pkg.Version()
		if opts.Scan {
			rep, err := scan.Package(pkg, scan.Options{})
			r.Scan, r.ScanErr = &rep, err
		}
	}
	return r
}

// findPackages returns the sorted package folders of fsys and, for each
// that has some, the package folders inside it (relative to it, sorted).
func findPackages(fsys fs.FS) ([]string, map[string][]string, error) {
	var dirs []string
	nested := map[string][]string{}
	outer := "" // the package being walked, "" outside every package
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if p != "." {
			switch d.Name() {
			case ".git", "node_modules", ".agent-skills":
				return fs.SkipDir
			}
		}
		if outer != "" && outer != "." && !strings.HasPrefix(p, outer+"/") {
			outer = "" // WalkDir is depth-first: p is past the package
		}
		if !isPackage(fsys, p) {
			return nil
		}
		if outer == "" {
			outer = p
			dirs = append(dirs, p)
			return nil
		}
		rel := p
		if outer != "." {
			rel = strings.TrimPrefix(p, outer+"/")
		}
		nested[outer] = append(nested[outer], rel)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	slices.Sort(dirs)
	for _, n := range nested {
		slices.Sort(n)
	}
	return dirs, nested, nil
}

// isPackage reports whether folder dir holds skill.yaml or SKILL.md.
func isPackage(fsys fs.FS, dir string) bool {
	for _, name := range []string{format.ManifestFile, "SKILL.md"} {
		if _, err := fs.Lstat(fsys, path.Join(dir, name)); err == nil || !errors.Is(err, fs.ErrNotExist) {
			return true
		}
	}
	return false
}
