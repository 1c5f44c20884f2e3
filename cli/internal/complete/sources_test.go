package complete

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/posener/complete"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/cli/internal/workspace"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/resolve"
)

// machine returns a machine whose home is a fresh folder, with config
// (if not "") as its config.json, working in a project folder (a .git in
// it) below the home.
func machine(t *testing.T, config string) (*workspace.Machine, string) {
	t.Helper()
	base := t.TempDir()
	home := filepath.Join(base, "home")
	proj := filepath.Join(base, "proj")
	for _, d := range []string{filepath.Join(home, ".agent-skills"), filepath.Join(proj, ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if config != "" {
		write(t, filepath.Join(home, ".agent-skills", "config.json"), config)
	}
	env := map[string]string{"HOME": home, "AGENT_SKILLS_HOME": filepath.Join(home, ".agent-skills")}
	ws := &workspace.Machine{Getenv: func(k string) string { return env[k] }, Cwd: proj}
	ws.LoadAgents()
	return ws, proj
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestAgentNames(t *testing.T) {
	ws, _ := machine(t, `{"schemaVersion": 1, "registries": [],
 "agents": {"acme": {"displayName": "Acme Agent", "globalRoot": "~/.acme/skills", "projectRoot": ".acme/skills"}}}`)
	got := Sources{WS: ws}.AgentNames()
	for _, want := range []string{"all", "claude-code", "claude", "codex", "acme"} {
		if !slices.Contains(got, want) {
			t.Errorf("AgentNames() = %q, want it to hold %q", got, want)
		}
	}
	// A configuration that cannot be read leaves the built-in agents.
	ws, _ = machine(t, `{not json`)
	if got := (Sources{WS: ws}).AgentNames(); !slices.Contains(got, "claude-code") || slices.Contains(got, "acme") {
		t.Errorf("AgentNames() with a broken config.json = %q, want the built-in agents", got)
	}
}

func TestRegistryNames(t *testing.T) {
	ws, proj := machine(t, "")
	if got, want := (Sources{WS: ws}).RegistryNames(), []string{"bundled", "official"}; !slices.Equal(got, want) {
		t.Errorf("RegistryNames() without config.json = %q, want %q", got, want)
	}
	ws, proj = machine(t, `{"schemaVersion": 1, "registries": [
  {"name": "team", "url": "https://git.example.com/team.git", "kind": "git", "trusted": false},
  {"name": "bundled", "url": "bundled:", "kind": "bundled", "trusted": true}]}`)
	write(t, filepath.Join(proj, "skills-registries.json"), `{"schemaVersion": 1, "registries": [{"name": "shared", "url": "https://git.example.com/shared.git"}]}`)
	if got, want := (Sources{WS: ws}).RegistryNames(), []string{"team", "bundled", "shared"}; !slices.Equal(got, want) {
		t.Errorf("RegistryNames() with a project file = %q, want %q", got, want)
	}
	// A project file that cannot be used offers the user's registries.
	write(t, filepath.Join(proj, "skills-registries.json"), `{"schemaVersion": 1, "registries": [{"name": "Bad_Name", "url": "x"}]}`)
	if got, want := (Sources{WS: ws}).RegistryNames(), []string{"team", "bundled"}; !slices.Equal(got, want) {
		t.Errorf("RegistryNames() with a broken project file = %q, want %q", got, want)
	}
	ws, _ = machine(t, `{not json`)
	if got := (Sources{WS: ws}).RegistryNames(); got != nil {
		t.Errorf("RegistryNames() with a broken config.json = %q, want none", got)
	}
}

// installSkill installs a skill called name for Claude Code in scope, as
// the CLI does, and disables it when disabled is true.
func installSkill(t *testing.T, ws *workspace.Machine, scope agents.Scope, root, name string, disabled bool) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	write(t, filepath.Join(dir, "SKILL.md"), "---\nname: "+name+"\ndescription: Review code. Use on every pull request.\n---\nBody.\n")
	pkg, diags := format.Load(os.DirFS(dir), format.LoadOptions{})
	if pkg == nil {
		t.Fatalf("format.Load(%s) = %v", name, diags)
	}
	cfg, err := ws.LoadConfig()
	if err != nil {
		t.Fatal(err)
	}
	claude, err := ws.Table().Select([]string{"claude"})
	if err != nil {
		t.Fatal(err)
	}
	opts := install.Options{Scope: scope, Env: ws.AgentEnv(cfg, root), Agents: claude}
	ctx := context.Background()
	if _, err := install.Install(ctx, []install.Item{{Pkg: pkg, Dir: dir, Registry: "local", Role: resolve.RoleRequested}}, opts); err != nil {
		t.Fatal(err)
	}
	if disabled {
		if _, err := install.SetDisabled(ctx, []string{name}, true, opts); err != nil {
			t.Fatal(err)
		}
	}
}

func TestInstalledNames(t *testing.T) {
	ws, proj := machine(t, "")
	installSkill(t, ws, agents.ScopeGlobal, proj, "go-review", false)
	installSkill(t, ws, agents.ScopeGlobal, proj, "java-basics", true)
	installSkill(t, ws, agents.ScopeProject, proj, "team-style", false)
	// A folder without a receipt is not agent-skills': not offered.
	write(t, filepath.Join(proj, ".claude", "skills", "hand-made", "SKILL.md"), "---\nname: hand-made\ndescription: x\n---\n")
	tests := []struct {
		f    InstalledFilter
		want []string
	}{
		{InstalledFilter{}, []string{"go-review", "java-basics", "team-style"}},
		{InstalledFilter{Scope: agents.ScopeGlobal}, []string{"go-review", "java-basics"}},
		{InstalledFilter{Scope: agents.ScopeProject}, []string{"team-style"}},
		{InstalledFilter{Want: WantDisabled}, []string{"java-basics"}},
		{InstalledFilter{Want: WantEnabled}, []string{"go-review", "team-style"}},
		{InstalledFilter{ProjectRoot: "missing"}, nil},
	}
	for _, tt := range tests {
		got := Sources{WS: ws}.InstalledNames(context.Background(), tt.f)
		slices.Sort(got)
		if !slices.Equal(got, tt.want) {
			t.Errorf("InstalledNames(%+v) = %q, want %q", tt.f, got, tt.want)
		}
	}
	// A run out of time offers nothing rather than waiting.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got := (Sources{WS: ws}).InstalledNames(ctx, InstalledFilter{}); len(got) != 0 {
		t.Errorf("InstalledNames(cancelled) = %q, want none", got)
	}

	// Through the predictors: the command and the flags typed decide.
	for line, want := range map[string][]string{
		"agent-skills uninstall ":                          {"go-review", "java-basics", "team-style"},
		"agent-skills enable ":                             {"java-basics"},
		"agent-skills disable --global ":                   {"go-review"},
		"agent-skills update --project-root=. --project ":  {"team-style"},
		"agent-skills outdated --project-root ../nowhere ": nil,
	} {
		r := Request{Line: line}
		got := Sources{WS: ws}.Predictors(context.Background(), r)[PredictInstalled].Predict(r.Args())
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("installed predictor for %q = %q, want %q", line, got, want)
		}
	}
}

func TestCommaList(t *testing.T) {
	p := commaList(func() []string { return []string{"claude", "codex"} })
	for last, want := range map[string][]string{
		"":          {"claude", "codex"},
		"cl":        {"claude", "codex"},
		"claude,":   {"claude,claude", "claude,codex"},
		"claude,co": {"claude,claude", "claude,codex"},
		"a,b,":      {"a,b,claude", "a,b,codex"},
	} {
		if got := p.Predict(complete.Args{Last: last}); !slices.Equal(got, want) {
			t.Errorf("commaList.Predict(Last=%q) = %q, want %q", last, got, want)
		}
	}
}
