package agents

import (
	"testing"

	"github.com/agent-skills/agent-skills/format"
)

// syntheticTable is the nine built-in agents followed by sixteen test-only
// rows shaped like the agents of /work/briefs/i16-agents-research.md (ids
// prefixed "x-"): each reads its own root and most read the shared
// .agents/skills; Cline, Kilo, Continue, Augment, Crush, Kimi and Warp also
// read Claude Code's root for its sake; a Warp-like row reads eleven other
// agents' roots and lists every copy; a Kimi-like row reads Claude Code's
// and Codex's roots and ~/.config/agents/skills. They give the planner a
// table of the size issue 16 grows it to, whatever Default holds.
func syntheticTable(tb testing.TB) []Adapter {
	tb.Helper()
	rows := append(builtinRows()[:9], syntheticRows()...)
	adapters := make([]Adapter, len(rows))
	for i := range rows {
		adapters[i] = &tableAdapter{row: rows[i]}
	}
	table, err := NewTable(adapters...)
	if err != nil {
		tb.Fatal(err)
	}
	return table.All()
}

func syntheticRows() []agentRow {
	p := func(dir string) rootSpec { return read(projectDir(dir + "/skills")) }
	pc := func(dir string) rootSpec { return readCompat(projectDir(dir + "/skills")) }
	pw := func(dir string) rootSpec { return rootSpec{place: projectDir(dir + "/skills"), walkUp: true} }
	pwc := func(dir string) rootSpec {
		return rootSpec{place: projectDir(dir + "/skills"), walkUp: true, compat: true}
	}
	pd := func(dir string) rootSpec { return rootSpec{place: projectDir(dir + "/skills"), deprecated: true} }
	h := func(dir string) rootSpec { return read(homeDir(dir, "skills")) }
	hc := func(dir string) rootSpec { return readCompat(homeDir(dir, "skills")) }
	hd := func(dir string) rootSpec { return rootSpec{place: homeDir(dir, "skills"), deprecated: true} }
	henv := func(v, dir string) rootSpec { return read(place{base: fromHome, envVar: v, rel: dir, sub: "skills"}) }
	row := func(id string, byName bool, project, global []rootSpec) agentRow {
		return agentRow{
			id: id, displayName: id,
			kinds:         map[format.Kind]kindSpec{format.KindSkill: {shape: ShapeDirectory, project: project, global: global}},
			skipReasons:   genericSkips(id),
			dedupesByName: byName,
		}
	}
	var warpProject, warpGlobal []rootSpec
	for _, dir := range []string{".claude", ".codex", ".cursor", ".gemini", ".copilot", ".factory", ".github", ".opencode", ".kiro"} {
		warpProject = append(warpProject, pwc(dir))
		warpGlobal = append(warpGlobal, hc(dir))
	}
	return []agentRow{
		row("x-cline", true,
			[]rootSpec{p(".cline"), pd(".clinerules"), pc(".claude"), p(".agents")},
			[]rootSpec{henv("CLINE_DIR", ".cline"), h(".agents")}),
		row("x-kilo", true,
			[]rootSpec{pw(".kilo"), {place: projectDir(".kilocode/skills"), walkUp: true, deprecated: true}, pw(".agents"), pwc(".claude")},
			[]rootSpec{read(xdgConfig("kilo/skills")), h(".kilo"), hd(".kilocode"), h(".agents"), hc(".claude")}),
		row("x-roo", true, []rootSpec{p(".roo"), p(".agents")}, []rootSpec{h(".roo"), h(".agents")}),
		row("x-kiro", true, []rootSpec{p(".kiro")}, []rootSpec{h(".kiro")}),
		row("x-qwen", true, []rootSpec{p(".qwen"), p(".agents")}, []rootSpec{henv("QWEN_HOME", ".qwen"), h(".agents")}),
		row("x-droid", true,
			[]rootSpec{p(".factory"), p(".agents"), p(".agent")},
			[]rootSpec{h(".factory"), h(".agents"), h(".agent")}),
		row("x-continue", false, []rootSpec{p(".continue"), pc(".claude")}, []rootSpec{henv("CONTINUE_GLOBAL_DIR", ".continue")}),
		row("x-junie", true, []rootSpec{p(".junie"), p(".agents")}, nil),
		row("x-augment", true,
			[]rootSpec{p(".augment"), pc(".claude"), p(".agents")},
			[]rootSpec{h(".augment"), hc(".claude"), h(".agents")}),
		row("x-openhands", true,
			[]rootSpec{p(".agents"), pd(".openhands"), {place: projectDir(".openhands/microagents"), deprecated: true}},
			[]rootSpec{h(".agents"), hd(".openhands"), {place: homeDir(".openhands", "microagents"), deprecated: true}}),
		row("x-warp", false,
			append([]rootSpec{pw(".warp"), pw(".agents")}, warpProject...),
			append([]rootSpec{h(".warp"), h(".agents")}, warpGlobal...)),
		row("x-zed", true, []rootSpec{p(".agents")}, []rootSpec{h(".agents")}),
		row("x-crush", true,
			[]rootSpec{p(".crush"), p(".agents"), pc(".claude"), pc(".cursor")},
			[]rootSpec{read(xdgConfig("crush/skills")), read(xdgConfig("agents/skills")), h(".agents"), hc(".claude")}),
		row("x-vibe", true, []rootSpec{p(".vibe"), p(".agents")}, []rootSpec{henv("VIBE_HOME", ".vibe"), h(".agents")}),
		row("x-kimi", true,
			[]rootSpec{p(".kimi"), pc(".claude"), pc(".codex"), p(".agents")},
			[]rootSpec{h(".kimi"), hc(".claude"), hc(".codex"), read(homeDir(".config/agents", "skills")), h(".agents")}),
		row("x-pi", true,
			[]rootSpec{p(".pi"), pw(".agents")},
			[]rootSpec{read(place{base: fromHome, envVar: "PI_CODING_AGENT_DIR", rel: ".pi/agent", sub: "skills"}), h(".agents")}),
	}
}
