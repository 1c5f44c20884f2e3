package skillset

import (
	"context"
	"errors"
	"fmt"

	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/resolve"
)

// setSource adapts the registry set to the resolver's Source: the same
// questions, in the resolver's types, with "not found" translated so the
// resolver can tell a missing optional dependency from a failure.
type setSource struct{ set *registry.Set }

func (s setSource) Versions(ctx context.Context, reg, name string) (string, []resolve.Published, error) {
	owner, vs, err := s.set.Versions(ctx, reg, name)
	if err != nil {
		return "", nil, notFoundAware(err)
	}
	out := make([]resolve.Published, len(vs))
	for i, v := range vs {
		out[i] = resolve.Published{Version: v.Version, Deprecated: v.Deprecated}
	}
	return owner, out, nil
}

func (s setSource) Requirements(ctx context.Context, reg, name, version string) (resolve.Requirements, error) {
	req, err := s.set.Requirements(ctx, reg, name, version)
	if err != nil {
		return resolve.Requirements{}, notFoundAware(err)
	}
	conv := func(cs []registry.Constraint) []resolve.Constraint {
		out := make([]resolve.Constraint, len(cs))
		for i, c := range cs {
			out[i] = resolve.Constraint{Name: c.Name, Range: c.Range}
		}
		return out
	}
	return resolve.Requirements{Dependencies: conv(req.Dependencies), Optional: conv(req.Optional), Suggests: req.Suggests}, nil
}

// notFoundAware wraps a registry "not found" so that errors.Is also
// matches resolve.ErrNotFound, keeping the registry's message and code.
func notFoundAware(err error) error {
	if errors.Is(err, registry.ErrNotFound) {
		return &bothNotFound{err}
	}
	return err
}

type bothNotFound struct{ error }

func (b *bothNotFound) Unwrap() []error { return []error{b.error, resolve.ErrNotFound} }

func (b *bothNotFound) Format(f fmt.State, verb rune) { fmt.Fprint(f, b.error.Error()) }
