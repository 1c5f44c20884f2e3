package agents

import (
	"fmt"
	"slices"
	"strings"
)

// Registry is a fixed, ordered set of adapters that can be looked up by id
// or alias. It is immutable once built.
type Registry struct {
	adapters []Adapter
	byName   map[string]Adapter
}

// NewRegistry builds a registry of adapters in the given order. It fails
// when two adapters share an id or alias, or one has an empty id.
func NewRegistry(adapters ...Adapter) (*Registry, error) {
	r := &Registry{adapters: slices.Clone(adapters), byName: map[string]Adapter{}}
	for _, a := range adapters {
		if a.ID() == "" {
			return nil, fmt.Errorf("agents: adapter %q has an empty id", a.DisplayName())
		}
		for _, name := range append([]string{a.ID()}, a.Aliases()...) {
			key := strings.ToLower(name)
			if key == "all" {
				return nil, fmt.Errorf("agents: %q is reserved and cannot name an adapter", name)
			}
			if prev, dup := r.byName[key]; dup {
				return nil, fmt.Errorf("agents: %q names both %s and %s", name, prev.ID(), a.ID())
			}
			r.byName[key] = a
		}
	}
	return r, nil
}

// Default returns the registry of every agent in the built-in table, in
// the order All documents.
func Default() *Registry {
	rows := table()
	adapters := make([]Adapter, len(rows))
	for i := range rows {
		adapters[i] = &tableAdapter{row: rows[i]}
	}
	r, err := NewRegistry(adapters...)
	if err != nil {
		// The table is a constant of this package; a clash is a bug caught
		// by TestTableConsistent, never a runtime condition.
		panic(err)
	}
	return r
}

// All returns every built-in adapter in a fixed order: claude-code, codex,
// github-copilot, gemini-cli, cursor, opencode, windsurf, goose, amp.
func All() []Adapter { return Default().All() }

// Lookup finds a built-in adapter by id or alias; see Registry.Lookup.
func Lookup(idOrAlias string) (Adapter, error) { return Default().Lookup(idOrAlias) }

// All returns the registry's adapters in registration order.
func (r *Registry) All() []Adapter { return slices.Clone(r.adapters) }

// IDs returns the registry's agent ids in registration order.
func (r *Registry) IDs() []string {
	ids := make([]string, len(r.adapters))
	for i, a := range r.adapters {
		ids[i] = a.ID()
	}
	return ids
}

// Lookup finds an adapter by id or alias, ignoring case. An unknown name
// is an ASK_AGENT_UNKNOWN error that lists every known id.
func (r *Registry) Lookup(idOrAlias string) (Adapter, error) {
	if a, ok := r.byName[strings.ToLower(strings.TrimSpace(idOrAlias))]; ok {
		return a, nil
	}
	return nil, unknownAgentError(idOrAlias, r.adapters)
}

// Select resolves the values of repeated --agent flags to adapters in
// registration order, without duplicates. "all" selects every adapter; a
// value may also hold several names separated by commas.
func (r *Registry) Select(names []string) ([]Adapter, error) {
	chosen := map[string]bool{}
	every := false
	for _, v := range names {
		for _, name := range strings.Split(v, ",") {
			name = strings.TrimSpace(name)
			if name == "" {
				continue
			}
			if strings.EqualFold(name, "all") {
				every = true
				continue
			}
			a, err := r.Lookup(name)
			if err != nil {
				return nil, err
			}
			chosen[a.ID()] = true
		}
	}
	var out []Adapter
	for _, a := range r.adapters {
		if every || chosen[a.ID()] {
			out = append(out, a)
		}
	}
	return out, nil
}

// OverrideKeys returns, per agent id, the keys allowed under
// agentOverrides.<id>: the allowlist the validate package takes.
func (r *Registry) OverrideKeys() map[string][]string {
	out := make(map[string][]string, len(r.adapters))
	for _, a := range r.adapters {
		out[a.ID()] = a.OverrideKeys()
	}
	return out
}

// ProjectMarkers returns the project-relative paths whose presence marks a
// folder as an agent project (".claude", ".agents", "AGENTS.md", …),
// sorted and without repeats. The CLI uses them to find the project root.
func (r *Registry) ProjectMarkers() []string {
	var out []string
	for _, a := range r.adapters {
		if t, ok := a.(*tableAdapter); ok {
			out = append(out, t.row.markers...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
