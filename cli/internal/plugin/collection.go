package plugin

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/validate"
)

// CodeNotInert is a submission skill that would run something when the
// host loads it: a SKILL.md whose front matter declares hooks.
const CodeNotInert = "ASK_PLUGIN_NOT_INERT"

// File is one file of a skill or of a tree: a slash-separated path, its
// bytes and whether it is executable.
type File struct {
	Path string
	Data []byte
	Exec bool
}

// Skill is one skill package of a collection, as a plugin ships it.
type Skill struct {
	// Name is the package name; the plugin holds it as skills/<Name>/.
	Name string
	// Description is the package description, on one line.
	Description string
	// License is the package's SPDX licence, "" when it declares none.
	License string
	// Author is the package's first author's name, "" when none.
	Author string
	// Path is the package folder relative to the collection.
	Path string
	// Hooks reports a SKILL.md front matter with a hooks key: Claude Code
	// runs those commands while the skill is active.
	Hooks bool
	// Files are the package's files, sorted by path.
	Files []File
}

// Collection is what a plugin is built from: its skills, sorted by name,
// and the packages left out because a plugin carries skills only.
type Collection struct {
	Skills []Skill
	// Left names each package that is not a skill ("name (kind)").
	Left []string
}

// LoadCollection reads the collection at the root of fsys. Every package
// must be valid under opts (validate.Collection); the first invalid one
// makes the error ASK_VALIDATION_FAILED listing every error, or
// ASK_PACKAGE_UNSAFE_FILE when any error is a link or special file. Two
// skills of one name are ASK_VALIDATION_FAILED. Commands and workflows are
// left out and named in Left. A collection without a skill is ASK_USAGE.
func LoadCollection(fsys fs.FS, opts validate.Options) (*Collection, error) {
	results, err := validate.Collection(fsys, opts)
	if err != nil {
		return nil, askerr.IO("cannot list the collection", err)
	}
	var problems []string
	unsafe := false
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if d.Severity != format.SeverityError {
				continue
			}
			unsafe = unsafe || d.Code == format.CodePackageUnsafeFile
			problems = append(problems, fmt.Sprintf("%s: error %s %s", path.Join(r.Path, d.File), d.Code, d.Message))
		}
	}
	if len(problems) > 0 {
		code := askerr.CodeValidationFailed
		if unsafe {
			code = format.CodePackageUnsafeFile
		}
		return nil, &askerr.Error{Code: code, Message: "the collection has invalid packages; a plugin ships valid packages only",
			Detail: problems, Try: []string{"agent-skills validate <collection>   shows every problem with its fix"}}
	}
	c := &Collection{}
	seen := map[string]string{}
	for _, r := range results {
		if r.Kind != format.KindSkill {
			c.Left = append(c.Left, fmt.Sprintf("%s (%s)", r.Name, r.Kind))
			continue
		}
		s, err := loadSkill(fsys, r.Path, opts.Load)
		if err != nil {
			return nil, err
		}
		if other, dup := seen[s.Name]; dup {
			return nil, &askerr.Error{Code: askerr.CodeValidationFailed,
				Message: fmt.Sprintf("two packages are named %s (%s and %s); a plugin holds one skills/%s/", s.Name, other, s.Path, s.Name),
				Try:     []string{"rename one of them, or build from a folder that holds only one"}}
		}
		seen[s.Name] = s.Path
		c.Skills = append(c.Skills, s)
	}
	if len(c.Skills) == 0 {
		return nil, &askerr.Error{Code: askerr.CodeUsage, Message: "the collection holds no skill package",
			Try: []string{"agent-skills plugin build <folder of skill packages> --out DIR"}}
	}
	slices.SortFunc(c.Skills, func(a, b Skill) int { return strings.Compare(a.Name, b.Name) })
	slices.Sort(c.Left)
	return c, nil
}

// loadSkill reads the package at dir: its metadata and every file of its
// file set, bytes and executable bit.
func loadSkill(fsys fs.FS, dir string, lo format.LoadOptions) (Skill, error) {
	sub := fsys
	if dir != "." {
		var err error
		if sub, err = fs.Sub(fsys, dir); err != nil {
			return Skill{}, askerr.IO("cannot open package "+dir, err)
		}
	}
	pkg, ds := format.Load(sub, lo)
	if ds.HasErrors() {
		return Skill{}, &askerr.Error{Code: askerr.CodeValidationFailed, Message: "package " + dir + " changed while the plugin was built",
			Detail: []string{ds[0].String()}, Try: []string{"build the plugin again"}}
	}
	s := Skill{Name: pkg.Name(), Description: oneLine(pkg.Description()), Path: dir}
	if m := pkg.Manifest; m != nil {
		s.License = m.License
		if len(m.Authors) > 0 {
			s.Author = m.Authors[0].Name
		}
	}
	if e := pkg.Entrypoint; e != nil {
		if s.License == "" {
			s.License = e.Text("license")
		}
		s.Hooks = slices.ContainsFunc(e.Keys, func(k format.Key) bool { return k.Name == "hooks" })
	}
	for _, p := range pkg.Files {
		info, err := fs.Lstat(sub, p)
		if err != nil {
			return Skill{}, askerr.IO("cannot read "+path.Join(dir, p), err)
		}
		if !info.Mode().IsRegular() {
			return Skill{}, &askerr.Error{Code: format.CodePackageUnsafeFile,
				Message: path.Join(dir, p) + " is not a regular file; a plugin never ships a link"}
		}
		data, err := fs.ReadFile(sub, p)
		if err != nil {
			return Skill{}, askerr.IO("cannot read "+path.Join(dir, p), err)
		}
		s.Files = append(s.Files, File{Path: p, Data: data, Exec: info.Mode().Perm()&0o111 != 0})
	}
	return s, nil
}

// oneLine collapses every run of white space and control characters in s
// into one space, so that a description fits one line of a manifest or a
// README.
func oneLine(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u2028' || r == '\u2029'
	}), " ")
}

// Merge adds the skills of o to c, keeping c's skill where both have one
// of a name; it returns the names it did not take, sorted, and keeps the
// skills sorted.
func (c *Collection) Merge(o *Collection) []string {
	have := map[string]bool{}
	for _, s := range c.Skills {
		have[s.Name] = true
	}
	var dropped []string
	for _, s := range o.Skills {
		if have[s.Name] {
			dropped = append(dropped, s.Name)
			continue
		}
		have[s.Name] = true
		c.Skills = append(c.Skills, s)
	}
	c.Left = append(c.Left, o.Left...)
	slices.SortFunc(c.Skills, func(a, b Skill) int { return strings.Compare(a.Name, b.Name) })
	slices.Sort(c.Left)
	slices.Sort(dropped)
	return dropped
}
