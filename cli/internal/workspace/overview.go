package workspace

import (
	"context"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/config"
	"github.com/agent-skills/agent-skills/format"
)

// AgentOverview is what the agents command shows before its details:
// every agent with its detection, the agents an install would act on, and
// the roots a skill would be written to for them in each scope.
type AgentOverview struct {
	// Reports holds every agent of the table, in table order, detected.
	Reports []agents.Report
	// Selected are the agents an install acts on: the named ones, or the
	// enabled agents with strong evidence. It is empty when none is.
	Selected []agents.Adapter
	// Named says Selected came from --agent.
	Named bool
	// Skills is where a skill is written for Selected, per scope.
	Skills map[agents.Scope]agents.Plan
}

// Overview detects every agent of the run's table and plans a skill for
// the agents an install with the same --agent values (names, possibly
// none) would act on. An unknown name is an error; finding no agent is
// not (Selected is then empty).
func (m *Machine) Overview(ctx context.Context, cfg *config.Config, names []string, aenv agents.Env) (AgentOverview, error) {
	table := m.Table()
	ov := AgentOverview{Reports: agents.DetectAll(ctx, aenv, table.All()), Named: len(names) > 0}
	if ov.Named {
		sel, err := table.Select(names)
		if err != nil {
			return ov, err
		}
		ov.Selected = sel
	} else {
		var enabled []agents.Report
		for _, r := range ov.Reports {
			if cfg.AgentEnabled(r.Adapter.ID()) {
				enabled = append(enabled, r)
			}
		}
		// No strong evidence is the ASK_NO_AGENT an install would
		// raise; here it only leaves the selection empty.
		ov.Selected, _ = agents.AutoSelect(enabled)
	}
	ov.Skills = map[agents.Scope]agents.Plan{}
	if len(ov.Selected) > 0 {
		for _, scope := range []agents.Scope{agents.ScopeGlobal, agents.ScopeProject} {
			ov.Skills[scope] = agents.PlanRoots(ov.Selected, format.KindSkill, scope, aenv)
		}
	}
	return ov, nil
}
