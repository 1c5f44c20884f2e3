package skillset

import (
	"context"
	"fmt"
	"os"
	"slices"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/resolve"
)

// UpdateRequest is what `agent-skills update [names…]` asks for.
type UpdateRequest struct {
	// Names are the installed skills to update; none: every one.
	Names []string
	// Major allows new major versions (default: within ^installed).
	Major bool
	// WithSuggests also installs the direct suggestions of Names.
	WithSuggests bool
	// DryRun plans and writes nothing.
	DryRun bool
	// Force takes the new version over installs the user modified;
	// KeepLocal keeps the user's edited files and takes the rest.
	Force, KeepLocal bool
	// Progress shows the fetch; nil shows nothing.
	Progress Progress
}

// rerun is the flags of r that running the command again needs.
func (r UpdateRequest) rerun() []string {
	var out []string
	for _, f := range []struct {
		name string
		on   bool
	}{{"--major", r.Major}, {"--with-suggests", r.WithSuggests}, {"--force", r.Force}, {"--keep-local", r.KeepLocal}} {
		if f.on {
			out = append(out, f.name)
		}
	}
	return out
}

// Update moves installed skills to the newest version within ^installed
// (Major: the newest), from the registry each was installed from, and
// skills installed from sources to the newest commit of their branch or
// the newest semver tag; other skills keep their versions unless a
// dependency requires a move, and dependencies nothing needs any more go.
// An Outcome with no results and no error means everything is up to date.
func (s *Session) Update(ctx context.Context, r UpdateRequest) (*Outcome, error) {
	if r.WithSuggests && len(r.Names) == 0 {
		return nil, askerr.Usage("--with-suggests needs skill names: suggestions are added only for skills you name")
	}
	if r.KeepLocal && r.Force {
		return nil, askerr.Usage("--keep-local and --force contradict each other: keep your edits, or replace them")
	}
	if err := s.policyReady(); err != nil {
		return nil, err
	}
	risk, err := s.scanGate()
	if err != nil {
		return nil, err
	}
	p := s.begin(ctx, "update", r.Names, r.rerun(), r.DryRun, r.Progress)
	p.prune, p.risk = true, risk
	if err := p.recoverFirst(r.DryRun); err != nil {
		return p.out, err
	}
	installed, err := p.installedVersions()
	if err != nil {
		return p.out, err
	}
	fromSource := func(n string) bool {
		if p.lock == nil {
			return false
		}
		l, ok := p.lock.Skills[n]
		return ok && l.Source != ""
	}
	names := r.Names
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
		slices.Sort(names)
		if len(names) == 0 {
			p.info("nothing to update: no skills installed in %s scope", s.Scope.Kind)
			return p.out, nil
		}
	}
	kept, err := p.strandedSkills()
	if err != nil {
		return p.out, err
	}
	moved := map[string]bool{}
	var refs []resolve.Reference
	var srcNames, skipped []string
	for _, n := range names {
		ref, err := resolve.ParseReference(n)
		if err != nil {
			return p.out, err
		}
		if fromSource(ref.Name) {
			srcNames = append(srcNames, ref.Name)
			continue
		}
		cur, ok := installed[ref.Name]
		if !ok {
			return p.out, &askerr.Error{Code: install.CodeNotInstalled, Message: fmt.Sprintf("%s is not installed in %s scope", ref.Name, s.Scope.Kind),
				Try: []string{"agent-skills list", "agent-skills install " + ref.Name}}
		}
		if ref.Registry == "" {
			ref.Registry = cur.Registry
		}
		if s, ok := kept[ref.Name]; ok && ref.Registry == s.Registry && s.gone != goneVersion {
			// Its registry cannot say what is newer: it stays (stranded.go).
			skipped = append(skipped, ref.Name)
			continue
		}
		if ref.Range == "" && !r.Major {
			ref.Range = "^" + cur.Version
		}
		moved[ref.Name] = true
		refs = append(refs, ref)
	}
	if len(refs) == 0 {
		p.warnStranded(kept, skipped)
	}
	var plan *resolve.Plan
	var fs []fetched
	if len(refs) > 0 {
		var wants []want
		plan, wants, err = p.resolveKeeping(refs, moved, resolve.Options{WithSuggests: r.WithSuggests}, false)
		if err != nil {
			return p.out, err
		}
		// An update moves versions, not roles: a dependency it moves stays
		// one, whether or not it was named.
		for i := range wants {
			if _, ok := installed[wants[i].name]; ok {
				wants[i].keepRole = true
			}
		}
		p.out.setPlan(plan)
		// A new dependency may resolve in a registry while a skill of its
		// name is installed from elsewhere.
		if err := p.checkOrigins(nil, wants, r.Force); err != nil {
			return p.out, err
		}
		if fs, err = p.fetch(wants); err != nil {
			return p.out, err
		}
	}
	if len(srcNames) > 0 {
		tmp, err := s.stagingDir("update-")
		if err != nil {
			return p.out, err
		}
		defer os.RemoveAll(tmp)
		moredFetched, err := p.updateSources(srcNames, r.Major, tmp)
		if err != nil {
			return p.out, err
		}
		fs = append(fs, moredFetched...)
	}
	if len(fs) == 0 {
		p.info("everything is up to date")
		return p.out, p.pruneOnly(r.DryRun)
	}
	force := r.Force
	if r.KeepLocal {
		if fs, err = p.keepLocal(fs); err != nil {
			return p.out, err
		}
		force = true
	}
	if err := p.judgeRisks(fs); err != nil {
		return p.out, err
	}
	rep, err := p.apply(fs, plan, force, r.DryRun)
	p.out.addReport(rep)
	p.labelResults()
	return p.out, err
}

// pruneOnly removes, with nothing to move, the dependencies that nothing
// requires: an interrupted run may have left them.
func (p *op) pruneOnly(dryRun bool) error {
	rep := &install.Report{DryRun: dryRun, Results: []install.Result{}}
	var err error
	if dryRun {
		err = p.pruneOrphans(rep, nil, true)
	} else {
		err = p.underRunLock(func() error { return p.pruneOrphans(rep, nil, false) })
	}
	p.out.addReport(rep)
	return err
}
