package publish

import (
	"context"
	"errors"
	"fmt"

	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/resolve"
)

// targetOwner names the target registry in resolver messages.
const targetOwner = "target"

// targetSource is the resolver's view of the target registry, with the
// package being published added as its only version.
type targetSource struct {
	target   Target
	idx      *registry.Index
	self     string
	version  string
	selfReqs resolve.Requirements
}

// Versions lists name's versions in the target index.
func (s *targetSource) Versions(ctx context.Context, _, name string) (string, []resolve.Published, error) {
	if name == s.self {
		return targetOwner, []resolve.Published{{Version: s.version}}, nil
	}
	sk, ok := s.idx.Skill(name)
	if !ok {
		return "", nil, fmt.Errorf("%q is not in the target registry: %w", name, resolve.ErrNotFound)
	}
	out := make([]resolve.Published, 0, len(sk.Versions))
	for _, v := range sk.Versions {
		out = append(out, resolve.Published{Version: v.Version, Deprecated: v.Deprecated})
	}
	return targetOwner, out, nil
}

// Requirements reads the edges of a published version from the target.
func (s *targetSource) Requirements(ctx context.Context, _, name, version string) (resolve.Requirements, error) {
	if name == s.self && version == s.version {
		return s.selfReqs, nil
	}
	sk, ok := s.idx.Skill(name)
	if !ok {
		return resolve.Requirements{}, fmt.Errorf("%q is not in the target registry: %w", name, resolve.ErrNotFound)
	}
	v, ok := sk.Version(version)
	if !ok {
		return resolve.Requirements{}, fmt.Errorf("%s@%s is not in the target registry: %w", name, version, resolve.ErrNotFound)
	}
	return s.target.Requirements(ctx, name, v)
}

// requirementsOf converts a manifest's edges to the resolver's types.
func requirementsOf(m *format.Manifest) resolve.Requirements {
	var r resolve.Requirements
	for _, d := range m.Dependencies {
		r.Dependencies = append(r.Dependencies, resolve.Constraint{Name: d.Name, Range: d.Version})
	}
	for _, d := range m.OptionalDependencies {
		r.Optional = append(r.Optional, resolve.Constraint{Name: d.Name, Range: d.Version})
	}
	r.Suggests = append(r.Suggests, m.Suggests...)
	return r
}

// resolveDeps resolves the package's dependency graph against the target
// and records the selected versions and the warnings in plan.
func resolveDeps(ctx context.Context, t Target, idx *registry.Index, m *format.Manifest, plan *Plan) error {
	src := &targetSource{target: t, idx: idx, self: m.Name, version: m.Version, selfReqs: requirementsOf(m)}
	res, err := resolve.Resolve(ctx, src, []resolve.Reference{{Name: m.Name, Range: m.Version}}, resolve.Options{})
	if err != nil {
		var re *resolve.Error
		if errors.As(err, &re) {
			re.Try = append(re.Try, "publish the missing dependency to the target registry first, or change its range in skill.yaml")
		}
		return err
	}
	for _, sel := range res.Skills {
		if sel.Name == m.Name {
			continue
		}
		if plan.Dependencies == nil {
			plan.Dependencies = map[string]string{}
		}
		plan.Dependencies[sel.Name] = sel.Version
	}
	for _, w := range res.Warnings {
		plan.Warnings = append(plan.Warnings, w.String())
	}
	return nil
}
