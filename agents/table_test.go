package agents

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/format"
)

func TestAllOrder(t *testing.T) {
	want := []string{"claude-code", "codex", "github-copilot", "gemini-cli", "cursor", "opencode", "windsurf", "goose", "amp"}
	if got := Default().IDs(); !slices.Equal(got, want) {
		t.Errorf("Default().IDs() = %q, want %q", got, want)
	}
	var ids []string
	for _, a := range Default().All() {
		ids = append(ids, a.ID())
	}
	if !slices.Equal(ids, want) {
		t.Errorf("Default().All() ids = %q, want %q", ids, want)
	}
}

// TestTableConsistent checks the invariants every table row must keep.
func TestTableConsistent(t *testing.T) {
	env := testEnv(nil)
	rootShape := map[string]Location{}
	for _, a := range Default().All() {
		row := a.(*tableAdapter).row
		if row.displayName == "" {
			t.Errorf("%s has no display name", row.id)
		}
		if len(row.executables) == 0 || len(row.configDirs) == 0 || len(row.markers) == 0 {
			t.Errorf("%s lacks detection evidence (executables, config dirs or markers)", row.id)
		}
		if _, ok := row.kinds[format.KindSkill]; !ok {
			t.Errorf("%s has no skill location", row.id)
		}
		for _, kind := range format.Kinds() {
			spec, ok := row.kinds[kind]
			if !ok {
				if row.skipReasons[kind] == "" {
					t.Errorf("%s has no %s location and no reason for it", row.id, kind)
				}
				continue
			}
			for _, scope := range []Scope{ScopeGlobal, ScopeProject} {
				specs := spec.global
				if scope == ScopeProject {
					specs = spec.project
				}
				if !slices.ContainsFunc(specs, func(s rootSpec) bool { return !s.compat }) {
					// Read only from other agents' folders (Copilot's
					// commands): no location of its own, and a reason.
					if _, ok := a.LocationFor(kind, scope, env); ok || row.skipReasons[kind] == "" {
						t.Errorf("%s %s %s reads only other agents' roots: want no location and a reason, got location %v, reason %q",
							row.id, kind, scope, ok, row.skipReasons[kind])
					}
					for _, r := range a.ReadRoots(kind, scope, env) {
						want := Location{Root: r, Shape: spec.shape, Extension: spec.ext}
						if prev, seen := rootShape[r]; seen && prev != want {
							t.Errorf("root %s is read as %+v and as %+v", r, prev, want)
						}
						rootShape[r] = want
					}
					continue
				}
				if preferredIndex(specs) != 0 {
					t.Errorf("%s %s %s: the first root must be the preferred one", row.id, kind, scope)
				}
				loc, ok := a.LocationFor(kind, scope, env)
				if !ok {
					t.Errorf("%s.LocationFor(%s, %s) = none, want a location", row.id, kind, scope)
					continue
				}
				if !slices.Contains(a.ReadRoots(kind, scope, env), loc.Root) {
					t.Errorf("%s writes %s to %s, which it does not read", row.id, kind, loc.Root)
				}
				for _, r := range a.ReadRoots(kind, scope, env) {
					want := Location{Root: r, Shape: loc.Shape, Extension: loc.Extension}
					if prev, seen := rootShape[r]; seen && prev != want {
						t.Errorf("root %s is read as %+v and as %+v", r, prev, want)
					}
					rootShape[r] = want
				}
			}
		}
	}
}

func TestLookup(t *testing.T) {
	cases := []struct {
		in   string
		want string
		hint string
	}{
		{"claude-code", "claude-code", ""},
		{"claude", "claude-code", ""},
		{"CLAUDE", "claude-code", ""},
		{" codex ", "codex", ""},
		{"copilot", "github-copilot", ""},
		{"gemini", "gemini-cli", ""},
		{"amp", "amp", ""},
		{"cluade", "", "use --agent claude, the nearest known name"},
		{"codx", "", "use --agent codex, the nearest known name"},
		{"vim", "", ""},
		{"all", "", ""},
	}
	for _, tc := range cases {
		a, err := Default().Lookup(tc.in)
		if tc.want != "" {
			if err != nil || a.ID() != tc.want {
				t.Errorf("Default().Lookup(%q) = %v, %v, want %s", tc.in, a, err, tc.want)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) || e.ErrorCode() != "ASK_AGENT_UNKNOWN" {
			t.Fatalf("Default().Lookup(%q) error = %v, want ASK_AGENT_UNKNOWN", tc.in, err)
		}
		detail := strings.Join(e.ErrorDetail(), "\n")
		for _, id := range Default().IDs() {
			if !strings.Contains(detail, id) {
				t.Errorf("Default().Lookup(%q) detail = %q, want it to list %s", tc.in, detail, id)
			}
		}
		hints := strings.Join(e.ErrorTry(), "\n")
		if tc.hint != "" && e.ErrorTry()[0] != tc.hint {
			t.Errorf("Default().Lookup(%q) first hint = %q, want %q", tc.in, e.ErrorTry()[0], tc.hint)
		}
		if tc.hint == "" && strings.Contains(hints, "nearest known name") {
			t.Errorf("Default().Lookup(%q) hints = %q, want no suggestion", tc.in, hints)
		}
		checkActions(t, "Default().Lookup("+tc.in+")", e)
	}
}

func TestSelect(t *testing.T) {
	cases := []struct {
		in      []string
		want    []string
		wantErr bool
	}{
		{[]string{"codex", "claude"}, []string{"claude-code", "codex"}, false},
		{[]string{"codex,claude-code", "claude"}, []string{"claude-code", "codex"}, false},
		{[]string{"all"}, Default().IDs(), false},
		{[]string{"codex", "ALL"}, Default().IDs(), false},
		{[]string{"all", "nope"}, nil, true},
		{[]string{"nope"}, nil, true},
		{nil, nil, false},
	}
	for _, tc := range cases {
		got, err := Default().Select(tc.in)
		if (err != nil) != tc.wantErr {
			t.Errorf("Select(%q) error = %v, want error %v", tc.in, err, tc.wantErr)
			continue
		}
		var ids []string
		for _, a := range got {
			ids = append(ids, a.ID())
		}
		if !slices.Equal(ids, tc.want) {
			t.Errorf("Select(%q) = %q, want %q", tc.in, ids, tc.want)
		}
	}
}

func TestNewTableRejectsClashes(t *testing.T) {
	cases := []struct {
		name     string
		adapters []Adapter
	}{
		{"duplicate id", []Adapter{fakeAdapter{id: "x"}, fakeAdapter{id: "x"}}},
		{"id clashes with alias", append(Default().All(), fakeAdapter{id: "claude"})},
		{"reserved all", []Adapter{fakeAdapter{id: "all"}}},
	}
	for _, tc := range cases {
		if _, err := NewTable(tc.adapters...); err == nil {
			t.Errorf("NewTable(%s) error = nil, want one", tc.name)
		}
	}
	if _, err := NewTable(fakeAdapter{id: "x"}, fakeAdapter{id: "y"}); err != nil {
		t.Errorf("NewTable(x, y) error = %v, want nil", err)
	}
}

func TestOverrideKeys(t *testing.T) {
	keys := Default().OverrideKeys()
	if got := keys["codex"]; !slices.Equal(got, []string{"interface"}) {
		t.Errorf("OverrideKeys()[codex] = %q, want [interface]", got)
	}
	if got := keys["claude-code"]; len(got) != 0 {
		t.Errorf("OverrideKeys()[claude-code] = %q, want none", got)
	}
	if len(keys) != len(Default().All()) {
		t.Errorf("OverrideKeys() has %d agents, want %d", len(keys), len(Default().All()))
	}
	// The returned slices are copies: changing one changes nothing.
	a, _ := Default().Lookup("codex")
	a.OverrideKeys()[0] = "changed"
	if got := a.OverrideKeys()[0]; got != "interface" {
		t.Errorf("OverrideKeys() after mutating a copy = %q, want interface", got)
	}
}

func TestNoAgentError(t *testing.T) {
	codex, _ := Default().Lookup("codex")
	e := NoAgentError(Default().All(), []Adapter{codex})
	if e.ErrorCode() != "ASK_NO_AGENT" {
		t.Errorf("NoAgentError() code = %s, want ASK_NO_AGENT", e.ErrorCode())
	}
	hints := strings.Join(e.ErrorTry(), "\n")
	for _, want := range []string{"--agent codex", "--agent all"} {
		if !strings.Contains(hints, want) {
			t.Errorf("NoAgentError() hints = %q, want them to mention %q", hints, want)
		}
	}
	detail := strings.Join(e.ErrorDetail(), "\n")
	for _, want := range []string{"Codex left a project marker only", "claude-code", "amp"} {
		if !strings.Contains(detail, want) {
			t.Errorf("NoAgentError() detail = %q, want it to mention %q", detail, want)
		}
	}
	if e.Error() != e.Message {
		t.Errorf("NoAgentError().Error() = %q, want the message %q alone", e.Error(), e.Message)
	}
	checkActions(t, "NoAgentError()", e)
}

func TestProjectMarkers(t *testing.T) {
	got := Default().ProjectMarkers()
	for _, want := range []string{".agents", ".claude", ".gemini"} {
		if !slices.Contains(got, want) {
			t.Errorf("ProjectMarkers() = %v, want it to contain %q", got, want)
		}
	}
	if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) {
		t.Errorf("ProjectMarkers() = %v, want sorted without repeats", got)
	}
}

// checkActions fails when a hint of e is not an action: hints never start
// with "Try:" (the renderer writes it) and never state a fact, which
// belongs in Detail.
func checkActions(t *testing.T, what string, e *Error) {
	t.Helper()
	for _, h := range e.ErrorTry() {
		if strings.HasPrefix(h, "Try:") || strings.HasPrefix(h, "Nothing ") || strings.HasSuffix(h, ".") {
			t.Errorf("%s hint %q is not an action", what, h)
		}
	}
}
