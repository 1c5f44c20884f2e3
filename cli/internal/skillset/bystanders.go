package skillset

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/format"
)

// noteBystanders fills the AlsoReadBy of every result that leaves a
// package in a root: the agents of the run's table that were not
// selected but read that root, so they list the package too (Copilot and
// Cursor read the .claude/skills an install for Claude Code writes).
// Each root is looked up once, and the results of one root share its
// list.
//
// It returns the agents among them that are detected here (see
// installedHere), whom the report names.
func (p *op) noteBystanders(rep *install.Report) []string {
	if rep == nil {
		return nil
	}
	type key struct {
		kind format.Kind
		root string
	}
	roots := map[format.Kind][]string{}
	at := map[key]int{}
	for _, r := range rep.Results {
		k := key{r.Kind, r.Root}
		if _, ok := at[k]; ok || r.Root == "" || !inPlace(r.Outcome) {
			continue
		}
		at[k] = len(roots[r.Kind])
		roots[r.Kind] = append(roots[r.Kind], r.Root)
	}
	if len(at) == 0 {
		return nil
	}
	table := p.ws.Table().All()
	// A selected agent is never a bystander, whether or not this kind or
	// the package's compatibility served it.
	also := map[format.Kind][][]string{}
	var seen, written []string
	for kind, rs := range roots {
		also[kind] = agents.AlsoReaders(table, p.AgentIDs(), kind, p.Scope.Kind, p.Env, rs)
		written = append(written, rs...)
		for _, ids := range also[kind] {
			seen = append(seen, ids...)
		}
	}
	for i := range rep.Results {
		r := &rep.Results[i]
		if j, ok := at[key{r.Kind, r.Root}]; ok {
			r.AlsoReadBy = also[r.Kind][j]
		}
	}
	return p.installedHere(table, seen, written)
}

// installedHere returns, of the agents ids names, those detected on this
// machine or in the project, in table order: the ones a user would be
// surprised by. A project marker counts unless it is one of the written
// roots or a folder above one — the .agents an install for Codex creates
// is no sign of Amp. Versions are not read, so nothing is run.
func (p *op) installedHere(table []agents.Adapter, ids, written []string) []string {
	env := p.Env
	env.Version, env.ReadFile = nil, nil
	ours := func(path string) bool {
		return slices.ContainsFunc(written, func(root string) bool {
			rel, err := filepath.Rel(path, root)
			return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
		})
	}
	var out []string
	for _, a := range table {
		if !slices.Contains(ids, a.ID()) || slices.Contains(out, a.ID()) {
			continue
		}
		for _, ev := range a.Detect(p.ctx, env).Evidence {
			if ev.Strong() || !ours(ev.Detail) {
				out = append(out, a.ID())
				break
			}
		}
	}
	return out
}

// noteCaveats adds, in project scope, a note for each selected agent that
// reads a root a package was put in but sees project skills only under a
// condition (a trusted folder, the folder it starts in): installed,
// reported, and invisible otherwise.
func (p *op) noteCaveats(rep *install.Report, o *Outcome) {
	if rep == nil || p.Scope.Kind != agents.ScopeProject {
		return
	}
	served := map[string]bool{}
	for _, r := range rep.Results {
		if inPlace(r.Outcome) {
			for _, id := range r.Readers {
				served[id] = true
			}
		}
	}
	for _, a := range p.Agents {
		c := agents.ProjectCaveat(a)
		if c != "" && served[a.ID()] && !slices.ContainsFunc(o.Notices, func(n Notice) bool { return n.Text == c }) {
			o.notify(LevelNote, "%s", c)
		}
	}
}

// inPlace reports an outcome after which the package is in its root.
func inPlace(o install.Outcome) bool {
	switch o {
	case install.OutcomeInstalled, install.OutcomeUpgraded, install.OutcomeDowngraded,
		install.OutcomeReinstalled, install.OutcomeUnchanged:
		return true
	}
	return false
}
