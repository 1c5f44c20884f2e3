package skillset

import (
	"github.com/agent-skills/agent-skills/resolve"
)

// want is one package to fetch: a resolved selection, or a lock entry.
type want struct {
	name, version, registry string
	role                    resolve.Role
	integrity               string // expected, from the lock; "" when not locked
	// resolved is where the lock records the payload came from; an OCI
	// registry pulls a locked version by the manifest digest it names.
	resolved string
	deps     map[string]string
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
func (p *op) wantsFromPlan(plan *resolve.Plan) []want {
	out := make([]want, 0, len(plan.Skills))
	for _, s := range plan.Skills {
		w := want{name: s.Name, version: s.Version, registry: s.Registry, role: s.Role, deps: s.Dependencies}
		if p.lock != nil {
			if l, ok := p.lock.Skills[s.Name]; ok && l.Version == s.Version && l.Registry == s.Registry {
				w.integrity, w.resolved = l.Integrity, l.Resolved
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
//
// An installed skill whose registry cannot answer for it (see
// stranded.go) and that does not move stays at its installed version,
// from what its receipt and skills.lock record, and is never fetched; the
// run warns once.
func (p *op) resolveKeeping(refs []resolve.Reference, moved map[string]bool, opts resolve.Options, keepNamed bool) (*resolve.Plan, []want, error) {
	installed, err := p.installedVersions()
	if err != nil {
		return nil, nil, err
	}
	kept, err := p.keptStranded(moved)
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
	plan, err := resolve.Resolve(p.ctx, keptSource{setSource{p.Registries}, kept}, refs, opts)
	if err != nil {
		return nil, nil, strandedDetail(err, kept)
	}
	p.warnStranded(kept, stayed(plan, kept))
	all := p.wantsFromPlan(plan)
	wants := all[:0] // filtered in place: one want per selection is ~1.6 MB at 10,000
	for _, w := range all {
		if s, ok := kept[w.name]; ok && s.Registry == w.registry && s.Version == w.version {
			continue // nothing can be fetched, and nothing changes
		}
		pin, ok := installed[w.name]
		if (keepNamed && named[w.name]) || !ok || pin.Version != w.version || pin.Registry != w.registry {
			if !named[w.name] && w.role == resolve.RoleRequested {
				w.role = resolve.RoleDependency
			}
			w.keepRole = ok && !named[w.name]
			wants = append(wants, w)
		}
	}
	return plan, wants, nil
}
