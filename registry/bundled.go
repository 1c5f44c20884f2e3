package registry

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/format"
)

// bundled serves the sample collection embedded in the binary.
type bundled struct {
	fsys  fs.FS
	name  string
	index []byte
}

// loadIndex decodes the committed index, or builds one from the packages.
func (b *bundled) loadIndex(ctx context.Context) (*Index, error) {
	if b.index != nil {
		return DecodeIndex(b.index, "bundled:"+indexPath)
	}
	return BuildIndex(b.fsys, b.name)
}

// payload is the package directory inside the embedded file system.
func (b *bundled) payload(ctx context.Context, r *registry, s *Skill, v *Version, verify func(fs.FS) (*format.Package, error)) (*format.Package, error) {
	if v.Path == "" {
		return nil, invalidIndex("bundled:"+indexPath, []string{fmt.Sprintf("%s@%s: the bundled registry holds directories only", s.Name, v.Version)})
	}
	sub, err := fs.Sub(b.fsys, strings.TrimSuffix(v.Path, "/"))
	if err != nil {
		return nil, err
	}
	return verify(sub)
}

// resolved names the payload as "bundled:<path>".
func (b *bundled) resolved(s *Skill, v *Version) string {
	return "bundled:" + strings.TrimSuffix(v.Path, "/")
}

// BuildIndex generates the index of a collection of packages: every
// top-level directory of fsys (hidden ones skipped) is loaded with
// format.Load and digested with format.Digest, giving one skill with one
// version whose path is the directory name. The result is sorted by name
// and carries no time stamp, so EncodeYAML of it is byte-stable and a test
// can compare it with a committed registry/skills.yaml. A package that
// does not load, or two packages with one name, is an
// ASK_REGISTRY_INVALID_INDEX error naming it.
func BuildIndex(fsys fs.FS, name string) (*Index, error) {
	ents, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, err
	}
	idx := &Index{SchemaVersion: IndexSchemaVersion, Name: name}
	var errs []string
	for _, e := range ents {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") || e.Name() == "registry" {
			continue
		}
		sub, err := fs.Sub(fsys, e.Name())
		if err != nil {
			return nil, err
		}
		pkg, diags := format.Load(sub, format.LoadOptions{})
		if pkg == nil || diags.HasErrors() {
			for _, d := range diags {
				if d.Severity == format.SeverityError {
					d.File = path.Join(e.Name(), d.File)
					errs = append(errs, d.String())
				}
			}
			if pkg == nil && len(diags) == 0 {
				errs = append(errs, e.Name()+": not a package")
			}
			continue
		}
		sum, err := format.Digest(pkg.FS, pkg.Files)
		if err != nil {
			errs = append(errs, e.Name()+": "+err.Error())
			continue
		}
		s := &Skill{
			Name:        pkg.Name(),
			Description: strings.TrimSpace(pkg.Description()),
			Latest:      pkg.Version(),
			Versions:    []*Version{{Version: pkg.Version(), Path: e.Name(), Integrity: sum}},
		}
		if pkg.Manifest != nil {
			s.Keywords = pkg.Manifest.Keywords
		}
		idx.Skills = append(idx.Skills, s)
	}
	if len(errs) > 0 {
		return nil, invalidIndex(name, errs)
	}
	slices.SortFunc(idx.Skills, func(a, b *Skill) int { return compareStrings(a.Name, b.Name) })
	var ps problems
	checkIndex(idx, DefaultIndexLimits(), &ps)
	if len(ps) > 0 {
		return nil, invalidIndex(name, ps.render(name))
	}
	idx.buildMap()
	return idx, nil
}
