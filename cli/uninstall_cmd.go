package cli

import "github.com/agent-skills/agent-skills/cli/internal/skillset"

type uninstallCmd struct {
	Skills []string   `arg:"" predictor:"installed" help:"Names of installed skills."`
	Agent  []string   `short:"a" predictor:"agent" help:"Agent to remove them for; repeatable. Default: every detected agent."`
	Scope  scopeFlags `embed:""`
	Dir    string     `type:"path" help:"Remove them from this install --dir folder."`
	DryRun bool       `help:"Print what would be removed; remove nothing."`
	Force  bool       `help:"Also remove files you changed, and skills agent-skills did not install."`
	JSON   bool       `name:"json" help:"Print the outcomes as JSON."`
}

func (c *uninstallCmd) Help() string {
	return `Removes exactly the files the install recorded in its receipt. A file you changed
stops the removal (unless --force); files you added inside the skill's folder are kept
and listed. In a project, the skill's entry leaves skills.lock, also when it is locked but
not installed here (a fresh clone); an uninstall that was killed half-way finishes when
run again. A skill another installed
skill requires is refused (name both), and skills that were installed only as
dependencies and that nothing requires any more are removed too.

Examples:
  agent-skills uninstall java-performance
  agent-skills uninstall review-diff --global --dry-run
  agent-skills uninstall java-basics --dir ~/shared-skills`
}

func (c *uninstallCmd) Run(e *env) error {
	s, err := skillset.Open(e.ctx, e.ws, skillset.Options{Scope: c.Scope.request(), Agents: c.Agent,
		Generator: generator(), Fault: e.faultHook(), Dir: c.Dir})
	if err != nil {
		return err
	}
	out, err := s.Uninstall(e.ctx, skillset.UninstallRequest{Names: c.Skills, Force: c.Force, DryRun: c.DryRun})
	e.Report(out, c.JSON)
	return err
}
