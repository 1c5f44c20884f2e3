package skillset

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/source"
	"github.com/agent-skills/agent-skills/resolve"
)

// InstallRequest is what `agent-skills install <names…>` asks for.
type InstallRequest struct {
	// Args are the skills to install: [registry:]name[@version or range]
	// references and direct sources (owner/repo, git URLs, folders,
	// archives), in any mix.
	Args []string
	// Skills pick skills from a source offering several ("*" for all).
	Skills []string
	// MaxSkills caps how many skills a source may offer (0: the default).
	MaxSkills int
	// Registry resolves unqualified names in this registry only.
	Registry string
	// NoDeps installs only the named skills; WithSuggests also their
	// direct suggestions.
	NoDeps, WithSuggests bool
	// Force overwrites an install that was modified or not made by
	// agent-skills, and takes a skill from another origin than the one it
	// is installed from (see origin.go).
	Force bool
	// Strict validates at validate's default gate and installs all or
	// nothing: a skill that "*" chose and that fails refuses the run
	// (install --strict). Without it, packages pass the install gate and
	// the skills "*" chose that fail it are skipped, each with its reasons.
	Strict bool
	// DryRun plans and writes nothing.
	DryRun bool
	// FrozenLockfile fails instead of changing skills.lock.
	FrozenLockfile bool
	// Pick asks which of several skills a source offers to install; nil
	// when no one can be asked.
	Pick func([]source.Found) ([]source.Found, error)
	// Progress shows the fetch; nil shows nothing.
	Progress Progress
}

// rerun is the flags of r that running the command again needs.
func (r InstallRequest) rerun() []string {
	var out []string
	for _, s := range r.Skills {
		out = append(out, "--skill", s)
	}
	if r.Registry != "" {
		out = append(out, "--registry", r.Registry)
	}
	for _, f := range []struct {
		name string
		on   bool
	}{{"--force", r.Force}, {"--no-deps", r.NoDeps}, {"--with-suggests", r.WithSuggests}, {"--strict", r.Strict}} {
		if f.on {
			out = append(out, f.name)
		}
	}
	return out
}

// Install resolves the named skills and their dependencies (with every
// installed skill of the scope pinned, so that nothing installed breaks),
// fetches and verifies every package, and puts each where the selected
// agents read it; in a project skills.lock records the result.
//
// Packages pass the install gate (validate.GateInstall and the selected
// agents' checks), or validate's default gate with r.Strict; what they
// break without failing it is in Outcome.ValidationWarnings. Skills named
// explicitly, and registry packages, are all or nothing. Of the skills
// that --skill '*' chose, those that fail the gate are skipped
// (Outcome.Skipped, with every reason) and the others installed, in one
// transaction; Outcome.Summary counts both. So are, unless r.Force, those
// whose name is installed from another origin (ASK_ORIGIN_CONFLICT). A run
// in which "*" chose skills and none passed fails with
// ASK_VALIDATION_FAILED.
func (s *Session) Install(ctx context.Context, r InstallRequest) (*Outcome, error) {
	if len(r.Args) == 0 {
		return nil, askerr.Usage("name the skills to install (restoring with no names is Restore)")
	}
	if r.WithSuggests && r.NoDeps {
		return nil, askerr.Usage("--with-suggests cannot be combined with --no-deps: suggestions are installed with their dependencies")
	}
	if r.MaxSkills < 0 {
		return nil, askerr.Usage("--max-skills must not be negative")
	}
	if err := s.policyReady(); err != nil {
		return nil, err
	}
	srcRefs, regArgs, err := s.ws.SplitSources(r.Args)
	if err != nil {
		return nil, err
	}
	if len(r.Skills) > 0 && len(srcRefs) == 0 {
		return nil, askerr.Usage("--skill picks skills from a source; name one (owner/repo, a git URL, a folder or an archive)")
	}
	risk, err := s.scanGate()
	if err != nil {
		return nil, err
	}
	p := s.begin(ctx, "install", r.Args, r.rerun(), r.DryRun, r.Progress)
	p.pick, p.strict, p.risk = r.Pick, r.Strict, risk
	if err := p.recoverFirst(r.DryRun); err != nil {
		return p.out, err
	}
	srcFetched, cleanup, err := p.fetchSources(srcRefs, r.Skills, r.MaxSkills)
	defer cleanup()
	if err != nil {
		return p.out, err
	}
	wildcard := slices.Contains(r.Skills, "*") || slices.ContainsFunc(srcRefs, func(s source.Ref) bool { return s.Skill == "*" })
	if wildcard && !r.Force {
		if srcFetched, err = p.skipConflicts(srcFetched); err != nil {
			return p.out, err
		}
	}
	if wildcard && len(srcFetched) == 0 && len(regArgs) == 0 && len(p.out.Skipped) > 0 {
		p.out.summarise()
		return p.out, noneInstallable(p.out.Skipped)
	}
	refs, err := references(regArgs, r.Registry)
	if err != nil {
		return p.out, err
	}
	// A source package's own dependencies resolve in the registries.
	named := map[string]bool{}
	for _, ref := range refs {
		named[ref.Name] = true
	}
	if !r.NoDeps {
		deps, err := sourceDependencyRefs(srcFetched)
		if err != nil {
			return p.out, err
		}
		refs = append(refs, deps...)
	}
	var plan *resolve.Plan
	var wants []want
	if len(refs) > 0 {
		plan, wants, err = p.resolveKeeping(refs, nil, resolve.Options{WithSuggests: r.WithSuggests, NoDeps: r.NoDeps}, true)
		if err != nil {
			return p.out, p.didYouMean(err, refs[:len(regArgs)])
		}
		p.out.setPlan(plan)
		if !r.NoDeps {
			sourceDependencies(srcFetched, plan, wants, named)
		}
	}
	if err := p.checkOrigins(srcFetched, wants, r.Force); err != nil {
		return p.out, err
	}
	if r.FrozenLockfile {
		if err := frozenCheck(p.lock, wants, srcFetched); err != nil {
			return p.out, err
		}
	}
	// Nothing after the fetch reads the registries' indexes: for a large
	// registry they are megabytes the rest of the run does not need. When
	// resolution verified every package fetched, the fetch needs none
	// either (registry.Set.Fetch).
	if keptAll(p.Registries, wants) {
		p.Registries.ReleaseIndexes()
	}
	regFetched, err := p.fetch(wants)
	if err != nil {
		return p.out, err
	}
	p.Registries.ReleaseIndexes()
	all := regFetched // not copied when there are no sources: 10,000 packages hold ~3 MiB here
	if len(srcFetched) > 0 {
		all = append(srcFetched, regFetched...)
	}
	if err := p.judgeRisks(all); err != nil {
		return p.out, err
	}
	rep, err := p.apply(all, plan, r.Force, r.DryRun)
	p.out.addReport(rep)
	p.labelResults()
	if wildcard {
		p.out.summarise()
	}
	return p.out, err
}

// noneInstallable is the error of a run in which "*" chose skills, the
// gate refused every one, and nothing else was asked for.
func noneInstallable(skipped []Skip) error {
	names := make([]string, len(skipped))
	for i, s := range skipped {
		names[i] = s.Name
	}
	return &askerr.Error{Code: askerr.CodeValidationFailed,
		Message: fmt.Sprintf("none of the %d skills --skill '*' chose can be installed (%s); nothing was installed", len(skipped), strings.Join(names, ", ")),
		Detail:  []string{"each skill's reasons are listed above"},
		Try:     []string{"report the problems to the skills' maintainers"}}
}

// sourceDependencyRefs returns the dependencies of the source packages
// that the registries must resolve. A dependency that another package of
// the same install's sources provides is that package — a collection that
// ships a skill and the skill it depends on installs each once — and is
// recorded as the dependency's version here; when its version is outside
// the range the dependent asks for, the install is refused, since one
// name cannot be installed twice.
func sourceDependencyRefs(srcFetched []fetched) ([]resolve.Reference, error) {
	provided := map[string]string{}
	for _, f := range srcFetched {
		provided[f.name] = f.version
	}
	var refs []resolve.Reference
	for i, f := range srcFetched {
		m := f.item.Pkg.Manifest
		if m == nil {
			continue
		}
		for _, d := range m.Dependencies {
			v, ok := provided[d.Name]
			if !ok {
				refs = append(refs, resolve.Reference{Name: d.Name, Range: d.Version})
				continue
			}
			if in, err := resolve.Satisfies(v, d.Version); err != nil || !in {
				return nil, &askerr.Error{Code: resolve.CodeDependencyConflict,
					Message: fmt.Sprintf("%s needs %s %s, but the %s installed from the same sources is %s", f.name, d.Name, rangeText(d.Version), d.Name, v),
					Detail:  []string{fmt.Sprintf("%s comes from %s; %s from %s", f.name, f.source, d.Name, sourceOf(srcFetched, d.Name))},
					Try:     []string{fmt.Sprintf("leave %s out of --skill to install it from the registries, or ask the maintainers to align the versions", d.Name)},
					Err:     err}
			}
			srcFetched[i].deps[d.Name] = v
			srcFetched[i].item.Dependencies[d.Name] = v
		}
	}
	return refs, nil
}

// rangeText shows a dependency's range; an empty one admits any version.
func rangeText(r string) string {
	if r == "" {
		return "(any version)"
	}
	return r
}

// sourceOf names the source the package called name was fetched from.
func sourceOf(srcFetched []fetched, name string) string {
	for _, f := range srcFetched {
		if f.name == name {
			return f.source
		}
	}
	return ""
}

// sourceDependencies records, for each source package, the versions the
// plan selected for the dependencies its manifest names, as the lock and
// the receipts record a registry package's; those dependencies that the
// user did not name are installed as dependencies, keeping the role of
// an existing install.
func sourceDependencies(srcFetched []fetched, plan *resolve.Plan, wants []want, named map[string]bool) {
	deps := map[string]bool{}
	for i, f := range srcFetched {
		if m := f.item.Pkg.Manifest; m != nil {
			for _, d := range m.Dependencies {
				if sel, ok := plan.Lookup(d.Name); ok {
					srcFetched[i].deps[d.Name] = sel.Version
					srcFetched[i].item.Dependencies[d.Name] = sel.Version
					deps[d.Name] = true
				}
			}
		}
	}
	for i, w := range wants {
		if deps[w.name] && !named[w.name] {
			wants[i].role, wants[i].keepRole = resolve.RoleDependency, true
		}
	}
}

// references parses skill arguments; registry qualifies bare names.
func references(args []string, registry string) ([]resolve.Reference, error) {
	var refs []resolve.Reference
	for _, a := range args {
		ref, err := resolve.ParseReference(a)
		if err != nil {
			return nil, err
		}
		if ref.Registry == "" {
			ref.Registry = registry
		}
		refs = append(refs, ref)
	}
	return refs, nil
}
