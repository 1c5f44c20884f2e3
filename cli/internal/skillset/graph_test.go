package skillset

import (
	"slices"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
)

// graphOf builds a graph from "name → deps" with every name at 1.0.0;
// prunable are the names installed only as unchanged dependencies. A name
// whose deps is nil has unknown dependencies.
func graphOf(deps map[string][]string, prunable ...string) *depGraph {
	g := &depGraph{deps: map[string]map[string]string{}, versions: map[string]string{}, prunable: map[string]bool{}}
	for n, ds := range deps {
		g.versions[n] = "1.0.0"
		if ds == nil {
			g.deps[n] = nil
			continue
		}
		g.deps[n] = map[string]string{}
		for _, d := range ds {
			g.deps[n][d] = "1.0.0"
		}
	}
	for _, n := range prunable {
		g.prunable[n] = true
	}
	return g
}

func TestOrphans(t *testing.T) {
	chain := map[string][]string{"app": {"lib"}, "lib": {"util"}, "util": {}, "other": {}}
	tests := []struct {
		name     string
		deps     map[string][]string
		prunable []string
		gone     []string
		want     []string
	}{
		{"a chain goes with its head", chain, []string{"lib", "util"}, []string{"app"}, []string{"lib", "util"}},
		{"nothing gone, nothing orphaned", chain, []string{"lib", "util"}, nil, nil},
		{"a dependency the user asked for stays", chain, []string{"util"}, []string{"app"}, nil},
		{"a dependency still required elsewhere stays", map[string][]string{"app": {"lib"}, "tool": {"lib"}, "lib": {}}, []string{"lib"}, []string{"app"}, nil},
		{"shared below a kept dependency", map[string][]string{"app": {"lib", "util"}, "lib": {"util"}, "util": {}}, []string{"util"}, []string{"app"}, nil},
		{"a leftover nothing requires", map[string][]string{"app": {}, "lib": {}}, []string{"lib"}, nil, []string{"lib"}},
		{"an unknown dependency set keeps everything", map[string][]string{"app": {"lib"}, "old": nil, "lib": {}}, []string{"lib"}, []string{"app"}, nil},
		{"unknown but gone is fine", map[string][]string{"app": {"lib"}, "old": nil, "lib": {}}, []string{"lib"}, []string{"app", "old"}, []string{"lib"}},
		{"a cycle of dependencies goes together", map[string][]string{"app": {"a"}, "a": {"b"}, "b": {"a"}}, []string{"a", "b"}, []string{"app"}, []string{"a", "b"}},
		{"a name removed is never its own orphan", chain, []string{"lib", "util"}, []string{"app", "lib"}, []string{"util"}},
	}
	for _, tt := range tests {
		g := graphOf(tt.deps, tt.prunable...)
		if got := g.orphans(tt.gone); !slices.Equal(got, tt.want) {
			t.Errorf("orphans(%q) [%s] = %q, want %q", tt.gone, tt.name, got, tt.want)
		}
	}
}

func TestDependentsFirstOrders(t *testing.T) {
	g := graphOf(map[string][]string{"app": {"lib", "util"}, "lib": {"util"}, "util": {}, "x": {}, "old": nil})
	tests := []struct{ in, want []string }{
		{[]string{"util", "lib", "app"}, []string{"app", "lib", "util"}},
		{[]string{"lib", "util"}, []string{"lib", "util"}},
		{[]string{"util", "x"}, []string{"util", "x"}},
		{[]string{"util", "old", "app"}, []string{"old", "app", "util"}},
		{[]string{"nosuch", "lib"}, []string{"nosuch", "lib"}},
		{nil, nil},
	}
	for _, tt := range tests {
		if got := g.dependentsFirst(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("dependentsFirst(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestRequiredElsewhere(t *testing.T) {
	g := graphOf(map[string][]string{"app": {"lib", "util"}, "tool": {"lib"}, "lib": {"util"}, "util": {}, "old": nil})
	g.versions["app"] = "2.1.0"
	tests := []struct {
		names  []string
		detail []string // nil: allowed
		try    string
	}{
		{[]string{"app"}, nil, ""},
		{[]string{"app", "tool", "lib", "util"}, nil, ""},
		{[]string{"old"}, nil, ""},
		{[]string{"lib"}, []string{"app@2.1.0 requires lib", "tool@1.0.0 requires lib"}, "agent-skills uninstall lib app tool   to remove them together"},
		{[]string{"util", "lib"}, []string{"app@2.1.0 requires lib", "app@2.1.0 requires util", "tool@1.0.0 requires lib"}, "agent-skills uninstall util lib app tool   to remove them together"},
		{[]string{"app", "util"}, []string{"lib@1.0.0 requires util"}, "agent-skills uninstall app util lib   to remove them together"},
	}
	for _, tt := range tests {
		err := g.requiredElsewhere(tt.names)
		if tt.detail == nil {
			if err != nil {
				t.Errorf("requiredElsewhere(%q) = %v, want nil", tt.names, err)
			}
			continue
		}
		if codeOf(err) != CodeSkillRequired || !slices.Equal(askerr.DetailOf(err), tt.detail) {
			t.Errorf("requiredElsewhere(%q) = %v %q, want %s %q", tt.names, err, askerr.DetailOf(err), CodeSkillRequired, tt.detail)
		}
		if try := askerr.TryOf(err); len(try) == 0 || try[0] != tt.try {
			t.Errorf("requiredElsewhere(%q) try = %q, want %q first", tt.names, try, tt.try)
		}
	}
}
