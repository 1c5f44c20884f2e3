package agents

import (
	"fmt"
	"slices"
	"strings"
)

// Table is a fixed, ordered set of adapters that can be looked up by id or
// alias: the agents one run of the CLI knows. It is immutable once built.
type Table struct {
	adapters []Adapter
	byName   map[string]Adapter
}

// NewTable builds a table of adapters in the given order. It fails when two
// adapters share an id or alias, or one has an empty id.
func NewTable(adapters ...Adapter) (*Table, error) {
	r := &Table{adapters: slices.Clone(adapters), byName: map[string]Adapter{}}
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

// Default returns the table of every built-in agent (builtin.go), in a
// fixed order: claude-code, codex, github-copilot, gemini-cli, cursor,
// opencode, windsurf, goose, amp, cline, kilo-code, roo-code, kiro-cli,
// qwen-code, factory-droid, continue, junie, augment, openhands, warp, zed,
// crush, mistral-vibe, kimi-cli, pi. Each call builds a new Table; a caller
// that needs it several times builds it once and keeps it.
func Default() *Table {
	rows := builtinRows()
	adapters := make([]Adapter, len(rows))
	for i := range rows {
		adapters[i] = &tableAdapter{row: rows[i]}
	}
	r, err := NewTable(adapters...)
	if err != nil {
		// The table is a constant of this package; a clash is a bug caught
		// by TestTableConsistent, never a runtime condition.
		panic(err)
	}
	return r
}

// All returns the table's adapters in order.
func (t *Table) All() []Adapter { return slices.Clone(t.adapters) }

// IDs returns the table's agent ids in order.
func (t *Table) IDs() []string {
	ids := make([]string, len(t.adapters))
	for i, a := range t.adapters {
		ids[i] = a.ID()
	}
	return ids
}

// Lookup finds an adapter by id or alias, ignoring case. An unknown name
// is an ASK_AGENT_UNKNOWN error that lists every known id.
func (t *Table) Lookup(idOrAlias string) (Adapter, error) {
	if a, ok := t.byName[strings.ToLower(strings.TrimSpace(idOrAlias))]; ok {
		return a, nil
	}
	return nil, unknownAgentError(idOrAlias, t.adapters)
}

// Select resolves the values of repeated --agent flags to adapters in
// table order, without duplicates. "all" selects every adapter; a
// value may also hold several names separated by commas.
func (t *Table) Select(names []string) ([]Adapter, error) {
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
			a, err := t.Lookup(name)
			if err != nil {
				return nil, err
			}
			chosen[a.ID()] = true
		}
	}
	var out []Adapter
	for _, a := range t.adapters {
		if every || chosen[a.ID()] {
			out = append(out, a)
		}
	}
	return out, nil
}

// OverrideKeys returns, per agent id, the keys allowed under
// agentOverrides.<id>: the allowlist the validate package takes.
func (t *Table) OverrideKeys() map[string][]string {
	out := make(map[string][]string, len(t.adapters))
	for _, a := range t.adapters {
		out[a.ID()] = a.OverrideKeys()
	}
	return out
}

// ProjectMarkers returns the project-relative paths whose presence marks a
// folder as an agent project (".claude", ".agents", "AGENTS.md", …),
// sorted and without repeats. The CLI uses them to find the project root.
func (t *Table) ProjectMarkers() []string {
	var out []string
	for _, a := range t.adapters {
		if ta, ok := a.(*tableAdapter); ok {
			out = append(out, ta.row.markers...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
