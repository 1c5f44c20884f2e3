package cli

import (
	"fmt"
	"maps"
	"slices"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/ui"
	"github.com/agent-skills/agent-skills/cli/internal/workspace"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/config"
	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/cli/internal/redact"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/resolve"
	"github.com/agent-skills/agent-skills/validate"
)

// pipeline holds what install, update and uninstall share: the scope, the
// agents, the registries and the project's lock.
type pipeline struct {
	e        *env
	cfg      *config.Config
	set      *registry.Set
	sc       workspace.Scope
	aenv     agents.Env
	adapters []agents.Adapter
	lock     *resolve.Lock // nil outside project scope or without a lock file
	json     bool          // --json: no progress display
	// prune removes, after an apply, the dependencies nothing requires any
	// more (update sets it: a new version may drop a dependency).
	prune bool
	// command, requested and flags are the command, the names the user
	// gave it and the flags that running it again needs, for the run
	// journal (see journal).
	command          string
	requested, flags []string
}

// newPipeline decides the scope, selects the agents and opens the
// registries and the lock.
func (e *env) newPipeline(f scopeFlags, agentNames []string) (*pipeline, error) {
	sc, err := e.ws.DecideScope(f.request())
	if err != nil {
		return nil, err
	}
	set, cfg, err := e.ws.Configured()
	if err != nil {
		return nil, err
	}
	aenv := e.ws.AgentEnv(cfg, sc.Root)
	adapters, _, err := e.ws.SelectAgents(e.ctx, cfg, agentNames, aenv)
	if err != nil {
		return nil, err
	}
	p := &pipeline{e: e, cfg: cfg, set: set, sc: sc, aenv: aenv, adapters: adapters}
	if p.lock, err = readLock(sc.LockPath()); err != nil {
		return nil, err
	}
	return p, nil
}

// want is one package to fetch: a resolved selection, or a lock entry.
type want struct {
	name, version, registry string
	role                    string
	integrity               string // expected, from the lock; "" when not locked
	deps                    map[string]string
	// keepRole keeps the role of an existing install's receipt: for a
	// restore, and for an installed skill that moves only because another
	// one needs it.
	keepRole bool
	// source, commit and subpath record a skill installed from a direct
	// source rather than a registry.
	source, ref, commit, subpath string
}

// wantsFromPlan turns a resolution into packages to fetch, carrying the
// locked integrity of every selection the lock pins at the same version.
func (p *pipeline) wantsFromPlan(plan *resolve.Plan) []want {
	out := make([]want, 0, len(plan.Skills))
	for _, s := range plan.Skills {
		w := want{name: s.Name, version: s.Version, registry: s.Registry, role: string(s.Role), deps: s.Dependencies}
		if p.lock != nil {
			if l, ok := p.lock.Skills[s.Name]; ok && l.Version == s.Version && l.Registry == s.Registry {
				w.integrity = l.Integrity
			}
		}
		out = append(out, w)
	}
	return out
}

// resolveKeeping resolves refs together with every other installed skill
// of the scope (as a root pinned at its installed version), so that a plan
// can never break what is already installed: a request that conflicts
// with an installed skill's dependencies is a conflict, not a silent
// breakage. moved names are resolved afresh (no pin). It returns the plan
// and the packages to fetch: any whose version or registry changes, and
// with keepNamed the named ones too (install reports them even unchanged).
func (p *pipeline) resolveKeeping(refs []resolve.Reference, moved map[string]bool, opts resolve.Options, keepNamed bool) (*resolve.Plan, []want, error) {
	installed, err := p.installedVersions()
	if err != nil {
		return nil, nil, err
	}
	named := map[string]bool{}
	for _, r := range refs {
		named[r.Name] = true
	}
	if opts.Pins == nil {
		opts.Pins = map[string]resolve.Pin{}
	}
	for n, pin := range installed {
		if !moved[n] {
			opts.Pins[n] = pin
		}
		if !named[n] && !opts.NoDeps {
			refs = append(refs, resolve.Reference{Name: n, Registry: pin.Registry})
		}
	}
	plan, err := resolve.Resolve(p.e.ctx, setSource{p.set}, refs, opts)
	if err != nil {
		return nil, nil, err
	}
	var wants []want
	for _, w := range p.wantsFromPlan(plan) {
		pin, ok := installed[w.name]
		if (keepNamed && named[w.name]) || !ok || pin.Version != w.version || pin.Registry != w.registry {
			if !named[w.name] && w.role == string(resolve.RoleRequested) {
				w.role = string(resolve.RoleDependency)
			}
			w.keepRole = ok && !named[w.name]
			wants = append(wants, w)
		}
	}
	return plan, wants, nil
}

// fetched is a verified payload in a temporary folder.
type fetched struct {
	want
	item install.Item
}

// fetch reads and verifies every wanted package into memory (a snapshot
// whose digest is computed over the very bytes that will be installed),
// checks the lock's integrity, and validates each package for the selected
// agents. Nothing outside the registries' caches is written.
func (p *pipeline) fetch(wants []want) ([]fetched, func(), error) {
	var out []fetched
	prog := p.e.Progress(p.json)
	defer prog.Done()
	vopts := validate.Options{OverrideKeys: workspace.OverrideKeys()}
	for i, w := range wants {
		prog.Step(i+1, len(wants), "fetching", w.name+"@"+w.version)
		reg, ok := p.set.Get(w.registry)
		if !ok {
			return nil, func() {}, &askerr.Error{Code: "ASK_REGISTRY_UNKNOWN",
				Message: fmt.Sprintf("%s@%s comes from registry %q, which is not configured", w.name, w.version, w.registry),
				Try:     []string{"agent-skills registry add " + w.registry + " <url>", "agent-skills update " + w.name + "   (to resolve it again)"}}
		}
		p.e.Verbose("fetching %s@%s from %s", w.name, w.version, w.registry)
		pkg, integrity, err := registry.Snapshot(p.e.ctx, reg, w.name, w.version)
		if err != nil {
			return nil, func() {}, err
		}
		if w.integrity != "" && !format.SameIntegrity(w.integrity, integrity) {
			return nil, func() {}, &askerr.Error{Code: "ASK_INTEGRITY_MISMATCH",
				Message: fmt.Sprintf("%s@%s does not match skills.lock", w.name, w.version),
				Detail:  []string{"expected (skills.lock): " + w.integrity, "actual   (" + w.registry + "):  " + integrity},
				Try:     []string{"nothing was installed; ask the registry's maintainers why the published bytes changed", "agent-skills update " + w.name + "   (only if you trust the new bytes)"}}
		}
		resolved, err := reg.Resolved(p.e.ctx, w.name, w.version)
		if err != nil {
			return nil, func() {}, err
		}
		// An HTTP registry's tarball URL inherits the user information of
		// an index URL written with a password; skills.lock and the
		// receipts record where the payload came from, never the password.
		resolved = redact.Strip(resolved)
		vopts.DirName = w.name
		diags := validate.Package(pkg, vopts)
		for _, a := range p.adapters {
			diags = append(diags, a.Validate(pkg)...)
		}
		if diags.HasErrors() {
			for _, d := range diags {
				if d.Severity == format.SeverityError {
					fmt.Fprintf(p.e.Out, "%s@%s/%s: %s %s %s\n", ui.Field(w.name), ui.Field(w.version), location(d), d.Severity, ui.Field(d.Code), ui.Field(d.Message))
				}
			}
			return nil, func() {}, &askerr.Error{Code: "ASK_VALIDATION_FAILED",
				Message: fmt.Sprintf("%s@%s from %s is not a valid package; nothing was installed", w.name, w.version, w.registry),
				Try:     []string{"report the problems above to the skill's maintainers", "install another version: agent-skills info " + w.name}}
		}
		out = append(out, fetched{want: w, item: install.Item{Pkg: pkg, Registry: reg.Name(), KeepRole: w.keepRole, Dependencies: w.deps,
			Resolved: resolved, Integrity: integrity, Role: w.role}})
	}
	return out, func() {}, nil
}

// apply installs the fetched packages under the run lock and records them
// in skills.lock (project scope). The roots change and the lock follows
// them under a run journal (see journalled), so that a run killed at any
// point leaves what the next run records; the packages go in dependencies
// first, so that a run cut short leaves no installed skill without what
// it needs.
func (p *pipeline) apply(fs []fetched, plan *resolve.Plan, force, dryRun bool) (*install.Report, error) {
	order := dependenciesFirst(fs)
	items := make([]install.Item, len(order))
	for i, k := range order {
		items[i] = fs[k].item
	}
	opts := install.Options{Scope: p.sc.Kind, Env: p.aenv, Agents: p.adapters, Force: force, DryRun: dryRun,
		Hook: p.e.faultHook()}
	var rep *install.Report
	put := func() error {
		var err error
		rep, err = install.Install(p.e.ctx, items, opts)
		if rep != nil {
			sortResults(rep, fs)
		}
		return err
	}
	if dryRun {
		if err := put(); err != nil || !p.prune {
			return rep, err
		}
		return rep, p.pruneOrphans(rep, plan, true)
	}
	err := p.underRunLock(func() error {
		if err := p.journalled(p.installJournal(fs, plan), put); err != nil {
			return err
		}
		if p.prune {
			return p.pruneOrphans(rep, plan, false)
		}
		return nil
	})
	return rep, err
}

// underRunLock runs fn holding the run lock of the scope, after finishing
// what an interrupted run left and reading skills.lock afresh.
func (p *pipeline) underRunLock(fn func() error) error {
	return install.WithLock(p.e.ctx, p.e.runLockPath(p.sc), func() error {
		if _, err := p.finishInterrupted(false); err != nil {
			return err
		}
		var err error
		if p.lock, err = readLock(p.sc.LockPath()); err != nil {
			return err
		}
		return fn()
	})
}

// installJournal is the journal of an install: for every fetched package
// its entry before and the entry it gets once in place, and for every
// locked skill that stays put the new versions of its dependencies. It
// is nil outside project scope.
func (p *pipeline) installJournal(fs []fetched, plan *resolve.Plan) *journal {
	if p.sc.Kind != agents.ScopeProject {
		return nil
	}
	j := newJournal(p.command, p.requested, p.flags, p.sc, p.adapters)
	l := p.lock
	if l == nil {
		l = &resolve.Lock{Skills: map[string]resolve.LockedSkill{}}
	}
	for _, f := range fs {
		after := &lockEntry{Version: f.version, Registry: f.item.Registry, Resolved: f.item.Resolved,
			Integrity: f.item.Integrity, Dependencies: map[string]string{},
			Source: f.source, Ref: f.ref, Commit: f.commit, Subpath: f.subpath}
		for k, v := range f.deps {
			after.Dependencies[k] = v
		}
		js := journalSkill{Change: changeInstall, After: after}
		if old, ok := l.Skills[f.name]; ok {
			js.Before = entryOf(old)
			// The same bytes installed earlier for other agents are still there.
			if old.Version == f.version && format.SameIntegrity(old.Integrity, f.item.Integrity) {
				after.Agents = slices.Clone(old.Agents)
			}
		}
		j.Skills[f.name] = js
	}
	// Skills that stay put may now depend on versions that move.
	if plan != nil {
		for _, sel := range plan.Skills {
			old, ok := l.Skills[sel.Name]
			if _, fetched := j.Skills[sel.Name]; fetched || !ok || old.Version != sel.Version {
				continue
			}
			deps := map[string]string{}
			for k, v := range sel.Dependencies {
				deps[k] = v
			}
			if maps.Equal(deps, old.Dependencies) {
				continue
			}
			after := entryOf(old)
			after.Dependencies = deps
			j.Skills[sel.Name] = journalSkill{Change: changeInstall, Before: entryOf(old), After: after}
		}
	}
	return j
}

// removalJournal is the journal of removing names: each one's entry
// before. It is nil outside project scope.
func (p *pipeline) removalJournal(names []string) *journal {
	if p.sc.Kind != agents.ScopeProject {
		return nil
	}
	j := newJournal(p.command, p.requested, p.flags, p.sc, p.adapters)
	for _, n := range names {
		js := journalSkill{Change: changeRemove}
		if p.lock != nil {
			if old, ok := p.lock.Skills[n]; ok {
				js.Before = entryOf(old)
			}
		}
		j.Skills[n] = js
	}
	return j
}

// dependenciesFirst returns the order in which to install fs: every
// package after the fetched packages it depends on, otherwise as given.
func dependenciesFirst(fs []fetched) []int {
	pos := map[string]int{}
	for i, f := range fs {
		pos[f.name] = i
	}
	var order []int
	state := make([]int, len(fs)) // 0 new, 1 visiting, 2 placed
	var visit func(i int)
	visit = func(i int) {
		if state[i] != 0 {
			return // placed, or a cycle, which resolution refuses anyway
		}
		state[i] = 1
		for _, d := range slices.Sorted(maps.Keys(fs[i].deps)) {
			if k, ok := pos[d]; ok {
				visit(k)
			}
		}
		state[i] = 2
		order = append(order, i)
	}
	for i := range fs {
		visit(i)
	}
	return order
}

// sortResults puts a report back in the order of fs, which is the order
// users read it in, whatever order the packages were installed in.
func sortResults(rep *install.Report, fs []fetched) {
	pos := map[string]int{}
	for i, f := range fs {
		if _, ok := pos[f.name]; !ok {
			pos[f.name] = i
		}
	}
	slices.SortStableFunc(rep.Results, func(a, b install.Result) int { return pos[a.Name] - pos[b.Name] })
}

// printReport renders an install or uninstall report.
func (p *pipeline) printReport(rep *install.Report) {
	e := p.e
	verb := map[install.Outcome]string{}
	if rep.DryRun {
		verb = map[install.Outcome]string{install.OutcomeInstalled: "would install", install.OutcomeUpgraded: "would upgrade",
			install.OutcomeDowngraded: "would downgrade", install.OutcomeReinstalled: "would reinstall",
			install.OutcomeRemoved: "would remove", install.OutcomePreserved: "would remove"}
	}
	for _, r := range rep.Results {
		word := string(r.Outcome)
		if v, ok := verb[r.Outcome]; ok {
			word = v
		}
		switch r.Outcome {
		case install.OutcomeSkipped:
			fmt.Fprintf(e.Out, "%s %s for %s: %s\n", e.Style.Dim("skipped"), ui.Field(r.Name), ui.Field(r.Agent), ui.Field(r.Reason))
		case install.OutcomeRefused:
			fmt.Fprintf(e.Out, "%s %s in %s: %s\n", e.Style.Red("refused"), ui.Field(r.Name), ui.Field(e.Rel(r.Root)), ui.Field(r.Reason))
			for _, m := range r.Modified {
				fmt.Fprintf(e.Out, "    %s\n", ui.Field(m))
			}
		default:
			ver := ui.Field(r.Version)
			if r.Previous != "" && r.Previous != r.Version {
				ver = ui.Field(r.Previous) + " → " + ver
			}
			fmt.Fprintf(e.Out, "%s %s %s → %s (%s)\n", e.Style.Green(word), ui.Field(r.Name), ver, ui.Field(e.Rel(r.Dest)), ui.Fields(r.Readers, ", "))
			if len(r.Preserved) > 0 {
				fmt.Fprintf(e.Out, "    kept your files: %s\n", ui.Fields(r.Preserved, ", "))
			}
		}
	}
	for _, d := range rep.Duplicates {
		e.Warn("%s sees %s through %d roots (%s): no choice of folders avoids it for this set of agents",
			ui.Field(d.Agent), ui.Field(d.Name), len(d.Roots), ui.Fields(d.Roots, ", "))
	}
}

// resolutionWarnings prints the resolver's warnings.
func (e *env) resolutionWarnings(plan *resolve.Plan) {
	for _, w := range plan.Warnings {
		e.Warn("%s %s", ui.Field(w.Code), ui.Field(w.Message))
	}
}

// isNotInstalled reports whether err says a skill is not installed.
func isNotInstalled(err error) bool { return askerr.Is(err, "ASK_NOT_INSTALLED") }
