package skillset

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"

	"github.com/Masterminds/semver/v3"

	"github.com/agent-skills/agent-skills/cli/internal/source"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/resolve"
)

// semverTag matches a tag that names a version (v1.2.3 or 1.2.3).
var semverTag = regexp.MustCompile(`^v?\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`)

// updateSources moves skills installed from sources: to the newest commit
// of the recorded branch, or to the newest semver tag (within ^installed
// unless major) when installed from a tag. It returns the packages whose
// bytes change, after printing what changed in each.
func (p *op) updateSources(names []string, major bool, tmp string) ([]fetched, error) {
	var out []fetched
	for _, name := range names {
		l := p.lock.Skills[name]
		pin := source.Pin{Name: name, Version: l.Version, Source: l.Source, Resolved: l.Resolved,
			Commit: l.Commit, Subpath: l.Subpath, Integrity: l.Integrity}
		ref := l.Ref
		if semverTag.MatchString(ref) {
			r, err := pin.Follow(ref)
			if err != nil {
				return nil, err
			}
			tags, err := source.Tags(p.ctx, r, p.sourceOptions("", nil))
			if err != nil {
				return nil, err
			}
			ref = newestTag(tags, ref, major)
		}
		r, err := pin.Follow(ref)
		if err == nil {
			err = p.policySource(r)
		}
		if err != nil {
			return nil, err
		}
		res, err := source.Fetch(p.ctx, r, p.sourceOptions(filepath.Join(tmp, "new-"+name), []string{name}))
		if err != nil {
			return nil, err
		}
		if len(res.Packages) != 1 {
			return nil, &askerr.Error{Code: source.CodeSourceNotFound, Message: fmt.Sprintf("%s is no longer at %s in %s", name, l.Subpath, l.Source)}
		}
		pk := res.Packages[0]
		if format.SameIntegrity(pk.Integrity, l.Integrity) {
			continue
		}
		if err := p.policyPackage(name, pk.Pkg); err != nil {
			return nil, err
		}
		p.out.warned(pk.Name+"@"+pk.Version, pk.Diagnostics)
		old, err := source.Restore(p.ctx, pin, p.sourceOptions(filepath.Join(tmp, "old-"+name), nil))
		if err == nil {
			p.recordChanges(name, l, pk, old.Pkg)
		} else {
			p.warn("cannot show what changed in %s: %s", name, err.Error())
		}
		f := sourceFetched(pk, resolve.RoleRequested)
		f.ref = ref
		keepDependencies(&f, l)
		out = append(out, f)
	}
	if err := p.scanAll(out); err != nil {
		return nil, err
	}
	return out, nil
}

// newestTag picks the newest semver tag, within the major version of
// current unless major; a prerelease only when current is one, as the
// resolver picks one only for a range that names one.
func newestTag(tags []string, current string, major bool) string {
	cur, err := semver.NewVersion(current)
	if err != nil {
		return current
	}
	for _, t := range tags { // newest first
		v, err := semver.NewVersion(t)
		if err != nil || v.LessThan(cur) || v.Prerelease() != "" && cur.Prerelease() == "" {
			continue
		}
		if major || v.Major() == cur.Major() {
			return t
		}
	}
	return current
}

// recordChanges adds to the outcome the files added, removed and
// modified between the installed package and the new one.
func (p *op) recordChanges(name string, l resolve.LockedSkill, pk source.Package, old *format.Package) {
	digests := func(pkg *format.Package) map[string]string {
		m := map[string]string{}
		for _, f := range pkg.Files {
			if r, err := pkg.FS.Open(f); err == nil {
				d, _ := format.FileDigest(r)
				r.Close()
				m[f] = d
			}
		}
		return m
	}
	a, b := digests(old), digests(pk.Pkg)
	c := Change{Name: name, From: l.Version, FromCommit: l.Commit, To: pk.Version, ToCommit: pk.Commit, Source: l.Source}
	for f, d := range b {
		if od, ok := a[f]; !ok {
			c.Added = append(c.Added, f)
		} else if od != d {
			c.Modified = append(c.Modified, f)
		}
	}
	for f := range a {
		if _, ok := b[f]; !ok {
			c.Removed = append(c.Removed, f)
		}
	}
	slices.Sort(c.Added)
	slices.Sort(c.Removed)
	slices.Sort(c.Modified)
	p.out.Changes = append(p.out.Changes, c)
}

func fs2bytes(fsys fs.FS, name string) ([]byte, error) { return fs.ReadFile(fsys, name) }

func diagLines(ds format.Diagnostics) []string {
	var out []string
	for _, d := range ds {
		if d.Severity == format.SeverityError {
			out = append(out, d.String())
		}
	}
	return out
}
