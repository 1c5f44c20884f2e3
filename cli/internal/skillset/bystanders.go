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
func (s *op) noteBystanders(rep *install.Report) []string {
	if rep == nil {
		return nil
	}
	type key struct {
		kind format.Kind
		root string
	}
	plans := map[format.Kind]*agents.Plan{}
	at := map[key]int{}
	for _, r := range rep.Results {
		if r.Root == "" || !inPlace(r.Outcome) {
			continue
		}
		k := key{r.Kind, r.Root}
		p := plans[r.Kind]
		if p == nil {
			p = &agents.Plan{}
			for _, a := range s.Agents {
				// A selected agent is never a bystander, whether or not
				// this kind or the package's compatibility served it.
				p.Skips = append(p.Skips, agents.Skip{Agent: a.ID()})
			}
			plans[r.Kind] = p
		}
		if _, ok := at[k]; !ok {
			at[k] = len(p.Targets)
			p.Targets = append(p.Targets, agents.Target{Location: agents.Location{Root: r.Root}})
		}
	}
	if len(at) == 0 {
		return nil
	}
	table := s.ws.Table().All()
	for kind, p := range plans {
		p.NoteBystanders(table, kind, s.Scope.Kind, s.Env)
	}
	for i := range rep.Results {
		r := &rep.Results[i]
		if j, ok := at[key{r.Kind, r.Root}]; ok {
			r.AlsoReadBy = plans[r.Kind].Targets[j].AlsoReadBy
		}
	}
	var seen, written []string
	for _, p := range plans {
		for _, t := range p.Targets {
			seen = append(seen, t.AlsoReadBy...)
			written = append(written, t.Root)
		}
	}
	return s.installedHere(table, seen, written)
}

// installedHere returns, of the agents ids names, those detected on this
// machine or in the project, in table order: the ones a user would be
// surprised by. A project marker counts unless it is one of the written
// roots or a folder above one — the .agents an install for Codex creates
// is no sign of Amp. Versions are not read, so nothing is run.
func (s *op) installedHere(table []agents.Adapter, ids, written []string) []string {
	env := s.Env
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
		for _, ev := range a.Detect(s.ctx, env).Evidence {
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
func (s *op) noteCaveats(rep *install.Report, o *Outcome) {
	if rep == nil || s.Scope.Kind != agents.ScopeProject {
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
	for _, a := range s.Agents {
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
