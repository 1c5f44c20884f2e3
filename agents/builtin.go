package agents

import "github.com/agent-skills/agent-skills/format"

// This file is the only place that knows where coding agents keep their
// skills. Adding an agent is one row in builtinRows plus, when it
// understands front-matter keys of its own, a key list or a projection hook.
//
// Sources: "verified" rows were checked by running the real binary with
// ../shared/tools/agent-oracle: Claude Code 2.1.328, Codex 0.169.0, GitHub
// Copilot CLI 1.0.102, Gemini CLI 0.61.0 and OpenCode 1.18.33, each root
// probed alone, from the project root and from a folder two levels below it,
// with and without the agent's own environment variables, then every subset
// of the five installed through agent-skills (make e2e-agents; the versions
// are pinned in scripts/agent-versions, docs/agents-e2e.md says how to
// re-prove them). The other rows follow the agents' own documentation as
// collected in ../shared/AGENT-PATHS.md. Paths move often, so every skills
// root can be overridden from configuration (Env.Overrides).

// agentRow is one agent's entry in the table.
type agentRow struct {
	id          string
	displayName string
	aliases     []string
	// overrideKeys is the allowlist of agentOverrides.<id> keys.
	overrideKeys []string
	// executables are the names looked up on PATH (strong evidence).
	executables []string
	// configDirs are the agent's own configuration folders (strong
	// evidence when one exists).
	configDirs []place
	// markers are project-relative, slash-separated paths whose presence
	// is weak evidence.
	markers []string
	// npmPackage is the npm package the executable comes from, when the
	// agent ships through npm; its package.json holds the version.
	npmPackage string
	// kinds says where each package kind is read and written. A kind that
	// is absent has no location: installs of it are skipped.
	kinds map[format.Kind]kindSpec
	// skipReasons explains, per kind without a location, why there is none.
	skipReasons map[format.Kind]string
	// keys lists, per kind, the entrypoint front-matter keys the agent
	// understands beyond the neutral ones every projection writes.
	keys map[format.Kind][]string
	// project, when set, adds agent-specific content to a projection
	// (Codex's metadata.short-description and agents/openai.yaml).
	project projectHook
	// check, when set, adds agent-specific validation.
	check checkHook
	// dedupesByName says the agent lists a skill once even when two roots
	// it reads hold it. Agents without it list it twice.
	dedupesByName bool
}

// kindSpec is where an agent keeps one kind of package.
type kindSpec struct {
	shape Shape
	// ext is appended to the package name for the file shape (".md").
	ext string
	// global and project list every root read, in the agent's order. The
	// first root that is neither deprecated nor compat is where the agent
	// prefers packages to be written.
	global  []rootSpec
	project []rootSpec
}

// rootSpec is one root an agent reads.
type rootSpec struct {
	place
	// walkUp says the agent reads this folder in every directory from the
	// working directory up to the project root (project scope only).
	walkUp bool
	// deprecated roots are still read but never written to.
	deprecated bool
	// compat roots belong to another agent and are read for compatibility;
	// they are written to only when that other agent is selected too.
	compat bool
}

// Places used by several rows.
func homeDir(rel, sub string) place { return place{base: fromHome, rel: rel, sub: sub} }
func projectDir(rel string) place   { return place{base: fromProject, rel: rel} }
func xdgConfig(sub string) place {
	return place{base: fromHome, envVar: "XDG_CONFIG_HOME", rel: ".config", sub: sub}
}
func claudeConfig(sub string) place {
	return place{base: fromHome, envVar: "CLAUDE_CONFIG_DIR", rel: ".claude", sub: sub}
}
func codexHome(sub string) place {
	return place{base: fromHome, envVar: "CODEX_HOME", rel: ".codex", sub: sub}
}

func read(p place) rootSpec       { return rootSpec{place: p} }
func readCompat(p place) rootSpec { return rootSpec{place: p, compat: true} }

// workflowReason explains why no agent has a workflow location.
const workflowReason = "no agent has a verified folder for workflow packages; " +
	"a WORKFLOW.js written to an invented place would be loaded by nothing"

// builtinRows returns every agent, in the fixed order of Default. It
// builds a fresh value on each call so that nothing in the package is
// mutable.
func builtinRows() []agentRow {
	// Shared roots: the vendor-neutral .agents/skills convention and the
	// Claude Code and Codex folders that other agents also read, by their
	// literal path (they do not honour CLAUDE_CONFIG_DIR or CODEX_HOME).
	var (
		sharedProject = projectDir(".agents/skills")
		claudeProject = projectDir(".claude/skills")
		codexProject  = projectDir(".codex/skills")
		sharedGlobal  = homeDir(".agents", "skills")
		sharedXDG     = xdgConfig("agents/skills")
		claudeLiteral = homeDir(".claude", "skills")
		codexLiteral  = homeDir(".codex", "skills")
	)
	// claudeSkillKeys are the SKILL.md keys Claude Code reads besides the
	// neutral ones (code.claude.com/docs/en/skills, frontmatter reference).
	claudeSkillKeys := []string{
		"when_to_use", "argument-hint", "disable-model-invocation", "user-invocable",
		"model", "effort", "context", "agent", "hooks", "paths", "shell",
	}
	return []agentRow{
		{
			// Verified Claude Code 2.1.328: $CLAUDE_CONFIG_DIR/skills (default
			// ~/.claude/skills) and .claude/skills in every folder from the
			// start folder up to the project root, never above it; commands
			// the same way. It reads no .agents root, finds no nested
			// skills/group/x, and lists a skill in two roots once.
			id: "claude-code", displayName: "Claude Code", aliases: []string{"claude"},
			// Claude Code needs nothing the neutral format cannot say: its own
			// keys live in SKILL.md front matter, so it allows no overrides.
			overrideKeys: nil,
			executables:  []string{"claude"},
			configDirs:   []place{claudeConfig("")},
			markers:      []string{".claude", "CLAUDE.md"},
			npmPackage:   "@anthropic-ai/claude-code",
			kinds: map[format.Kind]kindSpec{
				format.KindSkill: {
					shape:   ShapeDirectory,
					global:  []rootSpec{read(claudeConfig("skills"))},
					project: []rootSpec{{place: claudeProject, walkUp: true}},
				},
				format.KindCommand: {
					shape: ShapeFile, ext: ".md",
					global:  []rootSpec{read(claudeConfig("commands"))},
					project: []rootSpec{{place: projectDir(".claude/commands"), walkUp: true}},
				},
			},
			skipReasons: map[format.Kind]string{format.KindWorkflow: workflowReason},
			keys: map[format.Kind][]string{
				format.KindSkill:   claudeSkillKeys,
				format.KindCommand: {"argument-hint", "allowed-tools", "model"},
			},
			check:         checkClaude,
			dedupesByName: true,
		},
		{
			// Verified Codex 0.169.0: ~/.agents/skills and $CODEX_HOME/skills
			// (default ~/.codex/skills), and .agents/skills and .codex/skills
			// in every folder from the start folder up to the git root. It
			// lists a skill once per real folder that holds it (no
			// dedupesByName) and drops one without a description.
			id: "codex", displayName: "Codex",
			overrideKeys: []string{"interface"},
			executables:  []string{"codex"},
			configDirs:   []place{codexHome("")},
			markers:      []string{".agents", ".codex", "AGENTS.md"},
			npmPackage:   "@openai/codex",
			kinds: map[format.Kind]kindSpec{
				format.KindSkill: {
					shape: ShapeDirectory,
					// $CODEX_HOME/skills is still read but marked deprecated in
					// Codex's source; ~/.agents/skills is where Codex looks now.
					global: []rootSpec{
						read(sharedGlobal),
						{place: codexHome("skills"), deprecated: true},
					},
					// Verified: Codex also reads the older .codex/skills in every
					// directory up to the repository root.
					project: []rootSpec{
						{place: sharedProject, walkUp: true},
						{place: codexProject, walkUp: true, deprecated: true},
					},
				},
			},
			skipReasons: map[format.Kind]string{
				format.KindCommand:  "Codex has no custom commands folder verified against its binary",
				format.KindWorkflow: workflowReason,
			},
			project: projectCodex,
			check:   checkCodex,
		},
		{
			// Verified GitHub Copilot CLI 1.0.102: $COPILOT_HOME/skills (default
			// ~/.copilot/skills) and ~/.agents/skills — but not
			// ~/.claude/skills, and not ~/.agents/skills either once
			// COPILOT_HOME is set (so that place falls back onto
			// $COPILOT_HOME/skills, a root it reads anyway); in a project
			// .github/skills, .agents/skills and .claude/skills in every folder
			// from the start folder up to the git root, without folder trust.
			// It lists a skill in two roots once (.github > .agents > .claude,
			// ~/.copilot > ~/.agents, project beats user).
			id: "github-copilot", displayName: "GitHub Copilot", aliases: []string{"copilot"},
			executables: []string{"copilot"},
			configDirs:  []place{{base: fromHome, envVar: "COPILOT_HOME", rel: ".copilot"}},
			markers:     []string{".github/skills", ".github/copilot-instructions.md"},
			npmPackage:  "@github/copilot",
			kinds: map[format.Kind]kindSpec{
				format.KindSkill: {
					shape: ShapeDirectory,
					global: []rootSpec{
						read(place{base: fromHome, envVar: "COPILOT_HOME", rel: ".copilot", sub: "skills"}),
						read(place{base: fromHome, envVar: "COPILOT_HOME", rel: ".agents", sub: "skills"}),
					},
					project: []rootSpec{
						{place: projectDir(".github/skills"), walkUp: true},
						{place: sharedProject, walkUp: true},
						{place: claudeProject, walkUp: true, compat: true},
					},
				},
				// Verified: Copilot also lists Claude Code's project commands,
				// .claude/commands/<name>.md in every folder up to the git
				// root, as skills (not ~/.claude/commands). It has no command
				// folder of its own, so it gets a command only through Claude
				// Code's.
				format.KindCommand: {
					shape: ShapeFile, ext: ".md",
					project: []rootSpec{{place: projectDir(".claude/commands"), walkUp: true, compat: true}},
				},
			},
			skipReasons: map[format.Kind]string{
				format.KindCommand: "GitHub Copilot has no commands folder of its own; it lists the commands " +
					"in Claude Code's project .claude/commands, so it sees one installed for claude-code",
				format.KindWorkflow: workflowReason,
			},
			check:         checkCopilot,
			dedupesByName: true,
		},
		{
			// Verified Gemini CLI 0.61.0: ~/.gemini/skills and ~/.agents/skills,
			// both below $GEMINI_CLI_HOME instead of the home folder when it is
			// set (so the sub-paths are kept whole after the variable), and
			// .gemini/skills and .agents/skills only in the folder it is
			// started in: never walked up, so a project install is seen when
			// Gemini starts at the project root, and only in a trusted folder.
			// It lists a skill in two roots once (.agents beats .gemini,
			// project beats user); .gemini stays the preferred root so that a
			// Gemini-only install is not seen by every .agents reader.
			id: "gemini-cli", displayName: "Gemini CLI", aliases: []string{"gemini"},
			executables: []string{"gemini"},
			configDirs:  []place{{base: fromHome, envVar: "GEMINI_CLI_HOME", sub: ".gemini"}},
			markers:     []string{".gemini", "GEMINI.md"},
			npmPackage:  "@google/gemini-cli",
			kinds: map[format.Kind]kindSpec{
				format.KindSkill: {
					shape: ShapeDirectory,
					global: []rootSpec{
						read(place{base: fromHome, envVar: "GEMINI_CLI_HOME", sub: ".gemini/skills"}),
						read(place{base: fromHome, envVar: "GEMINI_CLI_HOME", sub: ".agents/skills"}),
					},
					project: []rootSpec{read(projectDir(".gemini/skills")), read(sharedProject)},
				},
			},
			skipReasons:   genericSkips("Gemini CLI"),
			dedupesByName: true,
		},
		{
			id: "cursor", displayName: "Cursor",
			executables: []string{"cursor-agent", "cursor"},
			configDirs:  []place{homeDir(".cursor", "")},
			markers:     []string{".cursor", ".cursorrules"},
			kinds: map[format.Kind]kindSpec{
				format.KindSkill: {
					shape: ShapeDirectory,
					global: []rootSpec{
						read(homeDir(".cursor", "skills")), read(sharedGlobal),
						readCompat(claudeLiteral), readCompat(codexLiteral),
					},
					project: []rootSpec{
						read(projectDir(".cursor/skills")), read(sharedProject),
						readCompat(claudeProject), readCompat(codexProject),
					},
				},
			},
			skipReasons: genericSkips("Cursor"),
		},
		{
			// Verified OpenCode 1.18.33: skills/ and the older skill/ in each of
			// its config folders — $XDG_CONFIG_HOME/opencode (default
			// ~/.config/opencode), ~/.opencode and $OPENCODE_CONFIG_DIR — plus
			// the literal ~/.claude/skills and ~/.agents/skills; in a project
			// .opencode/skills, .opencode/skill, .claude/skills and
			// .agents/skills in every folder from the start folder up to the
			// git worktree. It lists a skill once, but which of two differing
			// copies it uses changes from run to run. The skill/ spellings are
			// read, never written. $OPENCODE_CONFIG_DIR's place falls back to
			// ~/.opencode when the variable is unset, a folder OpenCode reads
			// anyway, so it adds no root then.
			id: "opencode", displayName: "OpenCode",
			executables: []string{"opencode"},
			configDirs:  []place{xdgConfig("opencode"), homeDir(".opencode", "")},
			markers:     []string{".opencode", "opencode.json"},
			npmPackage:  "opencode-ai",
			kinds: map[format.Kind]kindSpec{
				format.KindSkill: {
					shape: ShapeDirectory,
					global: []rootSpec{
						read(xdgConfig("opencode/skills")),
						{place: xdgConfig("opencode/skill"), deprecated: true},
						read(homeDir(".opencode", "skills")),
						{place: homeDir(".opencode", "skill"), deprecated: true},
						read(place{base: fromHome, envVar: "OPENCODE_CONFIG_DIR", rel: ".opencode", sub: "skills"}),
						{place: place{base: fromHome, envVar: "OPENCODE_CONFIG_DIR", rel: ".opencode", sub: "skill"}, deprecated: true},
						readCompat(claudeLiteral), read(sharedGlobal),
					},
					project: []rootSpec{
						{place: projectDir(".opencode/skills"), walkUp: true},
						{place: projectDir(".opencode/skill"), walkUp: true, deprecated: true},
						{place: claudeProject, walkUp: true, compat: true},
						{place: sharedProject, walkUp: true},
					},
				},
			},
			skipReasons:   genericSkips("OpenCode"),
			dedupesByName: true,
		},
		{
			id: "windsurf", displayName: "Windsurf",
			executables: []string{"windsurf"},
			configDirs:  []place{homeDir(".codeium/windsurf", "")},
			markers:     []string{".windsurf", ".windsurfrules"},
			kinds: map[format.Kind]kindSpec{
				format.KindSkill: {
					shape:   ShapeDirectory,
					global:  []rootSpec{read(homeDir(".codeium/windsurf", "skills")), read(sharedGlobal)},
					project: []rootSpec{read(projectDir(".windsurf/skills")), read(sharedProject)},
				},
			},
			skipReasons: genericSkips("Windsurf"),
		},
		{
			id: "goose", displayName: "Goose",
			executables: []string{"goose"},
			configDirs:  []place{xdgConfig("goose")},
			markers:     []string{".goose", ".goosehints"},
			kinds: map[format.Kind]kindSpec{
				format.KindSkill: {
					shape: ShapeDirectory,
					global: []rootSpec{
						read(xdgConfig("goose/skills")), read(sharedXDG), readCompat(claudeLiteral),
					},
					project: []rootSpec{
						read(projectDir(".goose/skills")), read(sharedProject), readCompat(claudeProject),
					},
				},
			},
			skipReasons: genericSkips("Goose"),
		},
		{
			id: "amp", displayName: "Amp",
			executables: []string{"amp"},
			configDirs:  []place{xdgConfig("amp")},
			markers:     []string{".agents"},
			npmPackage:  "@sourcegraph/amp",
			kinds: map[format.Kind]kindSpec{
				format.KindSkill: {
					shape:   ShapeDirectory,
					global:  []rootSpec{read(sharedXDG)},
					project: []rootSpec{read(sharedProject)},
				},
			},
			skipReasons: genericSkips("Amp"),
		},
	}
}

// genericSkips explains why an agent whose skills location is documented
// has no command or workflow location here.
func genericSkips(name string) map[format.Kind]string {
	return map[format.Kind]string{
		format.KindCommand:  name + " has no documented folder for Markdown commands in this format",
		format.KindWorkflow: workflowReason,
	}
}
