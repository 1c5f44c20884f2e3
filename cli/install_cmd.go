package cli

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/resolve"
)

type installCmd struct {
	Skills         []string   `arg:"" optional:"" help:"[registry:]name[@version or range], or a source: owner/repo[/path][@skill][#ref], a git URL, a folder, an archive. With none, in a project, install exactly what skills.lock records."`
	Agent          []string   `short:"a" help:"Agent to install for (claude, codex, copilot, gemini, cursor, …, or all); repeatable. Default: every detected agent."`
	Scope          scopeFlags `embed:""`
	Registry       string     `help:"Resolve unqualified names in this registry only."`
	DryRun         bool       `help:"Print the full plan; write nothing."`
	Force          bool       `help:"Overwrite an install that was modified or not made by agent-skills."`
	NoDeps         bool       `help:"Install only the named skills, not their dependencies."`
	WithSuggests   bool       `help:"Also install the direct suggestions of the named skills (see docs/install-suggests-option.md)."`
	FrozenLockfile bool       `help:"Fail instead of changing skills.lock."`
	Skill          []string   `help:"From a source offering several skills: install this one (repeatable; * for all)."`
	List           bool       `help:"List the skills a source offers; install nothing."`
	MaxSkills      int        `default:"1000" help:"Read at most this many skills from one source; a source offering more is refused, never cut short."`
	JSON           bool       `name:"json" help:"Print the plan and outcomes as JSON."`
}

func (c *installCmd) Help() string {
	return `Resolves the skills and their dependencies, fetches and verifies every package, and
puts each where the selected agents read it — once per folder, so that no agent sees a
skill twice — atomically, with a receipt of every file written. In a project the result
is pinned in skills.lock, and "agent-skills install" with no names restores exactly
what the lock records. Files you added inside an installed skill survive upgrades.

Examples:
  agent-skills install java-performance
  agent-skills install java-basics@^1.2 --agent claude --agent codex --project
  agent-skills install team:review-diff --global
  agent-skills install                          # restore from skills.lock
  agent-skills install java-performance --with-suggests --dry-run
  agent-skills install owner/repo --skill pdf-tools      # straight from a git repository
  agent-skills install https://github.com/o/r/tree/v1.2.0/skills/x
  agent-skills install ./my-skill                        # a local folder (or .zip/.tar.gz)
  agent-skills install owner/repo --list                 # what a source offers

Sources are pinned in skills.lock by commit and verified by digest; see docs/sources.md.`
}

func (c *installCmd) Run(e *env) error {
	if c.WithSuggests && c.NoDeps {
		return askerr.Usage("--with-suggests cannot be combined with --no-deps: suggestions are installed with their dependencies")
	}
	if c.MaxSkills < 0 {
		return askerr.Usage("--max-skills must not be negative")
	}
	srcRefs, regArgs, err := e.ws.SplitSources(c.Skills)
	if err != nil {
		return err
	}
	if c.List {
		if len(srcRefs) != 1 || len(regArgs) != 0 {
			return askerr.Usage("--list takes exactly one source (owner/repo, a git URL, a folder or an archive)")
		}
		return e.listSource(srcRefs[0], c.MaxSkills)
	}
	if len(c.Skill) > 0 && len(srcRefs) == 0 {
		return askerr.Usage("--skill picks skills from a source; name one (owner/repo, a git URL, a folder or an archive)")
	}
	p, err := e.newPipeline(c.Scope, c.Agent)
	if err != nil {
		return err
	}
	p.json = c.JSON
	p.command, p.requested, p.flags = "install", c.Skills, c.rerunFlags()
	if err := p.recoverFirst(c.DryRun); err != nil {
		return err
	}
	var fs []fetched
	var plan *resolve.Plan
	if len(c.Skills) == 0 {
		if p.sc.Kind != agents.ScopeProject || p.lock == nil {
			return askerr.Usage("name the skills to install (restoring with no names needs a project with a skills.lock)")
		}
		if c.WithSuggests {
			return askerr.Usage("--with-suggests needs skill names")
		}
		fromSources := map[string]resolve.LockedSkill{}
		for n, l := range p.lock.Skills {
			if l.Source != "" {
				fromSources[n] = l
			}
		}
		srcFetched, cleanup, err := p.restoreSources(fromSources)
		defer cleanup()
		if err != nil {
			return err
		}
		roles, err := p.installedRoles()
		if err != nil {
			return err
		}
		regFetched, _, err := p.fetch(restoreWants(p.lock, roles))
		if err != nil {
			return err
		}
		fs = append(srcFetched, regFetched...)
	} else {
		srcFetched, cleanup, err := p.fetchSources(srcRefs, c.Skill, c.MaxSkills)
		defer cleanup()
		if err != nil {
			return err
		}
		refs, err := c.references(regArgs)
		if err != nil {
			return err
		}
		// A source package's own dependencies resolve in the registries.
		for _, f := range srcFetched {
			if m := f.item.Pkg.Manifest; m != nil && !c.NoDeps {
				for _, d := range m.Dependencies {
					refs = append(refs, resolve.Reference{Name: d.Name, Range: d.Version})
				}
			}
		}
		var wants []want
		if len(refs) > 0 {
			opts := resolve.Options{WithSuggests: c.WithSuggests, NoDeps: c.NoDeps}
			plan, wants, err = p.resolveKeeping(refs, nil, opts, true)
			if err != nil {
				return err
			}
			e.resolutionWarnings(plan)
		}
		if c.FrozenLockfile {
			if err := frozenCheck(p, wants, srcFetched); err != nil {
				return err
			}
		}
		regFetched, _, err := p.fetch(wants)
		if err != nil {
			return err
		}
		fs = append(srcFetched, regFetched...)
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

// rerunFlags are the flags that running the same install again needs.
func (c *installCmd) rerunFlags() []string {
	var out []string
	for _, s := range c.Skill {
		out = append(out, "--skill", s)
	}
	if c.Registry != "" {
		out = append(out, "--registry", c.Registry)
	}
	for _, f := range []struct {
		name string
		on   bool
	}{{"--force", c.Force}, {"--no-deps", c.NoDeps}, {"--with-suggests", c.WithSuggests}} {
		if f.on {
			out = append(out, f.name)
		}
	}
	return out
}

// references parses the skill arguments; --registry qualifies bare names.
func (c *installCmd) references(args []string) ([]resolve.Reference, error) {
	var refs []resolve.Reference
	for _, s := range args {
		r, err := resolve.ParseReference(s)
		if err != nil {
			return nil, err
		}
		if r.Registry == "" {
			r.Registry = c.Registry
		}
		refs = append(refs, r)
	}
	return refs, nil
}

// installedRoles returns the role each skill installed in the scope has
// for the selected agents: requested when any install of it has that role.
func (p *pipeline) installedRoles() (map[string]string, error) {
	found, err := install.Scan(p.e.ctx, install.Options{Scope: p.sc.Kind, Env: p.aenv, Agents: p.adapters})
	if err != nil {
		return nil, err
	}
	roles := map[string]string{}
	for _, in := range found {
		if in.Role != "" && roles[in.Name] != string(resolve.RoleRequested) {
			roles[in.Name] = in.Role
		}
	}
	return roles, nil
}

// restoreWants lists exactly what the lock records. The lock records no
// roles: a skill already installed for some agent keeps its role (roles)
// for the others too — a dependency restored for a second agent stays a
// dependency, which uninstall may prune — and is requested otherwise.
func restoreWants(l *resolve.Lock, roles map[string]string) []want {
	names := make([]string, 0, len(l.Skills))
	for n := range l.Skills {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]want, 0, len(names))
	for _, n := range names {
		s := l.Skills[n]
		if s.Source != "" {
			continue // restored from its source, not a registry
		}
		role := roles[n]
		if role == "" {
			role = string(resolve.RoleRequested)
		}
		out = append(out, want{name: n, version: s.Version, registry: s.Registry, role: role,
			integrity: s.Integrity, deps: s.Dependencies, keepRole: true})
	}
	return out
}

// frozenCheck refuses a plan that would change skills.lock.
func frozenCheck(p *pipeline, wants []want, fromSources []fetched) error {
	var diffs []string
	for _, f := range fromSources {
		var l resolve.LockedSkill
		ok := false
		if p.lock != nil {
			l, ok = p.lock.Skills[f.name]
		}
		if !ok || l.Source != f.source || l.Commit != f.commit || l.Integrity != f.integrity {
			diffs = append(diffs, fmt.Sprintf("%s from %s at %s is not what skills.lock records", f.name, f.source, f.commit))
		}
	}
	for _, w := range wants {
		var l resolve.LockedSkill
		ok := false
		if p.lock != nil {
			l, ok = p.lock.Skills[w.name]
		}
		switch {
		case !ok:
			diffs = append(diffs, fmt.Sprintf("%s@%s is not in skills.lock", w.name, w.version))
		case l.Version != w.version || l.Registry != w.registry:
			diffs = append(diffs, fmt.Sprintf("%s: skills.lock has %s@%s from %s, the plan needs %s from %s", w.name, w.name, l.Version, l.Registry, w.version, w.registry))
		}
	}
	if len(diffs) == 0 {
		return nil
	}
	return &askerr.Error{Code: "ASK_LOCK_FROZEN", Message: "skills.lock would change, and --frozen-lockfile forbids it",
		Detail: diffs,
		Try:    []string{"run agent-skills install without --frozen-lockfile and commit the updated skills.lock"}}
}

// printJSONReport prints the plan and the outcomes.
func printJSONReport(e *env, p *pipeline, plan *resolve.Plan, rep *install.Report) error {
	out := struct {
		Scope    string              `json:"scope"`
		Project  string              `json:"project,omitempty"`
		Agents   []string            `json:"agents"`
		DryRun   bool                `json:"dryRun"`
		Plan     []resolve.Selection `json:"plan,omitempty"`
		Warnings []resolve.Warning   `json:"warnings,omitempty"`
		Results  []install.Result    `json:"results"`
	}{Scope: string(p.sc.Kind), Project: p.sc.Root, DryRun: rep.DryRun, Results: rep.Results}
	for _, a := range p.adapters {
		out.Agents = append(out.Agents, a.ID())
	}
	if plan != nil {
		out.Plan, out.Warnings = plan.Skills, plan.Warnings
	}
	if out.Results == nil {
		out.Results = []install.Result{}
	}
	return e.JSON(out)
}

// agentList renders agent ids for messages.
func agentList(as []agents.Adapter) string {
	ids := make([]string, len(as))
	for i, a := range as {
		ids[i] = a.ID()
	}
	slices.Sort(ids)
	return strings.Join(ids, ", ")
}
