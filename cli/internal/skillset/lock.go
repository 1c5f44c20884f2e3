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
	"github.com/agent-skills/agent-skills/cli/internal/atomicfile"
	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/resolve"
)

// This file keeps the books of skills.lock: reading and writing it, what
// a restore fetches from it, and the --frozen-lockfile check.

// ReadLock reads skills.lock at path; a missing file is (nil, nil).
func ReadLock(path string) (*resolve.Lock, error) {
	if path == "" {
		return nil, nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, askerr.IO("cannot read "+path, err)
	}
	return resolve.DecodeLock(data, filepath.Base(path))
}

// writeLock writes the lock atomically; an unchanged lock is not
// rewritten. A lock that would not read back is never written: every
// later command would stop at it.
func (s *Session) writeLock(path string, l *resolve.Lock) error {
	l.GeneratedWith = s.opts.Generator
	data := l.Encode()
	if _, err := resolve.DecodeLock(data, filepath.Base(path)); err != nil {
		return &askerr.Error{Code: askerr.CodeInternal, Message: "refusing to write a skills.lock that does not read back", Err: err,
			Try: []string{"report this bug in agent-skills with the output of agent-skills doctor"}}
	}
	if old, err := os.ReadFile(path); err == nil && string(old) == string(data) {
		return nil
	}
	if err := atomicfile.WriteFile(path, data, 0o644); err != nil {
		return askerr.IO("cannot write "+path, err)
	}
	return nil
}

// sortedAgents returns ids sorted without repeats.
func sortedAgents(ids []string) []string {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}

// restoreWants lists exactly what the lock records for registries. The
// lock records no roles: a skill already installed for some agent keeps
// its role (roles) for the others too — a dependency restored for a
// second agent stays a dependency, which uninstall may prune — and is
// requested otherwise.
func restoreWants(l *resolve.Lock, roles map[string]resolve.Role) []want {
	out := make([]want, 0, len(l.Skills))
	for _, n := range slices.Sorted(maps.Keys(l.Skills)) {
		s := l.Skills[n]
		if s.Source != "" {
			continue // restored from its source, not a registry
		}
		role := roles[n]
		if role == "" {
			role = resolve.RoleRequested
		}
		out = append(out, want{name: n, version: s.Version, registry: s.Registry, role: role,
			integrity: s.Integrity, deps: s.Dependencies, keepRole: true})
	}
	return out
}

// frozenCheck refuses a plan that would change skills.lock.
func frozenCheck(l *resolve.Lock, wants []want, fromSources []fetched) error {
	var diffs []string
	locked := func(name string) (resolve.LockedSkill, bool) {
		if l == nil {
			return resolve.LockedSkill{}, false
		}
		s, ok := l.Skills[name]
		return s, ok
	}
	for _, f := range fromSources {
		if s, ok := locked(f.name); !ok || s.Source != f.source || s.Commit != f.commit || s.Integrity != f.integrity {
			diffs = append(diffs, fmt.Sprintf("%s from %s at %s is not what skills.lock records", f.name, f.source, f.commit))
		}
	}
	for _, w := range wants {
		s, ok := locked(w.name)
		switch {
		case !ok:
			diffs = append(diffs, fmt.Sprintf("%s@%s is not in skills.lock", w.name, w.version))
		case s.Version != w.version || s.Registry != w.registry:
			diffs = append(diffs, fmt.Sprintf("%s: skills.lock has %s@%s from %s, the plan needs %s from %s", w.name, w.name, s.Version, s.Registry, w.version, w.registry))
		}
	}
	if len(diffs) == 0 {
		return nil
	}
	return &askerr.Error{Code: CodeLockFrozen, Message: "skills.lock would change, and --frozen-lockfile forbids it",
		Detail: diffs,
		Try:    []string{"run agent-skills install without --frozen-lockfile and commit the updated skills.lock"}}
}

// installedRoles returns the role each skill installed in the scope has
// for the selected agents: requested when any install of it has that role.
func (p *op) installedRoles() (map[string]resolve.Role, error) {
	found, err := p.scan()
	if err != nil {
		return nil, err
	}
	roles := map[string]resolve.Role{}
	for _, in := range found {
		if in.Role != "" && roles[in.Name] != resolve.RoleRequested {
			roles[in.Name] = in.Role
		}
	}
	return roles, nil
}

// installedVersions returns the installed version and registry of every
// skill in the scope: from skills.lock in a project, else from receipts.
func (p *op) installedVersions() (map[string]resolve.Pin, error) {
	out := map[string]resolve.Pin{}
	if p.Scope.Project() && p.lock != nil {
		for n, s := range p.lock.Skills {
			if s.Source == "" {
				out[n] = resolve.Pin{Version: s.Version, Registry: s.Registry}
			}
		}
		return out, nil
	}
	found, err := p.scan()
	if err != nil {
		return nil, err
	}
	for _, in := range found {
		if in.Version != "" && in.Registry != "" {
			out[in.Name] = resolve.Pin{Version: in.Version, Registry: in.Registry}
		}
	}
	return out, nil
}

// scan lists what is installed for the selected agents in the scope.
func (p *op) scan() ([]install.Installed, error) {
	return install.Scan(p.ctx, p.installOptions(false, false))
}
