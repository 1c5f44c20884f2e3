package agents

import (
	"context"
	"io/fs"
	"path"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/format"
)

// dirsEnv is testEnv with the given absolute folders existing on disk.
func dirsEnv(vars map[string]string, dirs ...string) Env {
	files := fstest.MapFS{}
	for _, d := range dirs {
		files[strings.TrimPrefix(d, "/")] = &fstest.MapFile{Mode: fs.ModeDir | 0o755}
	}
	env := testEnv(vars)
	env.Stat = func(name string) (fs.FileInfo, error) {
		return fs.Stat(files, strings.TrimPrefix(path.Clean(name), "/"))
	}
	return env
}

// TestRowRoots checks the read roots and the preferred root of the
// issue-16 rows where they differ from a plain list: environment variables
// that move an agent's folder, Crush's $CRUSH_SKILLS_DIR replacing every
// global root, Kimi reading only the first existing of its generic roots,
// roots read in the start folder and at the project root, and walk-ups.
func TestRowRoots(t *testing.T) {
	sub := func(vars map[string]string) Env { e := testEnv(vars); e.WorkDir = "/work/p/a/b"; return e }
	cases := []struct {
		name, agent string
		scope       Scope
		env         Env
		want        []string // ReadRoots; the first is LocationFor's root unless pref is set
		pref        string
	}{
		{"cline", "cline", ScopeGlobal, testEnv(nil),
			[]string{"/home/u/.cline/skills", "/home/u/.agents/skills"}, ""},
		{"cline CLINE_DIR", "cline", ScopeGlobal, testEnv(map[string]string{"CLINE_DIR": "/c"}),
			[]string{"/c/skills", "/home/u/.agents/skills"}, ""},
		{"cline project", "cline", ScopeProject, testEnv(nil),
			[]string{"/work/p/.cline/skills", "/work/p/.clinerules/skills", "/work/p/.agents/skills"}, ""},
		{"qwen QWEN_HOME", "qwen-code", ScopeGlobal, testEnv(map[string]string{"QWEN_HOME": "/q"}),
			[]string{"/q/skills", "/home/u/.agents/skills"}, ""},
		{"vibe VIBE_HOME", "mistral-vibe", ScopeGlobal, testEnv(map[string]string{"VIBE_HOME": "/v"}),
			[]string{"/v/skills", "/home/u/.agents/skills"}, ""},
		{"pi", "pi", ScopeGlobal, testEnv(nil),
			[]string{"/home/u/.pi/agent/skills", "/home/u/.agents/skills"}, ""},
		{"pi PI_CODING_AGENT_DIR", "pi", ScopeGlobal, testEnv(map[string]string{"PI_CODING_AGENT_DIR": "/pi"}),
			[]string{"/pi/skills", "/home/u/.agents/skills"}, ""},
		{"pi project from a subfolder", "pi", ScopeProject, sub(nil),
			[]string{"/work/p/.pi/skills", "/work/p/a/b/.agents/skills", "/work/p/a/.agents/skills", "/work/p/.agents/skills"}, ""},
		{"continue CONTINUE_GLOBAL_DIR", "continue", ScopeGlobal, testEnv(map[string]string{"CONTINUE_GLOBAL_DIR": "/cont"}),
			[]string{"/cont/skills"}, ""},
		{"continue project", "continue", ScopeProject, testEnv(nil),
			[]string{"/work/p/.continue/skills", "/work/p/.claude/skills"}, ""},
		{"kilo", "kilo-code", ScopeGlobal, testEnv(nil),
			[]string{"/home/u/.kilo/skills", "/home/u/.config/kilo/skills", "/home/u/.kilocode/skills", "/home/u/.agents/skills"}, ""},
		{"kilo KILO_CONFIG_DIR and XDG_CONFIG_HOME", "kilo-code", ScopeGlobal,
			testEnv(map[string]string{"KILO_CONFIG_DIR": "/k", "XDG_CONFIG_HOME": "/x"}),
			[]string{"/home/u/.kilo/skills", "/x/kilo/skills", "/home/u/.kilocode/skills", "/k/skills", "/home/u/.agents/skills"}, ""},
		{"factory", "factory-droid", ScopeGlobal, testEnv(nil),
			[]string{"/home/u/.factory/skills", "/home/u/.agents/skills", "/home/u/.agent/skills"}, ""},
		{"factory FACTORY_HOME_OVERRIDE", "factory-droid", ScopeGlobal, testEnv(map[string]string{"FACTORY_HOME_OVERRIDE": "/fh"}),
			[]string{"/fh/.factory/skills", "/fh/.agents/skills", "/fh/.agent/skills"}, ""},
		{"crush", "crush", ScopeGlobal, testEnv(nil),
			[]string{"/home/u/.config/crush/skills", "/home/u/.config/agents/skills", "/home/u/.agents/skills", "/home/u/.claude/skills"}, ""},
		{"crush XDG_CONFIG_HOME", "crush", ScopeGlobal, testEnv(map[string]string{"XDG_CONFIG_HOME": "/x"}),
			[]string{"/x/crush/skills", "/x/agents/skills", "/home/u/.agents/skills", "/home/u/.claude/skills"}, ""},
		{"crush CRUSH_SKILLS_DIR replaces every global root", "crush", ScopeGlobal,
			testEnv(map[string]string{"CRUSH_SKILLS_DIR": "/cs", "XDG_CONFIG_HOME": "/x"}),
			[]string{"/cs"}, ""},
		{"crush relative CRUSH_SKILLS_DIR is taken from home", "crush", ScopeGlobal,
			testEnv(map[string]string{"CRUSH_SKILLS_DIR": "my/skills"}),
			[]string{"/home/u/my/skills"}, ""},
		{"crush project: start folder and project root, not between", "crush", ScopeProject, sub(nil),
			[]string{
				"/work/p/a/b/.crush/skills", "/work/p/.crush/skills", "/work/p/a/b/.agents/skills", "/work/p/.agents/skills",
				"/work/p/a/b/.claude/skills", "/work/p/.claude/skills", "/work/p/a/b/.cursor/skills", "/work/p/.cursor/skills",
			}, "/work/p/.crush/skills"},
		{"openhands project at the root", "openhands", ScopeProject, testEnv(nil),
			[]string{"/work/p/.agents/skills", "/work/p/.openhands/skills"}, ""},
		{"kimi, nothing on disk: the first generic root", "kimi-cli", ScopeGlobal, testEnv(nil),
			[]string{"/home/u/.kimi/skills", "/home/u/.claude/skills", "/home/u/.codex/skills", "/home/u/.config/agents/skills"}, ""},
		{"kimi, only ~/.agents/skills exists", "kimi-cli", ScopeGlobal, dirsEnv(nil, "/home/u/.agents/skills"),
			[]string{"/home/u/.kimi/skills", "/home/u/.claude/skills", "/home/u/.codex/skills", "/home/u/.agents/skills"}, ""},
		{"kimi, both exist: ~/.config/agents/skills hides ~/.agents/skills", "kimi-cli", ScopeGlobal,
			dirsEnv(nil, "/home/u/.agents/skills", "/home/u/.config/agents/skills"),
			[]string{"/home/u/.kimi/skills", "/home/u/.claude/skills", "/home/u/.codex/skills", "/home/u/.config/agents/skills"}, ""},
		{"kimi ignores CLAUDE_CONFIG_DIR, CODEX_HOME and XDG_CONFIG_HOME", "kimi-cli", ScopeGlobal,
			testEnv(map[string]string{"CLAUDE_CONFIG_DIR": "/c", "CODEX_HOME": "/cx", "XDG_CONFIG_HOME": "/x"}),
			[]string{"/home/u/.kimi/skills", "/home/u/.claude/skills", "/home/u/.codex/skills", "/home/u/.config/agents/skills"}, ""},
		{"warp project from a subfolder", "warp", ScopeProject, func() Env { e := testEnv(nil); e.WorkDir = "/work/p/a"; return e }(),
			[]string{
				"/work/p/a/.warp/skills", "/work/p/.warp/skills", "/work/p/a/.agents/skills", "/work/p/.agents/skills",
				"/work/p/a/.claude/skills", "/work/p/.claude/skills", "/work/p/a/.codex/skills", "/work/p/.codex/skills",
				"/work/p/a/.cursor/skills", "/work/p/.cursor/skills", "/work/p/a/.gemini/skills", "/work/p/.gemini/skills",
				"/work/p/a/.copilot/skills", "/work/p/.copilot/skills", "/work/p/a/.factory/skills", "/work/p/.factory/skills",
				"/work/p/a/.github/skills", "/work/p/.github/skills", "/work/p/a/.opencode/skills", "/work/p/.opencode/skills",
				"/work/p/a/.kiro/skills", "/work/p/.kiro/skills",
			}, "/work/p/.warp/skills"},
		{"zed", "zed", ScopeProject, testEnv(nil), []string{"/work/p/.agents/skills"}, ""},
		{"junie project", "junie", ScopeProject, testEnv(nil), []string{"/work/p/.junie/skills"}, ""},
		{"junie has no global root", "junie", ScopeGlobal, testEnv(nil), nil, ""},
	}
	for _, tc := range cases {
		a := mustLookup(t, tc.agent)
		got := a.ReadRoots(format.KindSkill, tc.scope, tc.env)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %s.ReadRoots(skill, %s) = %q, want %q", tc.name, tc.agent, tc.scope, got, tc.want)
		}
		loc, ok := a.LocationFor(format.KindSkill, tc.scope, tc.env)
		want := tc.pref
		if want == "" && len(tc.want) > 0 {
			want = tc.want[0]
		}
		if ok != (want != "") || loc.Root != want {
			t.Errorf("%s: %s.LocationFor(skill, %s) = %q, %v, want %q", tc.name, tc.agent, tc.scope, loc.Root, ok, want)
		}
	}
}

// TestRowWritable checks which roots the planner may write for an agent:
// never one of Kimi's generic roots it does not read, never a deprecated
// root, never another agent's root, never the start folder's copy.
func TestRowWritable(t *testing.T) {
	sub := testEnv(nil)
	sub.WorkDir = "/work/p/a/b"
	cases := []struct {
		agent string
		scope Scope
		env   Env
		want  []string
	}{
		{"kimi-cli", ScopeGlobal, dirsEnv(nil, "/home/u/.agents/skills"), []string{"/home/u/.kimi/skills", "/home/u/.agents/skills"}},
		{"kimi-cli", ScopeGlobal, testEnv(nil), []string{"/home/u/.kimi/skills", "/home/u/.config/agents/skills"}},
		{"kimi-cli", ScopeProject, testEnv(nil), []string{"/work/p/.kimi/skills", "/work/p/.agents/skills"}},
		{"crush", ScopeProject, sub, []string{"/work/p/.crush/skills", "/work/p/.agents/skills"}},
		{"crush", ScopeGlobal, testEnv(map[string]string{"CRUSH_SKILLS_DIR": "/cs"}), []string{"/cs"}},
		{"openhands", ScopeGlobal, testEnv(nil), []string{"/home/u/.agents/skills"}},
		{"warp", ScopeGlobal, testEnv(nil), []string{"/home/u/.warp/skills", "/home/u/.agents/skills"}},
		{"kilo-code", ScopeProject, testEnv(nil), []string{"/work/p/.kilo/skills", "/work/p/.agents/skills"}},
	}
	for _, tc := range cases {
		got := mustLookup(t, tc.agent).(*tableAdapter).writable(format.KindSkill, tc.scope, tc.env)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s.writable(skill, %s) = %q, want %q", tc.agent, tc.scope, got, tc.want)
		}
	}
}

// TestJunieGlobalSkipped checks that an install for Junie at global scope
// is skipped with the reason the row gives, not an invented folder.
func TestJunieGlobalSkipped(t *testing.T) {
	junie := mustLookup(t, "junie")
	plan := PlanRoots([]Adapter{junie, mustLookup(t, "codex")}, format.KindSkill, ScopeGlobal, testEnv(nil))
	if len(plan.Skips) != 1 || plan.Skips[0].Agent != "junie" || !strings.Contains(plan.Skips[0].Reason, "no sourced global skills folder") {
		t.Errorf("PlanRoots(junie, codex, global) skips = %+v, want junie skipped for want of a sourced folder", plan.Skips)
	}
	if len(plan.Targets) != 1 || plan.Targets[0].Root != "/home/u/.agents/skills" {
		t.Errorf("PlanRoots(junie, codex, global) targets = %+v, want codex's ~/.agents/skills alone", plan.Targets)
	}
	if r := SkipReason(junie, format.KindSkill, ScopeProject, testEnv(nil)); r != "" {
		t.Errorf("SkipReason(junie, skill, project) = %q, want none", r)
	}
}

// TestPlanKimiWithAmp checks the planner against Kimi's first-existing
// rule: when ~/.config/agents/skills exists Kimi reads it and not
// ~/.agents/skills, so one write there serves Kimi and Amp.
func TestPlanKimiWithAmp(t *testing.T) {
	env := dirsEnv(nil, "/home/u/.agents/skills", "/home/u/.config/agents/skills")
	plan := PlanRoots([]Adapter{mustLookup(t, "kimi"), mustLookup(t, "amp")}, format.KindSkill, ScopeGlobal, env)
	if len(plan.Targets) != 1 || plan.Targets[0].Root != "/home/u/.config/agents/skills" ||
		!slices.Equal(plan.Targets[0].Readers, []string{"kimi-cli", "amp"}) {
		t.Errorf("PlanRoots(kimi, amp) = %+v, want ~/.config/agents/skills read by both", plan.Targets)
	}
	plan = PlanRoots([]Adapter{mustLookup(t, "kimi"), mustLookup(t, "codex")}, format.KindSkill, ScopeGlobal, env)
	for _, tg := range plan.Targets {
		if tg.Root == "/home/u/.agents/skills" && slices.Contains(tg.Readers, "kimi-cli") {
			t.Errorf("PlanRoots(kimi, codex) counts kimi as a reader of %s, which ~/.config/agents/skills hides", tg.Root)
		}
	}
}

// TestDetectNewRows checks detection through the folders the new rows
// name, moved by their variables, and that a marker is weak evidence.
func TestDetectNewRows(t *testing.T) {
	m := fakeMachine{
		files: fstest.MapFS{
			"q/settings.json":          {},
			"home/u/.pi/agent/x":       {},
			"work/p/.junie/skills/x":   {},
			"home/u/.config/crush/x":   {},
			"home/u/.factory/x":        {},
			"fh/.factory/settings.txt": {},
			"ks/config.toml":           {},
		},
		vars: map[string]string{"QWEN_HOME": "/q", "FACTORY_HOME_OVERRIDE": "/fh", "KIMI_SHARE_DIR": "/ks"},
	}
	env := m.env("/work/p")
	for id, want := range map[string]Confidence{
		"qwen-code": ConfidenceStrong, "pi": ConfidenceStrong, "crush": ConfidenceStrong,
		"factory-droid": ConfidenceStrong, "junie": ConfidenceWeak, "kimi-cli": ConfidenceStrong,
		"mistral-vibe": ConfidenceNone,
	} {
		d := mustLookup(t, id).Detect(context.Background(), env)
		if d.Confidence != want {
			t.Errorf("%s.Detect() = %+v, want %s", id, d, want)
		}
	}
	if d := mustLookup(t, "factory-droid").Detect(context.Background(), env); len(d.Evidence) != 1 || d.Evidence[0].Detail != "/fh/.factory" {
		t.Errorf("factory-droid.Detect() evidence = %+v, want /fh/.factory alone ($FACTORY_HOME_OVERRIDE)", d.Evidence)
	}
}
