package workspace

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/validate"
)

// machine is a Machine in a fresh folder with a home and a project.
func machine(t *testing.T, env map[string]string) (*Machine, string, string) {
	t.Helper()
	base := t.TempDir()
	home, proj := filepath.Join(base, "home"), filepath.Join(base, "proj")
	for _, d := range []string{home, proj} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	vars := map[string]string{"HOME": home}
	for k, v := range env {
		vars[k] = v
	}
	return &Machine{Getenv: func(k string) string { return vars[k] }, Cwd: proj}, home, proj
}

func TestDecideScope(t *testing.T) {
	tests := []struct {
		name  string
		setup func(proj string)
		req   ScopeRequest
		want  agents.Scope
		code  string
	}{
		{"nothing: global", nil, ScopeRequest{}, agents.ScopeGlobal, ""},
		{"a git repository alone stays global", func(p string) { os.Mkdir(filepath.Join(p, ".git"), 0o755) }, ScopeRequest{}, agents.ScopeGlobal, ""},
		{"a lock makes a project", func(p string) { os.WriteFile(filepath.Join(p, LockFileName), nil, 0o644) }, ScopeRequest{}, agents.ScopeProject, ""},
		{"an agent folder makes a project", func(p string) { os.Mkdir(filepath.Join(p, ".claude"), 0o755) }, ScopeRequest{}, agents.ScopeProject, ""},
		{"a registries file makes a project", func(p string) { os.WriteFile(filepath.Join(p, "skills-registries.json"), nil, 0o644) }, ScopeRequest{}, agents.ScopeProject, ""},
		{"--global wins", func(p string) { os.Mkdir(filepath.Join(p, ".claude"), 0o755) }, ScopeRequest{Global: true}, agents.ScopeGlobal, ""},
		{"--project in a repository", func(p string) { os.Mkdir(filepath.Join(p, ".git"), 0o755) }, ScopeRequest{Project: true}, agents.ScopeProject, ""},
		{"--project with no project", nil, ScopeRequest{Project: true}, "", askerr.CodeUsage},
		{"both flags", nil, ScopeRequest{Global: true, Project: true}, "", askerr.CodeUsage},
	}
	for _, tt := range tests {
		m, _, proj := machine(t, nil)
		if tt.setup != nil {
			tt.setup(proj)
		}
		sc, err := m.DecideScope(tt.req)
		if tt.code != "" {
			if askerr.CodeOf(err) != tt.code {
				t.Errorf("%s: DecideScope = %v, want %s", tt.name, err, tt.code)
			}
			continue
		}
		if err != nil || sc.Kind != tt.want {
			t.Errorf("%s: DecideScope = %v, %v; want %s", tt.name, sc, err, tt.want)
		}
		if sc.Project() != (sc.Root == proj) || (sc.Project() && sc.LockPath() != filepath.Join(proj, LockFileName)) {
			t.Errorf("%s: scope %+v has the wrong root or lock path", tt.name, sc)
		}
	}
}

func TestProjectRoot(t *testing.T) {
	m, home, proj := machine(t, nil)
	os.Mkdir(filepath.Join(proj, ".git"), 0o755)
	sub := filepath.Join(proj, "a", "b")
	os.MkdirAll(sub, 0o755)
	m.Cwd = sub
	if got, err := m.ProjectRoot(""); err != nil || got != proj {
		t.Errorf("ProjectRoot from a sub-folder = %q, %v; want %q", got, err, proj)
	}
	// The home folder is never a project, even with a .git in it.
	os.Mkdir(filepath.Join(home, ".git"), 0o755)
	m.Cwd = home
	if got, err := m.ProjectRoot(""); err != nil || got != "" {
		t.Errorf("ProjectRoot in home = %q, %v; want none", got, err)
	}
	for _, explicit := range []string{home, filepath.Join(proj, "missing")} {
		if _, err := m.ProjectRoot(explicit); askerr.CodeOf(err) != askerr.CodeUsage {
			t.Errorf("ProjectRoot(%q) = %v, want ASK_USAGE", explicit, err)
		}
	}
	if got, err := m.ProjectRoot(proj); err != nil || got != proj {
		t.Errorf("ProjectRoot(explicit) = %q, %v", got, err)
	}
}

func TestScopeStringAndRunKey(t *testing.T) {
	m, home, _ := machine(t, nil)
	g, p := Scope{Kind: agents.ScopeGlobal}, Scope{Kind: agents.ScopeProject, Root: "/x/p"}
	if g.String() != "global" || p.String() != "project /x/p" || g.LockPath() != "" {
		t.Errorf("String/LockPath = %q %q %q", g.String(), p.String(), g.LockPath())
	}
	if RunKey(g) != "global" || len(RunKey(p)) != 16 || RunKey(p) == RunKey(Scope{Kind: agents.ScopeProject, Root: "/x/q"}) {
		t.Errorf("RunKey = %q %q", RunKey(g), RunKey(p))
	}
	if got, want := m.RunLockPath(p), filepath.Join(home, ".agent-skills", "locks", RunKey(p)+".lock"); got != want {
		t.Errorf("RunLockPath = %q, want %q", got, want)
	}
}

func TestHomesAndOffline(t *testing.T) {
	m, home, _ := machine(t, map[string]string{"AGENT_SKILLS_OFFLINE": "1"})
	if m.Home() != filepath.Join(home, ".agent-skills") || m.CacheDir() != filepath.Join(home, ".agent-skills", "cache") ||
		m.ConfigPath() != filepath.Join(home, ".agent-skills", "config.json") {
		t.Errorf("Home, CacheDir, ConfigPath = %q %q %q", m.Home(), m.CacheDir(), m.ConfigPath())
	}
	if !m.Offline() {
		t.Errorf("Offline() = false with AGENT_SKILLS_OFFLINE=1")
	}
	m2, _, _ := machine(t, map[string]string{"AGENT_SKILLS_HOME": "/elsewhere"})
	if m2.Home() != "/elsewhere" || m2.Offline() {
		t.Errorf("AGENT_SKILLS_HOME: Home() = %q, Offline() = %v", m2.Home(), m2.Offline())
	}
	m2.OfflineFlag = true
	if !m2.Offline() {
		t.Errorf("--offline: Offline() = false")
	}
}

// TestLookPathSkipsTheProject: an executable reached through a relative
// PATH entry, an entry inside the project or the working folder, or a
// link into them is never found (issue 11, B16).
func TestLookPathSkipsTheProject(t *testing.T) {
	m, home, proj := machine(t, nil)
	os.Mkdir(filepath.Join(proj, ".git"), 0o755)
	write := func(dir string) {
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "claude"), []byte("#!/bin/sh\n"), 0o755)
	}
	inProj := filepath.Join(proj, "node_modules", ".bin")
	write(inProj)
	trusted := filepath.Join(filepath.Dir(home), "bin")
	os.MkdirAll(trusted, 0o755)
	linkDir := filepath.Join(filepath.Dir(home), "links")
	os.MkdirAll(linkDir, 0o755)
	os.Symlink(filepath.Join(inProj, "claude"), filepath.Join(linkDir, "claude"))
	for _, path := range []string{"node_modules/.bin", inProj, linkDir} {
		m.Getenv = func(k string) string {
			return map[string]string{"HOME": home, "PATH": path}[k]
		}
		if got, err := m.LookPath("claude"); err == nil {
			t.Errorf("LookPath with PATH=%s = %q, want not found", path, got)
		}
	}
	write(trusted)
	m.Getenv = func(k string) string { return map[string]string{"HOME": home, "PATH": inProj + ":" + trusted}[k] }
	if got, err := m.LookPath("claude"); err != nil || got != filepath.Join(trusted, "claude") {
		t.Errorf("LookPath = %q, %v; want the one outside the project", got, err)
	}
}

func TestSplitSources(t *testing.T) {
	m, _, proj := machine(t, nil)
	os.MkdirAll(filepath.Join(proj, "local-skill"), 0o755)
	srcs, rest, err := m.SplitSources([]string{"java-basics@^1", "./local-skill", "owner/repo", "team:x"})
	if err != nil {
		t.Fatal(err)
	}
	var inputs []string
	for _, s := range srcs {
		inputs = append(inputs, s.Input)
	}
	if strings.Join(inputs, ",") != "./local-skill,owner/repo" || strings.Join(rest, ",") != "java-basics@^1,team:x" {
		t.Errorf("SplitSources = %v, %v", inputs, rest)
	}
}

func TestConfiguredAndAgents(t *testing.T) {
	m, home, proj := machine(t, nil)
	set, cfg, err := m.Configured()
	if err != nil || len(set.Registries()) != len(cfg.Registries) {
		t.Fatalf("Configured() = %v, %v", set, err)
	}
	os.MkdirAll(filepath.Join(home, ".claude"), 0o755)
	env := m.AgentEnv(cfg, proj)
	sel, _, err := m.SelectAgents(t.Context(), cfg, nil, env)
	if err != nil || len(sel) != 1 || sel[0].ID() != "claude-code" {
		t.Errorf("SelectAgents = %v, %v; want claude-code, the one detected", sel, err)
	}
	if seen, err := m.SeenAgents(t.Context(), cfg, []string{"codex"}, env); err != nil || seen[0].ID() != "codex" {
		t.Errorf("SeenAgents(codex) = %v, %v", seen, err)
	}
	if len(m.OverrideKeys()) == 0 || m.ValidateOptions(true).OverrideKeys == nil || m.ValidateOptions(true).Gate != validate.GateStrict || m.ValidateOptions(false).Gate != validate.GateDefault {
		t.Errorf("OverrideKeys/ValidateOptions are empty")
	}
	if _, _, err := m.ConfigAndProject(""); err != nil {
		t.Errorf("ConfigAndProject = %v", err)
	}
}

// TestAgentVersions: the versions detection read are reused, an agent
// named with --agent (no report) is detected for its version, and an
// agent whose version cannot be read is left out.
func TestAgentVersions(t *testing.T) {
	m, _, _ := machine(t, nil)
	tbl := agents.Default()
	sel, err := tbl.Select([]string{"claude", "codex", "gemini"})
	if err != nil {
		t.Fatal(err)
	}
	var asked []string
	env := agents.Env{
		LookPath: func(file string) (string, error) {
			if file == "codex" {
				return "/opt/bin/codex", nil
			}
			return "", os.ErrNotExist
		},
		Version: func(_ context.Context, id, exe string) (string, error) {
			asked = append(asked, id)
			return "0.2.0", nil
		},
	}
	reports := []agents.Report{{Adapter: sel[0], Detection: agents.Detection{Version: "2.1.0"}}}
	got := m.AgentVersions(context.Background(), sel, reports, env)
	if len(got) != 2 || got["claude-code"] != "2.1.0" || got["codex"] != "0.2.0" {
		t.Errorf("AgentVersions = %v, want claude-code 2.1.0 (from its report) and codex 0.2.0 (detected), no gemini-cli", got)
	}
	if strings.Join(asked, ",") != "codex" {
		t.Errorf("AgentVersions asked %v for a version, want only codex", asked)
	}
}

// TestAgentFoldersInHomeMakeNoProject checks that the agents' project
// markers, which are often also the names of their folders in the home
// folder (~/.kiro, ~/.continue, ~/.factory, …), never make the home folder
// or a plain folder below it a project.
func TestAgentFoldersInHomeMakeNoProject(t *testing.T) {
	m, home, _ := machine(t, nil)
	markers := m.Table().ProjectMarkers()
	if len(markers) < 30 {
		t.Fatalf("ProjectMarkers() = %q, want the whole table's", markers)
	}
	for _, mk := range markers {
		if err := os.MkdirAll(filepath.Join(home, filepath.FromSlash(mk)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	plain := filepath.Join(home, "notes", "2026")
	if err := os.MkdirAll(plain, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, cwd := range []string{home, plain} {
		m.Cwd = cwd
		if got, err := m.ProjectRoot(""); err != nil || got != "" {
			t.Errorf("ProjectRoot from %s = %q, %v; want none", cwd, got, err)
		}
		if sc, err := m.DecideScope(ScopeRequest{}); err != nil || sc.Kind != agents.ScopeGlobal {
			t.Errorf("DecideScope from %s = %+v, %v; want global", cwd, sc, err)
		}
	}
	// Each new agent's folder still marks a real project below home.
	for _, mk := range []string{".kiro", ".continue", ".factory", ".crush", ".warp/skills"} {
		proj := filepath.Join(home, "code", strings.NewReplacer("/", "-", ".", "").Replace(mk))
		if err := os.MkdirAll(filepath.Join(proj, filepath.FromSlash(mk)), 0o755); err != nil {
			t.Fatal(err)
		}
		m.Cwd = proj
		if got, err := m.ProjectRoot(""); err != nil || got != proj {
			t.Errorf("ProjectRoot in a project with %s = %q, %v; want %q", mk, got, err, proj)
		}
	}
}
