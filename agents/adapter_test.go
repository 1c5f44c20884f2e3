package agents

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agent-skills/agent-skills/format"
)

// fakeAdapter is an Adapter not built from the table, with one skills root.
type fakeAdapter struct {
	id   string
	root string
}

func (f fakeAdapter) ID() string {
	if f.id == "" {
		return "fake"
	}
	return f.id
}
func (f fakeAdapter) DisplayName() string    { return "Fake" }
func (f fakeAdapter) Aliases() []string      { return nil }
func (f fakeAdapter) OverrideKeys() []string { return nil }
func (f fakeAdapter) Detect(context.Context, Env) Detection {
	return Detection{Confidence: ConfidenceNone}
}
func (f fakeAdapter) Validate(*format.Package) format.Diagnostics { return nil }
func (f fakeAdapter) LayoutFor(*format.Package) (Layout, error)   { return Layout{}, nil }
func (f fakeAdapter) ReadRoots(format.Kind, Scope, Env) []string  { return []string{f.root} }
func (f fakeAdapter) LocationFor(k format.Kind, _ Scope, _ Env) (Location, bool) {
	if k != format.KindSkill || f.root == "" {
		return Location{}, false
	}
	return Location{Root: f.root, Shape: ShapeDirectory}, true
}

// testEnv is a machine with a home, a project and a controllable
// environment, and nothing on disk.
func testEnv(vars map[string]string) Env {
	return Env{
		Home:        "/home/u",
		ProjectRoot: "/work/p",
		Getenv:      func(k string) string { return vars[k] },
	}
}

func TestLocationFor(t *testing.T) {
	j := filepath.Join
	cases := []struct {
		agent string
		kind  format.Kind
		scope Scope
		vars  map[string]string
		over  map[string]RootOverride
		want  Location
		ok    bool
	}{
		{"claude-code", format.KindSkill, ScopeGlobal, nil, nil, Location{Root: j("/home/u", ".claude", "skills"), Shape: ShapeDirectory}, true},
		{"claude-code", format.KindSkill, ScopeGlobal, map[string]string{"CLAUDE_CONFIG_DIR": "/cfg/claude"}, nil, Location{Root: j("/cfg/claude", "skills"), Shape: ShapeDirectory}, true},
		{"claude-code", format.KindSkill, ScopeProject, nil, nil, Location{Root: j("/work/p", ".claude", "skills"), Shape: ShapeDirectory}, true},
		{"claude-code", format.KindCommand, ScopeGlobal, map[string]string{"CLAUDE_CONFIG_DIR": "/cfg/claude"}, nil, Location{Root: j("/cfg/claude", "commands"), Shape: ShapeFile, Extension: ".md"}, true},
		{"claude-code", format.KindCommand, ScopeProject, nil, nil, Location{Root: j("/work/p", ".claude", "commands"), Shape: ShapeFile, Extension: ".md"}, true},
		{"claude-code", format.KindWorkflow, ScopeProject, nil, nil, Location{}, false},
		{"codex", format.KindSkill, ScopeGlobal, nil, nil, Location{Root: j("/home/u", ".agents", "skills"), Shape: ShapeDirectory}, true},
		{"codex", format.KindSkill, ScopeGlobal, map[string]string{"CODEX_HOME": "/x/codex"}, nil, Location{Root: j("/home/u", ".agents", "skills"), Shape: ShapeDirectory}, true},
		{"codex", format.KindSkill, ScopeProject, nil, nil, Location{Root: j("/work/p", ".agents", "skills"), Shape: ShapeDirectory}, true},
		{"codex", format.KindCommand, ScopeGlobal, nil, nil, Location{}, false},
		{"codex", format.KindSkill, ScopeGlobal, nil, map[string]RootOverride{"codex": {GlobalRoot: "~/.codex/skills"}}, Location{Root: j("/home/u", ".codex", "skills"), Shape: ShapeDirectory}, true},
		{"codex", format.KindSkill, ScopeProject, nil, map[string]RootOverride{"codex": {ProjectRoot: "tools/skills"}}, Location{Root: j("/work/p", "tools", "skills"), Shape: ShapeDirectory}, true},
		{"claude-code", format.KindCommand, ScopeGlobal, nil, map[string]RootOverride{"claude-code": {GlobalRoot: "/elsewhere"}}, Location{Root: j("/home/u", ".claude", "commands"), Shape: ShapeFile, Extension: ".md"}, true},
		{"github-copilot", format.KindSkill, ScopeGlobal, nil, nil, Location{Root: j("/home/u", ".copilot", "skills"), Shape: ShapeDirectory}, true},
		{"github-copilot", format.KindSkill, ScopeProject, nil, nil, Location{Root: j("/work/p", ".github", "skills"), Shape: ShapeDirectory}, true},
		{"gemini-cli", format.KindSkill, ScopeGlobal, nil, nil, Location{Root: j("/home/u", ".gemini", "skills"), Shape: ShapeDirectory}, true},
		{"cursor", format.KindSkill, ScopeProject, nil, nil, Location{Root: j("/work/p", ".cursor", "skills"), Shape: ShapeDirectory}, true},
		{"opencode", format.KindSkill, ScopeGlobal, nil, nil, Location{Root: j("/home/u", ".config", "opencode", "skills"), Shape: ShapeDirectory}, true},
		{"opencode", format.KindSkill, ScopeGlobal, map[string]string{"XDG_CONFIG_HOME": "/xdg"}, nil, Location{Root: j("/xdg", "opencode", "skills"), Shape: ShapeDirectory}, true},
		{"windsurf", format.KindSkill, ScopeGlobal, nil, nil, Location{Root: j("/home/u", ".codeium", "windsurf", "skills"), Shape: ShapeDirectory}, true},
		{"goose", format.KindSkill, ScopeProject, nil, nil, Location{Root: j("/work/p", ".goose", "skills"), Shape: ShapeDirectory}, true},
		{"amp", format.KindSkill, ScopeGlobal, nil, nil, Location{Root: j("/home/u", ".config", "agents", "skills"), Shape: ShapeDirectory}, true},
		{"amp", format.KindSkill, ScopeProject, nil, nil, Location{Root: j("/work/p", ".agents", "skills"), Shape: ShapeDirectory}, true},
	}
	for _, tc := range cases {
		a, err := Default().Lookup(tc.agent)
		if err != nil {
			t.Fatal(err)
		}
		env := testEnv(tc.vars)
		env.Overrides = tc.over
		got, ok := a.LocationFor(tc.kind, tc.scope, env)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s.LocationFor(%s, %s) = %+v, %v, want %+v, %v", tc.agent, tc.kind, tc.scope, got, ok, tc.want, tc.ok)
		}
	}
}

func TestLocationUnresolvable(t *testing.T) {
	for _, a := range Default().All() {
		if _, ok := a.LocationFor(format.KindSkill, ScopeProject, Env{Home: "/home/u"}); ok {
			t.Errorf("%s.LocationFor(skill, project) without a project root = ok, want none", a.ID())
		}
		if _, ok := a.LocationFor(format.KindSkill, ScopeGlobal, Env{ProjectRoot: "/p"}); ok {
			t.Errorf("%s.LocationFor(skill, global) without a home = ok, want none", a.ID())
		}
		env := Env{Home: "/home/u"}
		if r := SkipReason(a, format.KindSkill, ScopeProject, env); r == "" {
			t.Errorf("SkipReason(%s, skill, project) without a project root = \"\", want a reason", a.ID())
		}
	}
}

func TestReadRoots(t *testing.T) {
	j := filepath.Join
	cases := []struct {
		agent   string
		kind    format.Kind
		scope   Scope
		env     Env
		want    []string
		deprecs []string
	}{
		{
			agent: "codex", kind: format.KindSkill, scope: ScopeGlobal, env: testEnv(nil),
			want:    []string{j("/home/u", ".agents", "skills"), j("/home/u", ".codex", "skills")},
			deprecs: []string{j("/home/u", ".codex", "skills")},
		},
		{
			agent: "codex", kind: format.KindSkill, scope: ScopeGlobal, env: testEnv(map[string]string{"CODEX_HOME": "/ch"}),
			want:    []string{j("/home/u", ".agents", "skills"), j("/ch", "skills")},
			deprecs: []string{j("/ch", "skills")},
		},
		{
			agent: "codex", kind: format.KindSkill, scope: ScopeProject,
			env: func() Env { e := testEnv(nil); e.WorkDir = "/work/p/svc/api"; return e }(),
			want: []string{
				j("/work/p/svc/api", ".agents", "skills"), j("/work/p/svc", ".agents", "skills"), j("/work/p", ".agents", "skills"),
				j("/work/p/svc/api", ".codex", "skills"), j("/work/p/svc", ".codex", "skills"), j("/work/p", ".codex", "skills"),
			},
			deprecs: []string{j("/work/p/svc/api", ".codex", "skills"), j("/work/p/svc", ".codex", "skills"), j("/work/p", ".codex", "skills")},
		},
		{
			agent: "codex", kind: format.KindSkill, scope: ScopeProject,
			env:     func() Env { e := testEnv(nil); e.WorkDir = "/elsewhere"; return e }(),
			want:    []string{j("/work/p", ".agents", "skills"), j("/work/p", ".codex", "skills")},
			deprecs: []string{j("/work/p", ".codex", "skills")},
		},
		{
			agent: "claude-code", kind: format.KindSkill, scope: ScopeGlobal,
			env:  testEnv(map[string]string{"CLAUDE_CONFIG_DIR": "/c"}),
			want: []string{j("/c", "skills")},
		},
		{
			// The real Copilot CLI reads no Claude folder at global scope,
			// wherever CLAUDE_CONFIG_DIR points.
			agent: "github-copilot", kind: format.KindSkill, scope: ScopeGlobal,
			env:  testEnv(map[string]string{"CLAUDE_CONFIG_DIR": "/c"}),
			want: []string{j("/home/u", ".copilot", "skills"), j("/home/u", ".agents", "skills")},
		},
		{
			agent: "goose", kind: format.KindSkill, scope: ScopeGlobal, env: testEnv(nil),
			want: []string{j("/home/u", ".config", "goose", "skills"), j("/home/u", ".config", "agents", "skills"), j("/home/u", ".claude", "skills")},
		},
		{
			agent: "codex", kind: format.KindSkill, scope: ScopeGlobal,
			env: func() Env {
				e := testEnv(nil)
				e.Overrides = map[string]RootOverride{"codex": {GlobalRoot: "/custom"}}
				return e
			}(),
			want:    []string{"/custom", j("/home/u", ".codex", "skills")},
			deprecs: []string{j("/home/u", ".codex", "skills")},
		},
		{agent: "codex", kind: format.KindCommand, scope: ScopeGlobal, env: testEnv(nil), want: []string{}},
	}
	for _, tc := range cases {
		a, _ := Default().Lookup(tc.agent)
		got := a.ReadRoots(tc.kind, tc.scope, tc.env)
		if !slices.Equal(got, tc.want) && !(len(got) == 0 && len(tc.want) == 0) {
			t.Errorf("%s.ReadRoots(%s, %s) = %q, want %q", tc.agent, tc.kind, tc.scope, got, tc.want)
		}
		var deprecs []string
		prefs := 0
		for _, r := range Roots(a, tc.kind, tc.scope, tc.env) {
			if r.Deprecated {
				deprecs = append(deprecs, r.Path)
			}
			if r.Preferred {
				prefs++
			}
		}
		if !slices.Equal(deprecs, tc.deprecs) {
			t.Errorf("Roots(%s, %s, %s) deprecated = %q, want %q", tc.agent, tc.kind, tc.scope, deprecs, tc.deprecs)
		}
		if len(tc.want) > 0 && prefs != 1 {
			t.Errorf("Roots(%s, %s, %s) has %d preferred roots, want 1", tc.agent, tc.kind, tc.scope, prefs)
		}
	}
}

// TestRootsCanonical checks that Roots reports each folder once through
// Env.Canonical, with the flags of every spec that names it merged: a
// deprecated root that is the preferred one by a link is not deprecated.
func TestRootsCanonical(t *testing.T) {
	j := filepath.Join
	env := testEnv(nil)
	env.Canonical = func(p string) string {
		if p == j("/work/p", ".codex", "skills") {
			return j("/work/p", ".agents", "skills")
		}
		return p
	}
	got := Roots(mustLookup(t, "codex"), format.KindSkill, ScopeProject, env)
	want := []Root{{Path: j("/work/p", ".agents", "skills"), Preferred: true}}
	if !slices.Equal(got, want) {
		t.Errorf("Roots(codex, skill, project) with .codex/skills -> .agents/skills = %+v, want %+v", got, want)
	}
	fake := Roots(fakeAdapter{root: "/r"}, format.KindSkill, ScopeGlobal, Env{Canonical: func(string) string { return "/real" }})
	if wantFake := []Root{{Path: "/real", Preferred: true}}; !slices.Equal(fake, wantFake) {
		t.Errorf("Roots(fake) with Canonical = %+v, want %+v", fake, wantFake)
	}
}

func TestRootsForeignAdapter(t *testing.T) {
	got := Roots(fakeAdapter{root: "/r"}, format.KindSkill, ScopeGlobal, Env{})
	want := []Root{{Path: "/r", Preferred: true}}
	if !slices.Equal(got, want) {
		t.Errorf("Roots(fake) = %+v, want %+v", got, want)
	}
	if r := SkipReason(fakeAdapter{}, format.KindSkill, ScopeGlobal, Env{}); r == "" {
		t.Errorf("SkipReason(fake without root) = \"\", want a reason")
	}
}

func TestLocationDest(t *testing.T) {
	cases := []struct {
		loc  Location
		want string
	}{
		{Location{Root: "/r", Shape: ShapeDirectory}, filepath.Join("/r", "x")},
		{Location{Root: "/r", Shape: ShapeFile, Extension: ".md"}, filepath.Join("/r", "x.md")},
	}
	for _, tc := range cases {
		if got := tc.loc.Dest("x"); got != tc.want {
			t.Errorf("%+v.Dest(%q) = %q, want %q", tc.loc, "x", got, tc.want)
		}
	}
}
