package catalog

import (
	"cmp"
	"fmt"
	"io/fs"
	"path"
	"slices"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"

	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/validate"
)

// Build derives the catalog of the collection at the root of fsys: every
// package below it (validate.Collection's discovery: a folder with
// skill.yaml or SKILL.md, .git and node_modules skipped, links never
// followed). A catalog describes valid packages only, so when any package
// has an error Build returns ASK_VALIDATION_FAILED listing every error
// (path:line:col: error CODE message) and no catalog. An empty collection
// gives an empty catalog. When the collection root is itself a package,
// skills-catalog.json is left out of that package's digest.
func Build(fsys fs.FS, opts validate.Options) (*Catalog, error) {
	results, err := validate.Collection(fsys, opts)
	if err != nil {
		return nil, &Error{Code: askerr.CodeIO, Message: "cannot list the collection", Detail: []string{err.Error()}}
	}
	var problems []string
	invalid := 0
	for _, r := range results {
		if !r.Diagnostics.HasErrors() {
			continue
		}
		invalid++
		for _, d := range r.Diagnostics {
			if d.Severity != format.SeverityError {
				continue
			}
			problems = append(problems, fmt.Sprintf("%s: error %s %s", location(r.Path, d), d.Code, d.Message))
		}
	}
	if invalid > 0 {
		return nil, &Error{Code: askerr.CodeValidationFailed,
			Message: fmt.Sprintf("%d of %d packages failed validation; a catalog describes valid packages only", invalid, len(results)),
			Detail:  problems,
			Hints:   []string{"fix the errors listed, then build the catalog again", "agent-skills validate <collection> shows every problem with its fix"}}
	}
	c := &Catalog{SchemaVersion: SchemaVersion, Skills: []Entry{}}
	for _, r := range results {
		e, err := entry(fsys, r.Path, opts.Load)
		if err != nil {
			return nil, err
		}
		c.Skills = append(c.Skills, e)
	}
	slices.SortFunc(c.Skills, func(a, b Entry) int {
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.Version, b.Version), cmp.Compare(a.Path, b.Path))
	})
	return c, nil
}

// entry loads the package at dir and describes it.
func entry(fsys fs.FS, dir string, lo format.LoadOptions) (Entry, error) {
	sub := fsys
	if dir != "." {
		var err error
		if sub, err = fs.Sub(fsys, dir); err != nil {
			return Entry{}, &Error{Code: askerr.CodeIO, Message: "cannot open package " + dir, Detail: []string{err.Error()}}
		}
	}
	pkg, ds := format.Load(sub, lo)
	if ds.HasErrors() {
		// The package changed between validation and this read.
		return Entry{}, &Error{Code: askerr.CodeValidationFailed, Message: "package " + dir + " changed while the catalog was built",
			Detail: []string{ds[0].String()}, Hints: []string{"build the catalog again"}}
	}
	files := pkg.Files
	if dir == "." {
		// The collection is itself a package: the catalog written beside
		// its SKILL.md must not change the digest it records.
		files = slices.DeleteFunc(slices.Clone(files), func(f string) bool { return f == FileName })
	}
	digest, err := format.Digest(pkg.FS, files)
	if err != nil {
		return Entry{}, &Error{Code: askerr.CodeIO, Message: "cannot digest package " + dir, Detail: []string{err.Error()}}
	}
	e := Entry{Name: pkg.Name(), Path: dir, Kind: string(pkg.Kind), Description: pkg.Description(),
		Version: pkg.Version(), Digest: digest, Keywords: []string{}}
	if pkg.Manifest != nil && len(pkg.Manifest.Keywords) > 0 {
		e.Keywords = slices.Clone(pkg.Manifest.Keywords)
	}
	return e, nil
}

// location renders a diagnostic's place relative to the collection root.
func location(dir string, d format.Diagnostic) string {
	p := path.Join(dir, d.File)
	if d.Line > 0 {
		return fmt.Sprintf("%s:%d:%d", p, d.Line, max(d.Col, 1))
	}
	return p
}
