package cli

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/ui"

	"github.com/Masterminds/semver/v3"

	"github.com/agent-skills/agent-skills/cli/internal/install"
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
func (p *pipeline) updateSources(names []string, major bool, tmp string) ([]fetched, error) {
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
			tags, err := source.Tags(p.e.ctx, r, p.e.sourceOptions("", nil))
			if err != nil {
				return nil, err
			}
			ref = newestTag(tags, ref, major)
		}
		r, err := pin.Follow(ref)
		if err != nil {
			return nil, err
		}
		res, err := source.Fetch(p.e.ctx, r, p.e.sourceOptions(filepath.Join(tmp, "new-"+name), []string{name}))
		if err != nil {
			return nil, err
		}
		if len(res.Packages) != 1 {
			return nil, &askerr.Error{Code: "ASK_SOURCE_NOT_FOUND", Message: fmt.Sprintf("%s is no longer at %s in %s", name, l.Subpath, l.Source)}
		}
		pk := res.Packages[0]
		if format.SameIntegrity(pk.Integrity, l.Integrity) {
			continue
		}
		old, err := source.Restore(p.e.ctx, pin, p.e.sourceOptions(filepath.Join(tmp, "old-"+name), nil))
		if err == nil {
			p.printChanges(name, l, pk, old.Pkg)
		} else {
			p.e.Warn("cannot show what changed in %s: %s", ui.Field(name), ui.Field(err.Error()))
		}
		f := sourceFetched(pk, string(resolve.RoleRequested))
		f.ref = ref
		out = append(out, f)
	}
	return out, nil
}

// newestTag picks the newest semver tag, within the major version of
// current unless major.
func newestTag(tags []string, current string, major bool) string {
	cur, err := semver.NewVersion(current)
	if err != nil {
		return current
	}
	for _, t := range tags { // newest first
		v, err := semver.NewVersion(t)
		if err != nil || v.LessThan(cur) {
			continue
		}
		if major || v.Major() == cur.Major() {
			return t
		}
	}
	return current
}

// printChanges shows the files added, removed and modified between the
// installed package and the new one.
func (p *pipeline) printChanges(name string, l resolve.LockedSkill, pk source.Package, old *format.Package) {
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
	var added, removed, modified []string
	for f, d := range b {
		if od, ok := a[f]; !ok {
			added = append(added, f)
		} else if od != d {
			modified = append(modified, f)
		}
	}
	for f := range a {
		if _, ok := b[f]; !ok {
			removed = append(removed, f)
		}
	}
	slices.Sort(added)
	slices.Sort(removed)
	slices.Sort(modified)
	to := pk.Commit
	if len(to) > 12 {
		to = to[:12]
	}
	from := l.Commit
	if len(from) > 12 {
		from = from[:12]
	}
	fmt.Fprintf(p.e.Out, "%s %s (%s) → %s (%s) from %s:\n", ui.Field(name), ui.Field(l.Version), ui.Field(ui.Dash(from)), ui.Field(pk.Version), ui.Field(ui.Dash(to)), ui.Field(l.Source))
	for _, g := range []struct {
		label string
		files []string
	}{{"added", added}, {"removed", removed}, {"modified", modified}} {
		if len(g.files) > 0 {
			fmt.Fprintf(p.e.Out, "  %-8s %s\n", g.label, ui.Fields(g.files, ", "))
		}
	}
}

// keepLocal carries the user's edits of installed files into the new
// packages: for each package, a file the user changed in an installed
// copy replaces the new version's file. It returns the packages rebuilt
// over memory and the files kept.
func (p *pipeline) keepLocal(fs []fetched) ([]fetched, error) {
	found, err := install.Scan(p.e.ctx, install.Options{Scope: p.sc.Kind, Env: p.aenv, Agents: p.adapters})
	if err != nil {
		return nil, err
	}
	edits := map[string]map[string][]byte{}
	for _, in := range found {
		for _, m := range in.ModifiedFiles {
			f, ok := strings.CutSuffix(m, " (changed)")
			if !ok || in.Kind != format.KindSkill {
				continue
			}
			data, err := os.ReadFile(filepath.Join(in.Dest, filepath.FromSlash(f)))
			if err != nil {
				continue
			}
			if edits[in.Name] == nil {
				edits[in.Name] = map[string][]byte{}
			}
			if _, seen := edits[in.Name][f]; !seen {
				edits[in.Name][f] = data
			}
		}
	}
	for i, f := range fs {
		keep := edits[f.name]
		if len(keep) == 0 {
			continue
		}
		mem := fstest.MapFS{}
		pkg := f.item.Pkg
		for _, name := range pkg.Files {
			data, err := fs2bytes(pkg.FS, name)
			if err != nil {
				return nil, err
			}
			mem[name] = &fstest.MapFile{Data: data, Mode: 0o644}
		}
		var kept []string
		for name, data := range keep {
			if _, ok := mem[name]; ok {
				mem[name] = &fstest.MapFile{Data: data, Mode: 0o644}
				kept = append(kept, name)
			}
		}
		np, diags := format.Load(mem, format.LoadOptions{})
		if np == nil || diags.HasErrors() {
			return nil, &askerr.Error{Code: "ASK_VALIDATION_FAILED", Message: fmt.Sprintf("%s with your edits kept is not a valid package", f.name),
				Detail: diagLines(diags), Try: []string{"update " + f.name + " without --keep-local, then apply your edits again"}}
		}
		slices.Sort(kept)
		p.e.Info("%s: keeping your version of %s", ui.Field(f.name), ui.Fields(kept, ", "))
		fs[i].item.Pkg = np
	}
	return fs, nil
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
