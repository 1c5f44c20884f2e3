package agents

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/format"
)

func TestAllOrder(t *testing.T) {
	want := []string{
		"claude-code", "codex", "github-copilot", "gemini-cli", "cursor", "opencode", "windsurf", "goose", "amp",
		"cline", "kilo-code", "roo-code", "kiro-cli", "qwen-code", "factory-droid", "continue", "junie",
		"augment", "openhands", "warp", "zed", "crush", "mistral-vibe", "kimi-cli", "pi",
	}
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
		// Detection evidence is what each agent's source names. Every row
		// but Junie has strong evidence (an executable or a config folder);
		// Junie, whose only sourced folder is .junie/skills, is found by its
		// project marker and selected with --agent. Zed has no marker: its
		// .zed folder holds editor settings (see the row).
		if len(row.executables)+len(row.configDirs) == 0 && row.id != "junie" {
			t.Errorf("%s has no strong detection evidence (executables or config dirs)", row.id)
		}
		if len(row.markers) == 0 && row.id != "zed" {
			t.Errorf("%s has no project marker", row.id)
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
				if len(specs) == 0 {
					// A scope nobody could source is skipped, saying why.
					reason := spec.skips[scope]
					if got := SkipReason(a, kind, scope, env); reason == "" || got != reason {
						t.Errorf("%s %s %s has no roots; SkipReason = %q, want the row's reason %q", row.id, kind, scope, got, reason)
					}
					continue
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

// TestNamesUnique checks that no id or alias of the table names two
// agents, ignoring case, and that the issue-16 agents answer to the names
// their users type.
func TestNamesUnique(t *testing.T) {
	seen := map[string]string{}
	for _, a := range Default().All() {
		for _, name := range append([]string{a.ID()}, a.Aliases()...) {
			key := strings.ToLower(name)
			if prev, dup := seen[key]; dup {
				t.Errorf("%q names both %s and %s", name, prev, a.ID())
			}
			seen[key] = a.ID()
		}
	}
	for alias, id := range map[string]string{
		"kilo": "kilo-code", "roo": "roo-code", "kiro": "kiro-cli", "qwen": "qwen-code", "droid": "factory-droid",
		"auggie": "augment", "vibe": "mistral-vibe", "kimi": "kimi-cli",
	} {
		if a, err := Default().Lookup(alias); err != nil || a.ID() != id {
			t.Errorf("Default().Lookup(%q) = %v, %v, want %s", alias, a, err, id)
		}
	}
}

// verified are the rows proven against the real binaries by
// scripts/e2e-agents.sh, with the versions of scripts/agent-versions.
var verified = []string{"claude-code", "codex", "github-copilot", "gemini-cli", "opencode"}

// verifiedStatus is the form of their status.
var verifiedStatus = regexp.MustCompile(`^verified [A-Z][\w ]+ \d+\.\d+\.\d+ \(agent-oracle, \d{4}-\d\d-\d\d`)

// citation matches a source a status can cite: a web page, a repository
// at a full commit, a published package at a version, or the verified
// table in ../shared.
var citation = regexp.MustCompile(`https://[^ ]+|[\w.-]+/[\w.-]+@[0-9a-f]{40}|@?[\w.-]+(/[\w.-]+)?@\d+\.\d+\.\d+|AGENT-PATHS\.md`)

// TestRowsCiteTheirSource checks that every row says whether it is
// verified or documented, and where it comes from.
func TestRowsCiteTheirSource(t *testing.T) {
	for _, a := range Default().All() {
		st := Status(a)
		if slices.Contains(verified, a.ID()) != verifiedStatus.MatchString(st) {
			t.Errorf("Status(%s) = %q: only the rows proven by scripts/e2e-agents.sh (%v) say \"verified <agent> <version> (agent-oracle, <date>…\"", a.ID(), st, verified)
		}
		switch {
		case strings.HasPrefix(st, "verified "):
		case strings.HasPrefix(st, "documented: ") && citation.MatchString(st):
		default:
			t.Errorf("Status(%s) = %q, want \"verified <agent> <version>\" or \"documented: <source>\"", a.ID(), st)
		}
	}
	if got := Status(fakeAdapter{id: "x"}); got != "" {
		t.Errorf("Status(foreign adapter) = %q, want empty", got)
	}
}

// unownedCompat are the folders Warp reads for agents whose rows use other
// folders; no row writes them, so nothing is ever installed there for
// Warp.
var unownedCompat = []string{
	"/work/p/.copilot/skills", "/home/u/.github/skills",
}

// TestCompatRootsBelongToAnotherRow checks that every root a row reads
// for another agent's sake is a root that other agent reads as its own
// (possibly deprecated) — so it is written only when that agent is
// selected — and that the shared .agents folders are never compat.
func TestCompatRootsBelongToAnotherRow(t *testing.T) {
	env := testEnv(nil)
	owners := map[string][]string{}
	for _, a := range Default().All() {
		for _, scope := range []Scope{ScopeGlobal, ScopeProject} {
			for _, s := range a.(*tableAdapter).specs(format.KindSkill, scope, env) {
				if !s.compat {
					owners[s.resolve(env)] = append(owners[s.resolve(env)], a.ID())
				}
			}
		}
	}
	shared := []string{"/home/u/.agents/skills", "/work/p/.agents/skills", "/home/u/.config/agents/skills"}
	for _, a := range Default().All() {
		for _, scope := range []Scope{ScopeGlobal, ScopeProject} {
			for _, s := range a.(*tableAdapter).specs(format.KindSkill, scope, env) {
				p := s.resolve(env)
				if !s.compat {
					continue
				}
				if slices.Contains(shared, p) {
					t.Errorf("%s reads the shared %s as compat; any reader may write it", a.ID(), p)
				}
				others := slices.DeleteFunc(slices.Clone(owners[p]), func(id string) bool { return id == a.ID() })
				if len(others) == 0 && !slices.Contains(unownedCompat, p) {
					t.Errorf("%s reads %s for another agent's sake, but no other row reads it as its own", a.ID(), p)
				}
				if len(others) > 0 && slices.Contains(unownedCompat, p) {
					t.Errorf("%s is listed as unowned, but %q read it as their own", p, others)
				}
			}
		}
	}
}

// TestProjectMarkersAreAgentFolders checks that no marker is a name too
// generic to mean "an agent project": the CLI takes the nearest folder
// holding one as the project root (workspace.Machine.ProjectRoot), so a
// marker such as .config or usr would make the home folder's parent or
// / a project.
func TestProjectMarkersAreAgentFolders(t *testing.T) {
	generic := []string{
		".config", ".local", ".cache", ".npm", ".ssh", ".git", ".github", ".vscode", ".idea", ".zed", ".agent",
		".warp", "bin", "etc", "home", "lib", "opt", "root", "tmp", "usr", "var", "Library", "Documents",
	}
	for _, m := range Default().ProjectMarkers() {
		if slices.Contains(generic, m) || strings.HasPrefix(m, "/") || strings.Contains(m, "..") {
			t.Errorf("ProjectMarkers() holds %q, which does not mean an agent project", m)
		}
		if !strings.HasPrefix(m, ".") && !strings.HasSuffix(m, ".md") && !strings.HasSuffix(m, ".json") {
			t.Errorf("ProjectMarkers() holds %q: a marker is an agent's dot-folder or its own file", m)
		}
	}
}

// TestProjectCaveat checks the agents that see project skills only under
// a condition say so, and the others say nothing.
func TestProjectCaveat(t *testing.T) {
	for id, want := range map[string]string{
		"gemini-cli": "trusted", "zed": "trusted", "mistral-vibe": "trusted",
		"qwen-code": "started in", "continue": "started in", "pi": "started in",
	} {
		if got := ProjectCaveat(mustLookup(t, id)); !strings.Contains(got, want) {
			t.Errorf("ProjectCaveat(%s) = %q, want it to mention %q", id, got, want)
		}
	}
	for _, id := range []string{"claude-code", "codex", "github-copilot", "cline", "crush", "warp"} {
		if got := ProjectCaveat(mustLookup(t, id)); got != "" {
			t.Errorf("ProjectCaveat(%s) = %q, want none", id, got)
		}
	}
	if got := ProjectCaveat(fakeAdapter{id: "x"}); got != "" {
		t.Errorf("ProjectCaveat(foreign adapter) = %q, want empty", got)
	}
}
