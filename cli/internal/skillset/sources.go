package skillset

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/cli/internal/source"
	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/resolve"
)

// This file pins skills installed straight from sources: fetching the
// chosen skills of a source, and the exact commits and folders a lock
// records.

// sourceOptions are the options of a source fetch in this use case: the
// machine's, with the interactive picker the caller gave, the use case's
// gate and the selected agents' checks.
func (p *op) sourceOptions(dir string, skills []string) source.Options {
	o := p.ws.SourceOptions(dir, skills)
	o.Interactive, o.Pick = p.pick != nil, p.pick
	o.Gate, o.Check, o.AllOrNothing = p.gate(), p.agentChecks, p.strict
	return o
}

// fetchSources verifies the chosen skills of every source as packages read
// in place (released by the returned cleanup),
// reading at most maxSkills skills from each (0: the default cap). The
// same skill reached through two references is fetched once.
func (p *op) fetchSources(refs []source.Ref, skills []string, maxSkills int) ([]fetched, func(), error) {
	if len(refs) == 0 {
		return nil, func() {}, nil
	}
	// The packages are read from the sources in place: nothing is written
	// for them before the install stages them, not even a folder; cleanup
	// releases the sources once they are installed.
	var results []*source.Result
	cleanup := func() {
		for _, res := range results {
			res.Close()
		}
	}
	seen := map[string]bool{}
	byName := map[string]string{}
	var out []fetched
	for _, r := range refs {
		if err := p.policySource(r); err != nil {
			cleanup()
			return nil, func() {}, err
		}
		opts := p.sourceOptions("", skills)
		opts.MaxSkills, opts.InPlace = maxSkills, true
		res, err := source.Fetch(p.ctx, r, opts)
		if err != nil {
			cleanup()
			return nil, func() {}, err
		}
		results = append(results, res)
		if res.Registry {
			cleanup()
			return nil, func() {}, &askerr.Error{Code: askerr.CodeUsage, Message: r.Input + " is a registry, not a skill source",
				Try: []string{"agent-skills registry add <name> " + res.RegistryURL, "then: agent-skills install <name>:<skill>"}}
		}
		for _, sk := range res.Skipped {
			p.out.skip(res.Source, sk)
		}
		for _, pk := range res.Packages {
			key := pk.Source + "|" + pk.Subpath
			if seen[key] {
				continue
			}
			if err := p.policyPackage(pk.Name, pk.Pkg); err != nil {
				cleanup()
				return nil, func() {}, err
			}
			p.out.warned(pk.Name+"@"+pk.Version, pk.Diagnostics)
			if prev, ok := byName[pk.Name]; ok {
				cleanup()
				return nil, func() {}, askerr.Usage("two different sources provide a skill named %q (%s and %s); install them one at a time", pk.Name, prev, pk.Source)
			}
			seen[key], byName[pk.Name] = true, pk.Source
			out = append(out, sourceFetched(pk, resolve.RoleRequested))
		}
	}
	if err := p.scanAll(out); err != nil {
		cleanup()
		return nil, func() {}, err
	}
	return out, cleanup, nil
}

// sourceFetched turns a materialised source package into an install item.
func sourceFetched(pk source.Package, role resolve.Role) fetched {
	return fetched{
		want: want{name: pk.Name, version: pk.Version, role: role, integrity: pk.Integrity,
			source: pk.Source, ref: pk.Ref, commit: pk.Commit, subpath: pk.Subpath, deps: map[string]string{}},
		item: install.Item{Pkg: pk.Pkg, Dir: pk.Dir, Source: pk.Source, Subpath: pk.Subpath, Resolved: pk.Resolved,
			Integrity: pk.Integrity, Role: role, Dependencies: map[string]string{}},
	}
}

// restoreSources fetches exactly the commits and folders the lock records
// for skills installed from sources, verifying their integrity.
func (p *op) restoreSources(entries map[string]resolve.LockedSkill) ([]fetched, func(), error) {
	if len(entries) == 0 {
		return nil, func() {}, nil
	}
	tmp, err := p.stagingDir("restore-")
	if err != nil {
		return nil, func() {}, err
	}
	// As in fetchSources, the packages read their sources in place;
	// cleanup releases them.
	var pkgs []*source.Package
	cleanup := func() {
		for _, pk := range pkgs {
			pk.Close()
		}
		os.RemoveAll(tmp)
	}
	var out []fetched
	for _, name := range sortedKeys(entries) {
		l := entries[name]
		opts := p.sourceOptions(filepath.Join(tmp, name), nil)
		opts.InPlace = true
		pin := source.Pin{Name: name, Version: l.Version, Source: l.Source, Resolved: l.Resolved,
			Commit: l.Commit, Subpath: l.Subpath, Integrity: l.Integrity}
		// The lock's source is checked as one typed in: skills.lock comes
		// with the project.
		r, err := pin.Follow("")
		if err == nil {
			err = p.policySource(r)
		}
		if err != nil {
			cleanup()
			return nil, func() {}, err
		}
		pk, err := source.Restore(p.ctx, pin, opts)
		if err == nil {
			pkgs = append(pkgs, pk)
			err = p.policyPackage(name, pk.Pkg)
		}
		if err != nil {
			cleanup()
			if askerr.Is(err, registry.CodeIntegrityMismatch) {
				// The source's own mismatch says the same sentence: keep
				// its digests, not its message, so the error reads once.
				e := &askerr.Error{Code: registry.CodeIntegrityMismatch, Message: fmt.Sprintf("%s from %s does not match skills.lock", name, l.Source),
					Detail: []string{"Nothing was installed."},
					Try:    []string{changedTry(l)}}
				if inner, ok := errors.AsType[*askerr.Error](err); ok && inner.Code == registry.CodeIntegrityMismatch {
					e.Detail = append(slices.Clone(inner.Detail), e.Detail...)
				} else {
					e.Err = err
				}
				return nil, func() {}, e
			}
			return nil, func() {}, err
		}
		p.out.warned(pk.Name+"@"+pk.Version, pk.Diagnostics)
		f := sourceFetched(*pk, resolve.RoleRequested)
		f.ref = l.Ref
		keepDependencies(&f, l)
		out = append(out, f)
	}
	if err := p.scanAll(out); err != nil {
		cleanup()
		return nil, func() {}, err
	}
	return out, cleanup, nil
}

// missingFolders refuses, before anything is fetched, a restore of skills
// from folders (or local archives) that are not on this machine, naming
// each path: one recorded relative to the project that was not committed
// with it, or one outside the project, which only the machine that
// installed it has.
func missingFolders(entries map[string]resolve.LockedSkill, root string) error {
	var detail, try []string
	var first string
	for _, name := range sortedKeys(entries) {
		l := entries[name]
		if !filepath.IsAbs(l.Source) {
			continue
		}
		path := filepath.Join(l.Source, filepath.FromSlash(l.Subpath))
		if _, err := os.Stat(path); err == nil || !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if first == "" {
			first = fmt.Sprintf("%s comes from %s, which is not on this machine", name, path)
		}
		if rel := relativeTo(root, path); rel != path {
			detail = append(detail, fmt.Sprintf("%s: skills.lock records the folder %s inside the project, and %s does not exist", name, rel, path))
			try = append(try, fmt.Sprintf("commit %s with the project on the machine that installed %s, then run agent-skills install again", rel, name))
			continue
		}
		detail = append(detail, fmt.Sprintf("%s: skills.lock records %s, outside the project (%s): only the machine that installed it has that folder", name, path, root))
		try = append(try, fmt.Sprintf("put the folder at %s (or move it into the project and install it from there), then run agent-skills install again", path))
	}
	if first == "" {
		return nil
	}
	if len(detail) > 1 {
		first = fmt.Sprintf("%d skills come from folders that are not on this machine", len(detail))
	}
	return &askerr.Error{Code: source.CodeSourceNotFound, Message: first, Detail: append(detail, "Nothing was installed."), Try: try}
}

// keepDependencies gives a source package fetched again the dependencies
// its lock entry records.
func keepDependencies(f *fetched, l resolve.LockedSkill) {
	maps.Copy(f.deps, l.Dependencies)
	maps.Copy(f.item.Dependencies, l.Dependencies)
}

// sortedKeys returns the keys of m, sorted.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// changedTry is what to check when a locked source's bytes changed: the
// commit of a git source; the server or file otherwise, which have none.
func changedTry(l resolve.LockedSkill) string {
	if l.Commit == "" {
		return "check who changed " + l.Source + " since skills.lock was written"
	}
	return "check who changed the source at commit " + l.Commit
}
