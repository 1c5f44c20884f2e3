package skillset

import (
	"context"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/resolve"
)

// RestoreRequest is what `agent-skills install` with no names asks for.
type RestoreRequest struct {
	// Force overwrites an install that was modified or not made by
	// agent-skills.
	Force bool
	// DryRun plans and writes nothing.
	DryRun bool
	// Strict validates at validate's default gate instead of the install
	// gate (install --strict).
	Strict bool
	// Progress shows the fetch; nil shows nothing.
	Progress Progress
}

// Restore installs exactly what the project's skills.lock records — the
// versions from their registries, the commits and folders of sources —
// each verified against the lock's digest.
func (s *Session) Restore(ctx context.Context, r RestoreRequest) (*Outcome, error) {
	p := s.begin(ctx, "install", nil, restoreFlags(r), r.DryRun, r.Progress)
	p.strict = r.Strict
	if err := p.recoverFirst(r.DryRun); err != nil {
		return p.out, err
	}
	if !s.Scope.Project() || p.lock == nil {
		return nil, askerr.Usage("name the skills to install (restoring with no names needs a project with a skills.lock)")
	}
	fromSources := map[string]resolve.LockedSkill{}
	for n, l := range p.lock.Skills {
		if l.Source != "" {
			fromSources[n] = l
		}
	}
	roles, err := p.installedRoles()
	if err != nil {
		return p.out, err
	}
	// Registries the lock names but the configuration does not stop the
	// restore before anything is fetched.
	wants, err := p.restoreStranded(restoreWants(p.lock, roles))
	if err != nil {
		return p.out, err
	}
	srcFetched, cleanup, err := p.restoreSources(fromSources)
	defer cleanup()
	if err != nil {
		return p.out, err
	}
	regFetched, err := p.fetch(wants)
	if err != nil {
		return p.out, err
	}
	rep, err := p.apply(append(srcFetched, regFetched...), nil, r.Force, r.DryRun)
	p.out.addReport(rep)
	return p.out, err
}

// restoreFlags are the flags of r that running the restore again needs.
func restoreFlags(r RestoreRequest) []string {
	var out []string
	if r.Force {
		out = append(out, "--force")
	}
	if r.Strict {
		out = append(out, "--strict")
	}
	return out
}
