package skillset

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/cli/internal/source"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/resolve"
)

// CodeOriginConflict reports a skill that a run would install from a
// registry or source other than the one it is installed from.
const CodeOriginConflict = "ASK_ORIGIN_CONFLICT"

// This file keeps one origin per skill name in a scope. A name installed
// from one registry or source is never quietly replaced by the same name
// from another (a fork, a namesake in another registry, a dependency that
// resolves elsewhere): the run refuses and names both origins, unless
// --force, which replaces it for every selected agent at once — and only
// when those are all the agents that have it, so that skills.lock, the
// receipts and list go on agreeing about where the skill came from.

// Origin is where a skill comes from: the registry it was resolved in, or
// the direct source it was fetched from and the folder inside it.
type Origin struct {
	// Registry is the registry's configured name.
	Registry string
	// Source is the source's canonical identity and Subpath the skill's
	// folder inside it ("" for its root).
	Source, Subpath string
}

// OriginOf returns the origin an install's receipt records. Receipts
// written before sources were recorded give an unknown origin for a skill
// from a source.
func OriginOf(in install.Installed) Origin {
	return Origin{Registry: in.Registry, Source: in.Source, Subpath: in.Subpath}
}

// lockedOrigin returns the origin a skills.lock entry records.
func lockedOrigin(l resolve.LockedSkill) Origin {
	if l.Source != "" {
		return Origin{Source: l.Source, Subpath: l.Subpath}
	}
	return Origin{Registry: l.Registry}
}

// Known reports whether o names a registry or a source.
func (o Origin) Known() bool { return o.Registry != "" || o.Source != "" }

// String is o as list shows it: the registry's name; or the source, then
// "//" and the folder when the skill is not at its root; "" when unknown.
// A registry name holds no ":" or "/", which every source does.
func (o Origin) String() string {
	switch {
	case o.Registry != "":
		return o.Registry
	case o.subpath() != "":
		return o.Source + "//" + o.subpath()
	}
	return o.Source
}

// describe is o for a sentence: "registry team", "source github:a/b//x".
func (o Origin) describe() string {
	if o.Registry != "" {
		return "registry " + o.Registry
	}
	return "source " + o.String()
}

// subpath is the folder, "" for the root.
func (o Origin) subpath() string {
	if o.Subpath == "." {
		return ""
	}
	return strings.Trim(o.Subpath, "/")
}

// same reports whether o and other are one origin. A local folder is the
// same folder however it was named: "/c" with folder "skills/x", or
// "/c/skills/x" itself; a repository is the same whatever transport
// reaches it (git@github.com:o/r, github:o/r; see source.SameSource).
func (o Origin) same(other Origin) bool {
	if o.Registry != "" || other.Registry != "" {
		return o.Registry == other.Registry && o.Source == "" && other.Source == ""
	}
	if filepath.IsAbs(o.Source) && filepath.IsAbs(other.Source) {
		return filepath.Join(o.Source, o.subpath()) == filepath.Join(other.Source, other.subpath())
	}
	return source.SameSource(o.Source, other.Source) && o.subpath() == other.subpath()
}

// holding is one record of where an installed skill came from: its
// skills.lock entry, or one receipt, with the agents it is there for.
type holding struct {
	origin  Origin
	version string
	// agents are the lock entry's agents, or those the receipt was
	// written for; readers the agents that read the receipt's folder (not
	// only for compatibility), any of which replaces that copy.
	agents, readers []string
	// lock marks the skills.lock entry.
	lock bool
}

// holdings returns, for each name of to, the records of where it is
// installed from: the lock entry in a project, and the receipts in the
// folders of every supported agent, selected or not — a copy another
// agent reads from the old origin would otherwise stay behind. A name the
// lock records from the origin of to is not looked for in the folders:
// the lock follows every agent's folder, so they agree.
func (p *op) holdings(to map[string]Origin) (map[string][]holding, error) {
	out := map[string][]holding{}
	var look []string
	for _, n := range slices.Sorted(maps.Keys(to)) {
		if p.Scope.Project() && p.lock != nil {
			if l, ok := p.lock.Skills[n]; ok {
				out[n] = append(out[n], holding{origin: lockedOrigin(l), version: l.Version, agents: l.Agents, lock: true})
				if lockedOrigin(l).same(to[n]) {
					continue
				}
			}
		}
		look = append(look, n)
	}
	if len(look) == 0 {
		return out, nil
	}
	found, err := p.scanEverywhere(look)
	if err != nil {
		return nil, err
	}
	for _, in := range found {
		o := OriginOf(in)
		if !o.Known() || in.State == install.StateUnmanaged || in.State == install.StateReceiptBroken {
			continue
		}
		var readers []string
		for _, a := range in.Readers {
			if !slices.Contains(in.Deprecated, a) {
				readers = append(readers, a)
			}
		}
		agents := in.Agents
		if len(agents) == 0 {
			agents = readers
		}
		if len(readers) > 0 {
			out[in.Name] = append(out[in.Name], holding{origin: o, version: in.Version, agents: agents, readers: readers})
		}
	}
	return out, nil
}

// scanEverywhere lists the installs of names in the folders of the
// selected agents and of every other agent that reads a folder they do
// not, each folder once. A folder this run does not write and cannot read
// safely (a link out of the project) is not its to refuse: when the whole
// scan fails, the selected agents' folders are scanned alone, failing as
// they would for the install, and the others one agent at a time,
// skipping those that cannot be read.
func (p *op) scanEverywhere(names []string) ([]install.Installed, error) {
	read := map[string]bool{}
	// Most agents share a few folders: each is resolved once.
	real := map[string]string{}
	for _, a := range p.Agents {
		for _, r := range p.rootsOf(a, real) {
			read[r] = true
		}
	}
	var others []agents.Adapter
	// A --dir folder is the only root of its run: what agents' folders
	// hold is not its business.
	for _, a := range p.ws.Table().All() {
		if p.opts.Dir == "" && !slices.Contains(p.AgentIDs(), a.ID()) && slices.ContainsFunc(p.rootsOf(a, real), func(r string) bool { return !read[r] }) {
			others = append(others, a)
		}
	}
	opts := p.installOptions(false, false)
	opts.Names = names
	all := opts
	all.Agents = append(slices.Clone(p.Agents), others...)
	if found, err := install.Scan(p.ctx, all); err == nil {
		return found, nil
	}
	found, err := install.Scan(p.ctx, opts)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, in := range found {
		seen[realPath(in.Dest)] = true
	}
	for _, a := range others {
		one := opts
		one.Agents = []agents.Adapter{a}
		more, err := install.Scan(p.ctx, one)
		if err != nil {
			continue
		}
		for _, in := range more {
			if !seen[realPath(in.Dest)] {
				seen[realPath(in.Dest)] = true
				found = append(found, in)
			}
		}
	}
	return found, nil
}

// rootsOf lists every folder a reads packages from in the scope, links
// resolved (through real, the resolutions so far).
func (p *op) rootsOf(a agents.Adapter, real map[string]string) []string {
	var out []string
	for _, k := range format.Kinds() {
		for _, r := range agents.Roots(a, k, p.Scope.Kind, p.Env) {
			rp, ok := real[r.Path]
			if !ok {
				rp = realPath(r.Path)
				real[r.Path] = rp
			}
			out = append(out, rp)
		}
	}
	return out
}

// realPath is path with its links resolved, or path when it cannot be.
func realPath(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return path
}

// checkOrigins refuses a run that would install a skill from an origin
// other than the one it is installed from: the packages fetched from
// sources and the registry packages wanted. With force it lets the run
// replace them, provided every receipt of the old origin is in a folder a
// selected agent reads, and notes each replacement.
func (p *op) checkOrigins(fromSources []fetched, wants []want, force bool) error {
	to := map[string]Origin{}
	for _, w := range wants {
		to[w.name] = Origin{Registry: w.registry}
	}
	for _, f := range fromSources {
		to[f.name] = Origin{Source: f.source, Subpath: f.subpath}
	}
	if len(to) == 0 {
		return nil
	}
	held, err := p.holdings(to)
	if err != nil {
		return err
	}
	selected := map[string]bool{}
	for _, a := range p.AgentIDs() {
		selected[a] = true
	}
	var conflicts, detail, replaced []string
	var firstFrom []string
	elsewhere := map[string][]string{} // name → agents not selected that hold the old origin
	for _, name := range slices.Sorted(maps.Keys(to)) {
		from := map[string][]string{} // old origin, described → agents
		var fromVersion string
		for _, h := range held[name] {
			if h.origin.same(to[name]) {
				continue
			}
			d := p.describeOrigin(h.origin)
			from[d] = append(from[d], h.agents...)
			if h.lock || fromVersion == "" {
				fromVersion = h.version
			}
			if !h.lock && !slices.ContainsFunc(h.readers, func(a string) bool { return selected[a] }) {
				elsewhere[name] = append(elsewhere[name], h.agents...)
			}
		}
		if len(from) == 0 {
			continue
		}
		conflicts = append(conflicts, name)
		olds := slices.Sorted(maps.Keys(from))
		if firstFrom == nil {
			firstFrom = olds
		}
		for _, d := range olds {
			detail = append(detail, fmt.Sprintf("%s %s: installed from %s for %s; this run takes it from %s",
				name, fromVersion, d, strings.Join(sortedAgents(from[d]), ", "), to[name].describe()))
		}
		replaced = append(replaced, fmt.Sprintf("%s now comes from %s, no longer from %s", name, to[name].describe(), strings.Join(olds, " and ")))
	}
	if len(conflicts) == 0 {
		return nil
	}
	if force && len(elsewhere) == 0 {
		for _, r := range replaced {
			p.note("%s", r)
		}
		return nil
	}
	if force {
		names := slices.Sorted(maps.Keys(elsewhere))
		var more []string
		for _, n := range names {
			more = append(more, elsewhere[n]...)
		}
		more = sortedAgents(more)
		all := sortedAgents(append(p.AgentIDs(), more...))
		return &askerr.Error{Code: CodeOriginConflict,
			Message: fmt.Sprintf("%s is also installed for %s, which this run does not select", nameList(names), strings.Join(more, ", ")),
			Detail: append(detail, "skills.lock records one origin per skill: --force replaces it for every agent that has it, or for none.",
				"Nothing was changed."),
			Try: []string{p.rerunWith("--agent", strings.Join(all, ","), "--force"),
				fmt.Sprintf("agent-skills uninstall %s --%s --agent %s   (then run this command again)", strings.Join(names, " "), p.Scope.Kind, strings.Join(more, ","))}}
	}
	msg := fmt.Sprintf("%s is installed from %s, not from %s", conflicts[0], strings.Join(firstFrom, " and "), to[conflicts[0]].describe())
	if len(conflicts) > 1 {
		msg = fmt.Sprintf("%d skills are installed from elsewhere: %s", len(conflicts), nameList(conflicts))
	}
	return &askerr.Error{Code: CodeOriginConflict, Message: msg,
		Detail: append(detail, "Nothing was changed."),
		Try: []string{p.rerunWith("--force") + "   (to replace it for every selected agent)",
			"agent-skills list   (to see where each installed skill comes from)"}}
}

// describeOrigin is o for a sentence, saying when its registry is no
// longer configured.
func (p *op) describeOrigin(o Origin) string {
	d := o.describe()
	if o.Registry != "" {
		if _, ok := p.Registries.Get(o.Registry); !ok {
			d += " (no longer configured)"
		}
	}
	return d
}

// rerunWith is the command of this run with more flags, for a next
// action: the names, the flags that matter and the scope; --agent,
// --force and --allow-risk replace those given.
func (p *op) rerunWith(extra ...string) string {
	parts := []string{"agent-skills", p.command}
	for _, r := range p.requested {
		// A folder with a blank, or mcp:'<command> <args>', is one argument.
		parts = append(parts, shellWord(r))
	}
	for i := 0; i < len(p.flags); i++ {
		f := p.flags[i]
		if f == "--allow-risk" && slices.Contains(extra, f) {
			i++ // and its value
			continue
		}
		if f != "--force" {
			parts = append(parts, f)
		}
	}
	parts = append(parts, "--"+string(p.Scope.Kind))
	if !slices.Contains(extra, "--agent") {
		parts = append(parts, "--agent", strings.Join(p.AgentIDs(), ","))
	}
	return strings.Join(append(parts, extra...), " ")
}

// skipConflicts takes out of fs the source packages "*" chose whose name
// is installed from another origin: they are skipped with the reason,
// like those the gate refuses, so that the rest of a collection installs.
// A skill named explicitly stays refused (checkOrigins), and --force
// replaces instead.
func (p *op) skipConflicts(fs []fetched) ([]fetched, error) {
	to := map[string]Origin{}
	for _, f := range fs {
		to[f.name] = Origin{Source: f.source, Subpath: f.subpath}
	}
	if len(to) == 0 {
		return fs, nil
	}
	held, err := p.holdings(to)
	if err != nil {
		return nil, err
	}
	var keep []fetched
	for _, f := range fs {
		var olds []string
		for _, h := range held[f.name] {
			if d := p.describeOrigin(h.origin); !h.origin.same(to[f.name]) && !slices.Contains(olds, d) {
				olds = append(olds, d)
			}
		}
		if len(olds) == 0 {
			keep = append(keep, f)
			continue
		}
		slices.Sort(olds)
		p.out.skip(f.source, source.Skipped{Name: f.name, Path: f.subpath, Code: CodeOriginConflict,
			Reason: fmt.Sprintf("%s is installed from %s, not from %s; --force replaces it", f.name, strings.Join(olds, " and "), to[f.name].describe())})
	}
	return keep, nil
}

// shellWord quotes s for a POSIX shell when it needs it, so that a
// command printed under Try: can be pasted as it is.
func shellWord(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`!*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
