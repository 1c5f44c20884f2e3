package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"

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
	KeepLocal    bool       `help:"Keep your versions of the files you changed in installed skills; take everything else from the new version."`
	JSON         bool       `name:"json" help:"Print the plan and outcomes as JSON."`
}

func (c *updateCmd) Help() string {
	return `Moves installed skills to the newest version within ^installed (--major: the newest
version), from the registry they were installed from, and updates skills.lock. Other
locked skills keep their versions unless a dependency requires a move. A skill installed
from a source moves to the newest commit of the branch it was installed from, or to
the newest semver tag when it was installed from a tag; what changed is shown first.
An installed skill you edited is not replaced unless --force (take the new version) or
--keep-local (keep your edited files, take the rest). Dependencies that the new versions no
longer need, installed only as dependencies and unchanged, are removed.

Examples:
  agent-skills update
  agent-skills update java-performance --major
  agent-skills update java-performance --with-suggests --dry-run
  agent-skills update pdf-tools --keep-local`
}

func (c *updateCmd) Run(e *env) error {
	if c.WithSuggests && len(c.Skills) == 0 {
		return askerr.Usage("--with-suggests needs skill names: suggestions are added only for skills you name")
	}
	if c.KeepLocal && c.Force {
		return askerr.Usage("--keep-local and --force contradict each other: keep your edits, or replace them")
	}
	p, err := e.newPipeline(c.Scope, c.Agent)
	if err != nil {
		return err
	}
	p.json = c.JSON
	p.prune = true
	p.command, p.requested = "update", c.Skills
	for flag, on := range map[string]bool{"--major": c.Major, "--with-suggests": c.WithSuggests, "--force": c.Force, "--keep-local": c.KeepLocal} {
		if on {
			p.flags = append(p.flags, flag)
		}
	}
	slices.Sort(p.flags)
	if err := p.recoverFirst(c.DryRun); err != nil {
		return err
	}
	installed, err := p.installedVersions()
	if err != nil {
		return err
	}
	fromSource := func(n string) bool {
		if p.lock == nil {
			return false
		}
		l, ok := p.lock.Skills[n]
		return ok && l.Source != ""
	}
	names := c.Skills
	if len(names) == 0 {
		for n := range installed {
			names = append(names, n)
		}
		if p.lock != nil {
			for n, l := range p.lock.Skills {
				if l.Source != "" {
					names = append(names, n)
				}
			}
		}
		sortStrings(names)
		if len(names) == 0 {
			e.Info("nothing to update: no skills installed in %s scope", p.sc.Kind)
			return nil
		}
	}
	moved := map[string]bool{}
	var refs []resolve.Reference
	var srcNames []string
	for _, n := range names {
		ref, err := resolve.ParseReference(n)
		if err != nil {
			return err
		}
		if fromSource(ref.Name) {
			srcNames = append(srcNames, ref.Name)
			continue
		}
		cur, ok := installed[ref.Name]
		if !ok {
			return &askerr.Error{Code: "ASK_NOT_INSTALLED", Message: fmt.Sprintf("%s is not installed in %s scope", ref.Name, p.sc.Kind),
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
	var plan *resolve.Plan
	var fs []fetched
	if len(refs) > 0 {
		var wants []want
		plan, wants, err = p.resolveKeeping(refs, moved, resolve.Options{WithSuggests: c.WithSuggests}, false)
		if err != nil {
			return err
		}
		e.resolutionWarnings(plan)
		if fs, _, err = p.fetch(wants); err != nil {
			return err
		}
	}
	if len(srcNames) > 0 {
		tmp, err := os.MkdirTemp(ensureDir(filepath.Join(e.ws.CacheDir(), "staging")), "update-")
		if err != nil {
			return &askerr.Error{Code: "ASK_IO", Message: "cannot create a staging folder", Err: err}
		}
		defer os.RemoveAll(tmp)
		moredFetched, err := p.updateSources(srcNames, c.Major, tmp)
		if err != nil {
			return err
		}
		fs = append(fs, moredFetched...)
	}
	if len(fs) == 0 {
		e.Info("everything is up to date")
		return p.pruneOnly(c.DryRun, c.JSON)
	}
	force := c.Force
	if c.KeepLocal {
		if fs, err = p.keepLocal(fs); err != nil {
			return err
		}
		force = true
	}
	rep, err := p.apply(fs, plan, force, c.DryRun)
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
	if p.sc.Kind == agents.ScopeProject && p.lock != nil {
		for n, s := range p.lock.Skills {
			if s.Source == "" {
				out[n] = resolve.Pin{Version: s.Version, Registry: s.Registry}
			}
		}
		return out, nil
	}
	found, err := install.Scan(p.e.ctx, install.Options{Scope: p.sc.Kind, Env: p.aenv, Agents: p.adapters})
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

// pruneOnly removes the dependencies nothing requires when no skill moves:
// an update cut short after its installs has them left.
func (p *pipeline) pruneOnly(dryRun, asJSON bool) error {
	rep := &install.Report{DryRun: dryRun, Results: []install.Result{}}
	var err error
	if dryRun {
		err = p.pruneOrphans(rep, nil, true)
	} else {
		err = p.underRunLock(func() error { return p.pruneOrphans(rep, nil, false) })
	}
	if len(rep.Results) > 0 {
		if asJSON {
			printJSONReport(p.e, p, nil, rep)
		} else {
			p.printReport(rep)
		}
	}
	return err
}
