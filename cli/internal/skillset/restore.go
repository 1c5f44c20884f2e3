package skillset

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/resolve"
)

// RestoreRequest is what `agent-skills install` with no names asks for.
type RestoreRequest struct {
	// Force overwrites an install that was modified or not made by
	// agent-skills.
	Force bool
	// DryRun plans and writes nothing.
	DryRun bool
	// Strict validates at validate's default gate instead of the install
	// gate (install --strict).
	Strict bool
	// FrozenLockfile refuses, before anything is written, a restore that
	// would change skills.lock: one that installs a skill for an agent its
	// entry does not list (install --agent … --frozen-lockfile).
	FrozenLockfile bool
	// Progress shows the fetch; nil shows nothing.
	Progress Progress
}

// Restore installs exactly what the project's skills.lock records — the
// versions from their registries, the commits and folders of sources —
// each verified against the lock's digest. When the session's agents are
// those the lock records (Options.LockedAgents, no --agent), each skill
// is installed for the agents its own entry lists, detected on this
// machine or not, so that the restored lock is the one committed; with
// agents named, every skill is installed for them.
func (s *Session) Restore(ctx context.Context, r RestoreRequest) (*Outcome, error) {
	if err := s.policyReady(); err != nil {
		return nil, err
	}
	risk, err := s.scanGate()
	if err != nil {
		return nil, err
	}
	p := s.begin(ctx, "install", nil, restoreFlags(r), r.DryRun, r.Progress)
	p.strict, p.risk = r.Strict, risk
	if err := p.recoverFirst(r.DryRun); err != nil {
		return p.out, err
	}
	if !s.Scope.Project() || p.lock == nil {
		return nil, askerr.Usage("name the skills to install (restoring with no names needs a project with a skills.lock)")
	}
	fromSources := map[string]resolve.LockedSkill{}
	for n, l := range p.lock.Skills {
		if l.Source != "" {
			fromSources[n] = l
		}
	}
	roles, err := p.installedRoles()
	if err != nil {
		return p.out, err
	}
	// Registries the lock names but neither it nor the configuration says
	// how to reach, and folders that are not on this machine, stop the
	// restore before anything is fetched.
	wants, err := p.restoreStranded(restoreWants(p.lock, roles))
	if err != nil {
		return p.out, err
	}
	if err := missingFolders(fromSources, s.Scope.Root); err != nil {
		return p.out, err
	}
	srcFetched, cleanup, err := p.restoreSources(fromSources)
	defer cleanup()
	if err != nil {
		return p.out, err
	}
	regFetched, err := p.fetch(wants)
	if err != nil {
		return p.out, err
	}
	all := append(srcFetched, regFetched...)
	if err := p.judgeRisks(all); err != nil {
		return p.out, err
	}
	groups := p.restoreGroups(all)
	if r.FrozenLockfile {
		if err := frozenRestore(p.lock, groups); err != nil {
			return p.out, err
		}
	}
	defer p.labelResults()
	for _, g := range groups {
		rep, err := p.forAgents(g.agents).apply(g.items, nil, r.Force, r.DryRun)
		p.out.addReport(rep)
		if err != nil {
			return p.out, err
		}
	}
	return p.out, nil
}

// restoreGroup is the packages a restore installs for one set of agents.
type restoreGroup struct {
	agents []agents.Adapter
	items  []fetched
}

// ids returns the group's agent ids.
func (g restoreGroup) ids() []string {
	out := make([]string, len(g.agents))
	for i, a := range g.agents {
		out[i] = a.ID()
	}
	return out
}

// restoreGroups splits what a restore fetched by the agents each package
// goes to: all of them to the selected agents when agents were named (or
// detected, for a lock that lists none); otherwise, each to the selected
// agents its lock entry lists (all selected ones for an entry listing
// none). Groups with more agents go first: a dependency is installed for
// at least the agents of the skills that need it, so it goes in before
// them, or with them (apply installs dependencies first).
func (p *op) restoreGroups(fs []fetched) []restoreGroup {
	if len(fs) == 0 {
		return nil
	}
	if !p.lockedAgents {
		return []restoreGroup{{agents: p.Agents, items: fs}}
	}
	byKey := map[string]*restoreGroup{}
	for _, f := range fs {
		listed := p.lock.Skills[f.name].Agents
		var sel []agents.Adapter
		for _, a := range p.Agents {
			if len(listed) == 0 || slices.Contains(listed, a.ID()) {
				sel = append(sel, a)
			}
		}
		if len(sel) == 0 {
			continue // listed only for agents the configuration disables
		}
		g := restoreGroup{agents: sel}
		key := strings.Join(g.ids(), ",")
		if byKey[key] == nil {
			byKey[key] = &g
		}
		byKey[key].items = append(byKey[key].items, f)
	}
	var out []restoreGroup
	for _, k := range slices.Sorted(maps.Keys(byKey)) {
		out = append(out, *byKey[k])
	}
	slices.SortStableFunc(out, func(a, b restoreGroup) int { return cmp.Compare(len(b.agents), len(a.agents)) })
	return out
}

// forAgents returns the use case acting for adapters instead of the
// session's agents, sharing its outcome.
func (p *op) forAgents(adapters []agents.Adapter) *op {
	if slices.Equal(adapters, p.Agents) {
		return p
	}
	s := *p.Session
	s.Agents = adapters
	q := *p
	q.Session = &s
	return &q
}

// frozenRestore refuses a restore (install --frozen-lockfile with no
// names) that would change skills.lock: one that installs a skill for an
// agent its entry does not list.
func frozenRestore(l *resolve.Lock, groups []restoreGroup) error {
	var diffs []string
	for _, g := range groups {
		for _, f := range g.items {
			listed := l.Skills[f.name].Agents
			var more []string
			for _, id := range g.ids() {
				if !slices.Contains(listed, id) {
					more = append(more, id)
				}
			}
			if len(more) > 0 {
				diffs = append(diffs, fmt.Sprintf("%s: skills.lock lists it for %s; this restore adds %s", f.name, listedAgents(listed), strings.Join(more, ", ")))
			}
		}
	}
	if len(diffs) == 0 {
		return nil
	}
	slices.Sort(diffs)
	return &askerr.Error{Code: CodeLockFrozen, Message: "skills.lock would change, and --frozen-lockfile forbids it",
		Detail: append(diffs, "Nothing was installed."),
		Try: []string{"agent-skills install --frozen-lockfile   (without --agent: restore for the agents skills.lock lists)",
			"run agent-skills install without --frozen-lockfile and commit the updated skills.lock"}}
}

// listedAgents is ids for a sentence; "no agent" when there are none.
func listedAgents(ids []string) string {
	if len(ids) == 0 {
		return "no agent"
	}
	return strings.Join(sortedAgents(ids), ", ")
}

// restoreFlags are the flags of r that running the restore again needs.
func restoreFlags(r RestoreRequest) []string {
	var out []string
	if r.Force {
		out = append(out, "--force")
	}
	if r.Strict {
		out = append(out, "--strict")
	}
	return out
}
