package resolve

import (
	"context"
	"fmt"
	"slices"
	"sync"
)

// memSource is an in-memory Source with registry precedence, used by the
// scenario, property and benchmark tests.
type memSource struct {
	order   []string                           // registry precedence
	pkgs    map[string]map[string][]memVersion // registry → name → versions
	reverse bool                               // list versions in reverse order
	mu      sync.Mutex
	calls   map[string]int // "versions reg name" / "reqs reg name version" → count
}

type memVersion struct {
	pub Published
	req Requirements
}

func newMemSource(registries ...string) *memSource {
	if len(registries) == 0 {
		registries = []string{"official"}
	}
	return &memSource{order: registries, pkgs: make(map[string]map[string][]memVersion), calls: make(map[string]int)}
}

func (m *memSource) add(registry, name string, v memVersion) {
	if m.pkgs[registry] == nil {
		m.pkgs[registry] = make(map[string][]memVersion)
	}
	m.pkgs[registry][name] = append(m.pkgs[registry][name], v)
}

// reversed returns a copy of m that lists versions in the opposite order.
func (m *memSource) reversed() *memSource {
	return &memSource{order: m.order, pkgs: m.pkgs, reverse: !m.reverse, calls: make(map[string]int)}
}

func (m *memSource) count(key string) {
	if m.calls == nil {
		return
	}
	m.mu.Lock()
	m.calls[key]++
	m.mu.Unlock()
}

func (m *memSource) Versions(ctx context.Context, registry, name string) (string, []Published, error) {
	m.count("versions " + registry + " " + name)
	regs := m.order
	if registry != "" {
		regs = []string{registry}
	}
	for _, r := range regs {
		vs, ok := m.pkgs[r][name]
		if !ok {
			continue
		}
		out := make([]Published, len(vs))
		for i, v := range vs {
			out[i] = v.pub
		}
		if m.reverse {
			slices.Reverse(out)
		}
		return r, out, nil
	}
	return "", nil, fmt.Errorf("%w: %q", ErrNotFound, name)
}

func (m *memSource) Requirements(ctx context.Context, registry, name, version string) (Requirements, error) {
	m.count("reqs " + registry + " " + name + " " + version)
	for _, v := range m.pkgs[registry][name] {
		if v.pub.Version == version {
			r := v.req
			if m.reverse {
				r.Dependencies = slices.Clone(r.Dependencies)
				slices.Reverse(r.Dependencies)
				r.Optional = slices.Clone(r.Optional)
				slices.Reverse(r.Optional)
				r.Suggests = slices.Clone(r.Suggests)
				slices.Reverse(r.Suggests)
			}
			return r, nil
		}
	}
	return Requirements{}, fmt.Errorf("%w: %s@%s in %s", ErrNotFound, name, version, registry)
}
