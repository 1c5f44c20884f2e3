package cli

import (
	"fmt"
	"sort"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/resolve"
)

type updateCmd struct {
	Skills       []string   `arg:"" optional:"" help:"Installed skills to update; none: every installed skill."`
	Agent        []string   `short:"a" help:"Agent to update for; repeatable. Default: every detected agent."`
	Scope        scopeFlags `embed:""`
	Major        bool       `help:"Allow new major versions (default: stay within ^installed)."`
	WithSuggests bool       `help:"Also install the direct suggestions of the named skills."`
	DryRun       bool       `help:"Print the plan; write nothing."`
	Force        bool       `help:"Overwrite installs that were modified."`
	JSON         bool       `name:"json" help:"Print the plan and outcomes as JSON."`
}

func (c *updateCmd) Help() string {
	return `Moves installed skills to the newest version within ^installed (--major: the newest
version), from the registry they were installed from, and updates skills.lock. Other
locked skills keep their versions unless a dependency requires a move.

Examples:
  agent-skills update
  agent-skills update java-performance --major
  agent-skills update java-performance --with-suggests --dry-run`
}

func (c *updateCmd) Run(e *env) error {
	if c.WithSuggests && len(c.Skills) == 0 {
		return usageError("--with-suggests needs skill names: suggestions are added only for skills you name")
	}
	p, err := e.newPipeline(c.Scope, c.Agent)
	if err != nil {
		return err
	}
	p.json = c.JSON
	installed, err := p.installedVersions()
	if err != nil {
		return err
	}
	names := c.Skills
	if len(names) == 0 {
		for n := range installed {
			names = append(names, n)
		}
		sort.Strings(names)
		if len(names) == 0 {
			e.info("nothing to update: no skills installed in %s scope", p.sc.scope)
			return nil
		}
	}
	moved := map[string]bool{}
	var refs []resolve.Reference
	for _, n := range names {
		ref, err := resolve.ParseReference(n)
		if err != nil {
			return err
		}
		cur, ok := installed[ref.Name]
		if !ok {
			return &Error{Code: "ASK_NOT_INSTALLED", Summary: fmt.Sprintf("%s is not installed in %s scope", ref.Name, p.sc.scope),
				Try: []string{"agent-skills list", "agent-skills install " + ref.Name}}
		}
		if ref.Registry == "" {
			ref.Registry = cur.Registry
		}
		if ref.Range == "" && !c.Major {
			ref.Range = "^" + cur.Version
		}
		moved[ref.Name] = true
		refs = append(refs, ref)
	}
	plan, wants, err := p.resolveKeeping(refs, moved, resolve.Options{WithSuggests: c.WithSuggests}, false)
	if err != nil {
		return err
	}
	e.resolutionWarnings(plan)
	if len(wants) == 0 {
		e.info("everything is up to date")
		return nil
	}
	fs, cleanup, err := p.fetch(wants)
	defer cleanup()
	if err != nil {
		return err
	}
	rep, err := p.apply(fs, plan, c.Force, c.DryRun)
	if rep != nil {
		if c.JSON {
			printJSONReport(e, p, plan, rep)
		} else {
			p.printReport(rep)
		}
	}
	return err
}

// installedVersions returns the installed version and registry of every
// skill in the scope: from skills.lock in a project, else from receipts.
func (p *pipeline) installedVersions() (map[string]resolve.Pin, error) {
	out := map[string]resolve.Pin{}
	if p.sc.scope == agents.ScopeProject && p.lock != nil {
		for n, s := range p.lock.Skills {
			if s.Source == "" {
				out[n] = resolve.Pin{Version: s.Version, Registry: s.Registry}
			}
		}
		return out, nil
	}
	found, err := install.Scan(p.e.ctx, install.Options{Scope: p.sc.scope, Env: p.aenv, Agents: p.adapters})
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
