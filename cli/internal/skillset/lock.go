package skillset

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/atomicfile"
	"github.com/agent-skills/agent-skills/cli/internal/config"
	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/resolve"
)

// This file keeps the books of skills.lock: reading and writing it, what
// a restore fetches from it, and the --frozen-lockfile check.

// ReadLock reads skills.lock at path; a missing file is (nil, nil). The
// folders it records relative to the project root (the folder of path)
// come back as absolute paths, which is how every command holds them.
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
	l, err := resolve.DecodeLock(data, filepath.Base(path))
	if err != nil {
		return nil, err
	}
	localize(l, filepath.Dir(path))
	return l, nil
}

// writeLock writes the lock atomically, in the current format, with the
// registries its skills come from (recordRegistries) and the folders
// inside the project relative to its root; an unchanged lock is not
// rewritten. A lock that would not read back is never written: every
// later command would stop at it.
func (s *Session) writeLock(path string, l *resolve.Lock) error {
	l.GeneratedWith = s.opts.Generator
	l.LockfileVersion = resolve.LockfileVersion
	s.recordRegistries(l)
	data := portable(l, filepath.Dir(path)).Encode()
	if _, err := resolve.DecodeLock(data, filepath.Base(path)); err != nil {
		return &askerr.Error{Code: askerr.CodeInternal, Message: "refusing to write a skills.lock that does not read back", Err: err,
			Try: []string{"report this bug in agent-skills with the output of agent-skills doctor"}}
	}
	if fileHolds(path, data) {
		return nil
	}
	if err := atomicfile.WriteFile(path, data, 0o644); err != nil {
		return askerr.IO("cannot write "+path, err)
	}
	return nil
}

// fileHolds reports whether the file at path holds data, read a block at a
// time: a skills.lock of 10,000 skills is 2.5 MB, read whole as often as
// it is written.
func fileHolds(path string, data []byte) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() != int64(len(data)) {
		return false
	}
	buf := make([]byte, 32<<10)
	for {
		n, err := io.ReadFull(f, buf)
		if n > len(data) || !bytes.Equal(buf[:n], data[:n]) {
			return false
		}
		data = data[n:]
		switch {
		case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
			return len(data) == 0
		case err != nil:
			return false
		}
	}
}

// localize turns the folders l records relative to the project root
// ("." and "./path": sources, their resolved location, local and git
// registries) into absolute paths under root. The codec has checked that
// none leaves the project.
func localize(l *resolve.Lock, root string) {
	abs := func(p string) string {
		if p == "." {
			return root
		}
		if rest, ok := strings.CutPrefix(p, "./"); ok {
			return filepath.Join(root, filepath.FromSlash(rest))
		}
		return p
	}
	for n, sk := range l.Skills {
		sk.Source, sk.Resolved = abs(sk.Source), abs(sk.Resolved)
		l.Skills[n] = sk
	}
	for n, r := range l.Registries {
		if r.Kind == config.KindLocal || r.Kind == config.KindGit {
			r.URL = abs(r.URL)
			l.Registries[n] = r
		}
	}
}

// portable returns a copy of l for the file: every folder inside the
// project root — a local source and its resolved location, a local or
// git registry given by path — relative to it ("./path", "." for the root
// itself), so that a clone at another path, on another machine, finds
// it. Folders outside the project stay absolute. The copy shares l's
// skills when none is from a folder.
func portable(l *resolve.Lock, root string) *resolve.Lock {
	out := *l
	if !anyAbsSource(l.Skills) {
		// Nothing to rewrite: the copy shares l's skills (10,000 entries
		// are megabytes, held while the lock is encoded and read back).
		out.Registries = portableRegistries(l.Registries, root)
		return &out
	}
	out.Skills = make(map[string]resolve.LockedSkill, len(l.Skills))
	// The skills of one source share its folder, and every path is
	// compared with the root's real path: resolve each path's links once
	// (a collection of 500 made 11,000 lstat calls).
	reals := map[string]string{}
	real := func(p string) string {
		r, ok := reals[p]
		if !ok {
			r = realPath(p)
			reals[p] = r
		}
		return r
	}
	for n, sk := range l.Skills {
		if filepath.IsAbs(sk.Source) {
			// A resolved location is the source plus "#<commit>:<path>":
			// only the source's part is a folder, whose links real has
			// resolved already (each resolved location walked in vain
			// made six lstat calls per skill).
			// The project root itself stays as it was: "." plus the rest
			// would not read back as a path (localize).
			src := relativeWith(root, sk.Source, real)
			if rest, ok := strings.CutPrefix(sk.Resolved, sk.Source+"#"); ok && src != "." {
				sk.Resolved = src + "#" + rest
			} else if filepath.IsAbs(sk.Resolved) {
				sk.Resolved = relativeWith(root, sk.Resolved, real)
			}
			sk.Source = src
		}
		out.Skills[n] = sk
	}
	out.Registries = portableRegistries(l.Registries, root)
	return &out
}

// anyAbsSource reports whether a skill is from a source given by path,
// which portable rewrites.
func anyAbsSource(skills map[string]resolve.LockedSkill) bool {
	for _, sk := range skills {
		if filepath.IsAbs(sk.Source) {
			return true
		}
	}
	return false
}

// portableRegistries is the registries of a lock as portable records
// them.
func portableRegistries(regs map[string]resolve.LockedRegistry, root string) map[string]resolve.LockedRegistry {
	if regs == nil {
		return nil
	}
	out := make(map[string]resolve.LockedRegistry, len(regs))
	for n, r := range regs {
		if (r.Kind == config.KindLocal || r.Kind == config.KindGit) && filepath.IsAbs(r.URL) {
			r.URL = relativeTo(root, r.URL)
		}
		out[n] = r
	}
	return out
}

// relativeTo is p as skills.lock records it: "./rel" (or ".") when p is
// root or below it, links resolved where they exist; p otherwise.
func relativeTo(root, p string) string { return relativeWith(root, p, realPath) }

// relativeWith is relativeTo resolving links with real.
func relativeWith(root, p string, real func(string) string) string {
	rel := func(root, p string) (string, bool) {
		r, err := filepath.Rel(root, p)
		if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r) {
			return "", false
		}
		if r == "." {
			return ".", true
		}
		return "./" + filepath.ToSlash(r), true
	}
	if root == "" {
		return p
	}
	if r, ok := rel(filepath.Clean(root), filepath.Clean(p)); ok {
		return r
	}
	if r, ok := rel(real(root), real(p)); ok {
		return r
	}
	return p
}

// lockedAgentIDs returns the agents a restore installs for when none is
// named: every agent an entry of l lists, sorted, but those the
// configuration disables; none without a lock or when no entry lists an
// agent (the detected agents are then used). skills.lock comes with the
// project: an id must name a supported agent exactly (not an alias, not
// "all"), else the restore stops with ASK_AGENT_UNKNOWN; when the
// configuration disables every one, with ASK_NO_AGENT.
func lockedAgentIDs(l *resolve.Lock, table *agents.Table, cfg *config.Config) ([]string, error) {
	if l == nil {
		return nil, nil
	}
	var all []string
	for _, sk := range l.Skills {
		all = append(all, sk.Agents...)
	}
	all = sortedAgents(all)
	var ids, unknown, disabled []string
	for _, id := range all {
		a, err := table.Lookup(id)
		switch {
		case err != nil || a.ID() != id:
			unknown = append(unknown, id)
		case !cfg.AgentEnabled(id):
			disabled = append(disabled, id)
		default:
			ids = append(ids, id)
		}
	}
	if len(unknown) > 0 {
		return nil, &askerr.Error{Code: agents.CodeAgentUnknown,
			Message: "skills.lock records agents this agent-skills does not know: " + strings.Join(unknown, ", "),
			Detail:  []string{"Nothing was installed."},
			Try: []string{"upgrade agent-skills (a newer one may have written the lock)",
				"define it in your config.json if it is a teammate's custom agent (docs/cli.md#custom-agents)",
				"agent-skills install --agent <id>   (to restore for agents you name; agent-skills agents lists them)"}}
	}
	if len(ids) == 0 && len(disabled) > 0 {
		return nil, &askerr.Error{Code: agents.CodeNoAgent,
			Message: "skills.lock records only agents the configuration disables: " + strings.Join(disabled, ", "),
			Detail:  []string{"Nothing was installed."},
			Try:     []string{"agent-skills install --agent <id>   (to restore for the agents you name)"}}
	}
	return ids, nil
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
			integrity: s.Integrity, resolved: s.Resolved, deps: s.Dependencies, keepRole: true})
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
