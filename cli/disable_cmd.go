package cli

import "github.com/agent-skills/agent-skills/cli/internal/skillset"

// toggleFlags are the flags disable and enable share.
type toggleFlags struct {
	Skills []string   `arg:"" predictor:"installed" help:"Names of installed skills."`
	Agent  []string   `short:"a" predictor:"agent" help:"Only in the folders these agents read; repeatable. Default: every supported agent, so that none sees the skill."`
	Scope  scopeFlags `embed:""`
	DryRun bool       `help:"Print what would change; change nothing."`
	Force  bool       `help:"Also switch a skill whose files you changed (they keep your changes)."`
	JSON   bool       `name:"json" help:"Print the outcomes as JSON."`
}

type disableCmd struct{ toggleFlags }

type enableCmd struct{ toggleFlags }

func (c *disableCmd) Help() string {
	return `Switches installed skills off without uninstalling them: each stays in its folders,
with its receipt and its skills.lock entry (which records disabled: true, so that a
teammate's restore installs it disabled too), but no agent lists it until
"agent-skills enable". The SKILL.md files of the skill (the file of a command) are renamed
with a ".disabled" suffix, as one atomic change, undone by enable. install, update and the
restore keep a disabled skill disabled; uninstall removes it; list shows it as disabled.

Examples:
  agent-skills disable java-performance
  agent-skills disable review-diff --global
  agent-skills enable java-performance`
}

func (c *enableCmd) Help() string {
	return `Makes skills that agent-skills disable switched off visible to their agents again,
exactly as they were installed (see agent-skills disable --help).

Examples:
  agent-skills enable java-performance
  agent-skills enable review-diff --global --dry-run`
}

func (c *disableCmd) Run(e *env) error { return c.run(e, true) }

func (c *enableCmd) Run(e *env) error { return c.run(e, false) }

// run disables or enables the skills for every supported agent unless
// --agent names some: a skill switched off must be off for every agent
// that could list it.
func (c *toggleFlags) run(e *env, disabled bool) error {
	agents := c.Agent
	if len(agents) == 0 {
		agents = []string{"all"}
	}
	s, err := skillset.Open(e.ctx, e.ws, skillset.Options{Scope: c.Scope.request(), Agents: agents,
		Generator: generator(), Fault: e.faultHook()})
	if err != nil {
		return err
	}
	r := skillset.ToggleRequest{Names: c.Skills, Force: c.Force, DryRun: c.DryRun}
	var out *skillset.Outcome
	if disabled {
		out, err = s.Disable(e.ctx, r)
	} else {
		out, err = s.Enable(e.ctx, r)
	}
	e.Report(out, c.JSON)
	return err
}
