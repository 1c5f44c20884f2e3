package cli

import (
	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/install"
)

type uninstallCmd struct {
	Skills []string   `arg:"" help:"Names of installed skills."`
	Agent  []string   `short:"a" help:"Agent to remove them for; repeatable. Default: every detected agent."`
	Scope  scopeFlags `embed:""`
	DryRun bool       `help:"Print what would be removed; remove nothing."`
	Force  bool       `help:"Also remove files you changed, and skills agent-skills did not install."`
	JSON   bool       `name:"json" help:"Print the outcomes as JSON."`
}

func (c *uninstallCmd) Help() string {
	return `Removes exactly the files the install recorded in its receipt. A file you changed
stops the removal (unless --force); files you added inside the skill's folder are kept
and listed. In a project, the skill's entry leaves skills.lock.

Examples:
  agent-skills uninstall java-performance
  agent-skills uninstall review-diff --global --dry-run`
}

func (c *uninstallCmd) Run(e *env) error {
	p, err := e.newPipeline(c.Scope, c.Agent)
	if err != nil {
		return err
	}
	opts := install.Options{Scope: p.sc.scope, Env: p.aenv, Agents: p.adapters, Force: c.Force, DryRun: c.DryRun}
	var rep *install.Report
	run := func() error {
		var err error
		rep, err = install.Uninstall(e.ctx, c.Skills, opts)
		if err != nil || c.DryRun || p.sc.scope != agents.ScopeProject {
			return err
		}
		return p.forgetLocked(rep)
	}
	if c.DryRun {
		err = run()
	} else {
		err = install.WithLock(e.ctx, e.runLockPath(p.sc), run)
	}
	if rep != nil {
		if c.JSON {
			printJSONReport(e, p, nil, rep)
		} else {
			p.printReport(rep)
		}
	}
	return err
}

// forgetLocked removes from skills.lock every skill the report removed.
func (p *pipeline) forgetLocked(rep *install.Report) error {
	l, err := readLock(p.sc.lockPath())
	if err != nil || l == nil {
		return err
	}
	changed := false
	for _, r := range rep.Results {
		if r.Outcome == install.OutcomeRemoved || r.Outcome == install.OutcomePreserved {
			if _, ok := l.Skills[r.Name]; ok {
				delete(l.Skills, r.Name)
				changed = true
			}
		}
	}
	if !changed {
		return nil
	}
	return writeLock(p.sc.lockPath(), l)
}
