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
	// custom says the row comes from the configuration (custom.go).
	custom bool
	// projectCaveat, when set, is one sentence on when the agent does not
	// see project skills that are installed where it reads them: only in
	// a trusted folder, or only in the folder it is started in.
	projectCaveat string
	// status is where the row comes from: "verified <agent> <version>"
	// when the real binary was run, or "documented: <source>" citing the
	// repository, path and commit or the docs page the roots were read
	// from.
	status string
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
	// globalEnv, when set, names a variable that replaces every global
	// root: while it is set the agent reads (and is written to) only the
	// folder it names (Crush's $CRUSH_SKILLS_DIR).
	globalEnv string
	// skips explains, per scope without roots, why there are none (a
	// root nobody could source is left out, never guessed).
	skips map[Scope]string
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
	// alsoStart says the agent reads this folder in the folder it is
	// started in (Env.WorkDir) as well as at the project root, but not in
	// the folders between (project scope only).
	alsoStart bool
	// group, when set, makes the roots sharing it alternatives: the agent
	// reads only the first of them that exists, or the first of them when
	// none does yet (Kimi's ~/.config/agents/skills or ~/.agents/skills).
	group string
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

// walk reads p in every folder from the start folder up to the project
// root; atStart reads it in the start folder and at the project root.
func walk(p place) rootSpec    { return rootSpec{place: p, walkUp: true} }
func atStart(p place) rootSpec { return rootSpec{place: p, alsoStart: true} }

// homeEnv is a folder under home that the variable envVar moves: $envVar
// when it is set, else ~/rel; then sub.
func homeEnv(envVar, rel, sub string) place {
	return place{base: fromHome, envVar: envVar, rel: rel, sub: sub}
}

// deprecated marks r as still read but never written.
func deprecated(r rootSpec) rootSpec { r.deprecated = true; return r }

// compat marks r as another agent's root, read for compatibility.
func compat(r rootSpec) rootSpec { r.compat = true; return r }

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
			status: "verified Claude Code 2.1.328 (agent-oracle, 2026-12-02; docs/agents-e2e.md)",
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
			status:       "verified Codex 0.169.0 (agent-oracle, 2026-12-02; docs/agents-e2e.md)",
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
			status:      "verified GitHub Copilot CLI 1.0.102 (agent-oracle, 2026-12-02; docs/agents-e2e.md)",
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
					skips: map[Scope]string{ScopeGlobal: "GitHub Copilot reads no global commands folder: " +
						"it lists only Claude Code's project .claude/commands"},
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
			status:      "verified Gemini CLI 0.61.0 (agent-oracle, 2026-12-02; docs/agents-e2e.md)",
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
			projectCaveat: "Gemini CLI reads project skills only in the folder it is started in, " +
				"and only when that folder is trusted.",
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
			status:      "documented: ../shared/AGENT-PATHS.md",
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
			status:      "verified OpenCode 1.18.33 (agent-oracle, 2026-12-02; docs/agents-e2e.md)",
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
			status:      "documented: ../shared/AGENT-PATHS.md",
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
			status:      "documented: ../shared/AGENT-PATHS.md",
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
			status:      "documented: ../shared/AGENT-PATHS.md (installers' tables)",
		},
		// The rows below were added for issue 16 from each agent's own
		// source or documentation (../briefs/i16-agents-research.md); no
		// binary here proves them, so they are "documented". Two rules keep
		// them honest. A root one of the agent's front ends reads only under
		// a setting (Cline's VS Code extension reads .claude/skills, its CLI
		// does not; Kilo's extension reads it only with Claude Code
		// compatibility on) is left out of the reads, so the planner never
		// counts on it: a skill also written there is at worst seen twice by
		// an agent that keeps one skill per name. A root read only in the
		// folder the agent starts in is taken at the project root: it is
		// right when the agent starts there, and projectCaveat says so.
		{
			// Source: cline/cline@21cb8d2525bcedf1f4b6890b27a74a14fe7451e4
			// sdk/packages/shared/src/storage/paths.ts (CLI: .clinerules, .cline,
			// .agents under the git root; $CLINE_DIR or ~/.cline) and
			// apps/vscode/src/core/storage/skill-directories.ts (extension: the
			// same plus .claude/skills, under the workspace folder; ignores
			// CLINE_DIR); docs/customization/skills.mdx (".cline/skills/
			// (recommended)", "the global skill takes precedence").
			id: "cline", displayName: "Cline",
			executables: []string{"cline"},
			configDirs:  []place{homeEnv("CLINE_DIR", ".cline", "")},
			markers:     []string{".cline", ".clinerules"},
			npmPackage:  "@cline/cli",
			kinds: map[format.Kind]kindSpec{
				format.KindSkill: {
					shape:  ShapeDirectory,
					global: []rootSpec{read(homeEnv("CLINE_DIR", ".cline", "skills")), read(sharedGlobal)},
					project: []rootSpec{
						read(projectDir(".cline/skills")),
						// DEPRECATED_CONFIG_DIR in the SDK: read, never written.
						deprecated(read(projectDir(".clinerules/skills"))),
						read(sharedProject),
					},
				},
			},
			skipReasons:   genericSkips("Cline"),
			dedupesByName: true,
			status: "documented: cline/cline@21cb8d2525bcedf1f4b6890b27a74a14fe7451e4 " +
				"sdk/packages/shared/src/storage/paths.ts, apps/vscode/src/core/storage/skill-directories.ts",
		},
		{
			// Source: the shipped CLI @kilocode/cli-linux-x64@7.7.9 (its built-in
			// kilo-config text: ".kilo (canonical) and .kilocode (legacy
			// fallback) ... Project: walks up from CWD to the git worktree root
			// ... Home: ~/.kilo/ and ~/.kilocode/ - XDG global: ~/.config/kilo/";
			// KILO_CONFIG_DIR "appended to search list"), Kilo-Org/kilocode
			// packages/opencode/src/skill/index.ts@04bfcc456ac80a2c468de2a0e73df7d3a7974ae6
			// (.agents and .claude walked up to the worktree; a later skill of
			// one name replaces the earlier) and packages/kilo-docs/pages/
			// customize/skills.md@03132cbe897cf472aa079598e2c4db2d93502002
			// (~/.kilo/skills and .kilo/skills recommended; the extension loads
			// .claude/skills only "when Claude Code Compatibility is enabled",
			// so .claude is left out, see above).
			id: "kilo-code", displayName: "Kilo Code", aliases: []string{"kilo"},
			executables: []string{"kilo", "kilocode"},
			configDirs:  []place{homeDir(".kilo", ""), xdgConfig("kilo"), homeDir(".kilocode", "")},
			markers:     []string{".kilo", ".kilocode"},
			npmPackage:  "@kilocode/cli",
			kinds: map[format.Kind]kindSpec{
				format.KindSkill: {
					shape: ShapeDirectory,
					global: []rootSpec{
						read(homeDir(".kilo", "skills")),
						read(xdgConfig("kilo/skills")),
						deprecated(read(homeDir(".kilocode", "skills"))),
						read(place{base: fromEnv, envVar: "KILO_CONFIG_DIR", sub: "skills"}),
						read(sharedGlobal),
					},
					project: []rootSpec{
						walk(projectDir(".kilo/skills")),
						deprecated(walk(projectDir(".kilocode/skills"))),
						walk(sharedProject),
					},
				},
			},
			skipReasons:   genericSkips("Kilo Code"),
			dedupesByName: true,
			status: "documented: @kilocode/cli-linux-x64@7.7.9 (shipped binary, read as text); " +
				"Kilo-Org/kilocode@04bfcc456ac80a2c468de2a0e73df7d3a7974ae6 packages/opencode/src/skill/index.ts",
		},
		{
			// Source: RooCodeInc/Roo-Code@cb836567180a3ff1da6d082f3178b90c3bd22a70
			// src/services/skills/SkillsManager.ts: .roo/skills and .agents/skills
			// under the VS Code workspace folder (provider.cwd), ~/.roo/skills and
			// ~/.agents/skills; one skill per name ("so .roo wins"). The per-mode
			// skills-<mode> folders are not package roots of this table.
			id: "roo-code", displayName: "Roo Code", aliases: []string{"roo"},
			configDirs: []place{homeDir(".roo", "")},
			markers:    []string{".roo", ".roomodes"},
			kinds: map[format.Kind]kindSpec{
				format.KindSkill: {
					shape:   ShapeDirectory,
					global:  []rootSpec{read(homeDir(".roo", "skills")), read(sharedGlobal)},
					project: []rootSpec{read(projectDir(".roo/skills")), read(sharedProject)},
				},
			},
			skipReasons:   genericSkips("Roo Code"),
			dedupesByName: true,
			status: "documented: RooCodeInc/Roo-Code@cb836567180a3ff1da6d082f3178b90c3bd22a70 " +
				"src/services/skills/SkillsManager.ts",
		},
		{
			// Docs: https://kiro.dev/docs/skills (the Kiro IDE page: "Workspace
			// skills reside in your project under .kiro/skills/", "Global skills
			// reside in your home directory under ~/.kiro/skills/", the workspace
			// skill wins a name clash). https://kiro.dev/docs/cli/skills says the
			// CLI follows the Agent Skills standard, but the stored copy lacks
			// its location sentence: that the CLI reads the same two folders is
			// the IDE page's word. https://kiro.dev/docs/cli starts it as
			// kiro-cli.
			id: "kiro-cli", displayName: "Kiro CLI", aliases: []string{"kiro"},
			executables: []string{"kiro-cli"},
			configDirs:  []place{homeDir(".kiro", "")},
			markers:     []string{".kiro"},
			kinds: map[format.Kind]kindSpec{
				format.KindSkill: {
					shape:   ShapeDirectory,
					global:  []rootSpec{read(homeDir(".kiro", "skills"))},
					project: []rootSpec{read(projectDir(".kiro/skills"))},
				},
			},
			skipReasons:   genericSkips("Kiro CLI"),
			dedupesByName: true,
			status:        "documented: https://kiro.dev/docs/skills (the Kiro IDE page; the CLI page's location sentence was not retrieved)",
		},
		{
			// Source: the published @qwen-code/qwen-code@0.24.4 bundle:
			// SKILL_PROVIDER_CONFIG_DIRS = [".qwen", ".agents"] joined to the
			// project root, which is the start folder (targetDir: cwd), and to
			// $QWEN_HOME (default ~/.qwen) and ~/.agents for the user; "The
			// first directory that contains a skill with a given name wins".
			id: "qwen-code", displayName: "Qwen Code", aliases: []string{"qwen"},
			executables: []string{"qwen"},
			configDirs:  []place{homeEnv("QWEN_HOME", ".qwen", "")},
			markers:     []string{".qwen"},
			npmPackage:  "@qwen-code/qwen-code",
			kinds: map[format.Kind]kindSpec{
				format.KindSkill: {
					shape:   ShapeDirectory,
					global:  []rootSpec{read(homeEnv("QWEN_HOME", ".qwen", "skills")), read(sharedGlobal)},
					project: []rootSpec{read(projectDir(".qwen/skills")), read(sharedProject)},
				},
			},
			skipReasons:   genericSkips("Qwen Code"),
			dedupesByName: true,
			projectCaveat: "Qwen Code reads project skills only in the folder it is started in: start it at the project root.",
			status:        "documented: @qwen-code/qwen-code@0.24.4 (published bundle, read as text)",
		},
		{
			// Source: the shipped @factory/cli-linux-x64@0.225.2 binary (read as
			// text): each of the folders .factory, .agents and .agent holds
			// skills/, at home ($FACTORY_HOME_OVERRIDE replaces the home folder
			// for all three), at the git root and in every folder from the start
			// folder up to it; skills merge by name, first wins. Docs:
			// https://docs.factory.ai/cli/configuration/skills (.factory/skills,
			// ~/.factory/skills).
			id: "factory-droid", displayName: "Factory Droid", aliases: []string{"droid"},
			executables: []string{"droid"},
			configDirs:  []place{homeEnv("FACTORY_HOME_OVERRIDE", "", ".factory")},
			markers:     []string{".factory"},
			npmPackage:  "@factory/cli",
			kinds: map[format.Kind]kindSpec{
				format.KindSkill: {
					shape: ShapeDirectory,
					global: []rootSpec{
						read(homeEnv("FACTORY_HOME_OVERRIDE", "", ".factory/skills")),
						read(homeEnv("FACTORY_HOME_OVERRIDE", "", ".agents/skills")),
						read(homeEnv("FACTORY_HOME_OVERRIDE", "", ".agent/skills")),
					},
					project: []rootSpec{
						walk(projectDir(".factory/skills")), walk(sharedProject), walk(projectDir(".agent/skills")),
					},
				},
			},
			skipReasons: map[format.Kind]string{
				format.KindCommand: "Factory Droid reads .factory/commands, but no source says its Markdown " +
					"commands take this format",
				format.KindWorkflow: workflowReason,
			},
			dedupesByName: true,
			status: "documented: @factory/cli-linux-x64@0.225.2 (shipped binary, read as text); " +
				"https://docs.factory.ai/cli/configuration/skills",
		},
		{
			// Source: continuedev/continue@d0a3c0b626b5bebc3bef4742eec05a0242be0bab
			// core/config/markdown/loadMarkdownSkills.ts (IDE: .continue/skills and
			// .claude/skills in each workspace folder) and
			// extensions/cli/src/util/loadMarkdownSkills.ts (cn: the same two
			// under process.cwd()); global $CONTINUE_GLOBAL_DIR/skills (default
			// ~/.continue/skills). No de-duplication by name was found.
			id: "continue", displayName: "Continue",
			executables: []string{"cn"},
			configDirs:  []place{homeEnv("CONTINUE_GLOBAL_DIR", ".continue", "")},
			markers:     []string{".continue"},
			npmPackage:  "@continuedev/cli",
			kinds: map[format.Kind]kindSpec{
				format.KindSkill: {
					shape:   ShapeDirectory,
					global:  []rootSpec{read(homeEnv("CONTINUE_GLOBAL_DIR", ".continue", "skills"))},
					project: []rootSpec{read(projectDir(".continue/skills")), readCompat(claudeProject)},
				},
			},
			skipReasons:   genericSkips("Continue"),
			projectCaveat: "Continue reads project skills only in its workspace folders, and the cn CLI only in the folder it is started in.",
			status: "documented: continuedev/continue@d0a3c0b626b5bebc3bef4742eec05a0242be0bab " +
				"core/config/markdown/loadMarkdownSkills.ts, extensions/cli/src/util/loadMarkdownSkills.ts",
		},
		{
			// Docs: https://www.jetbrains.com/help/air/skills.html ("Junie: In
			// addition to shared skills, Junie supports agent-specific skills
			// from .junie/skills"). That page is about JetBrains Air; no
			// JetBrains page names a global folder or says that Junie on its own
			// reads .agents/skills, so neither is in the row.
			id: "junie", displayName: "Junie",
			markers: []string{".junie"},
			kinds: map[format.Kind]kindSpec{
				format.KindSkill: {
					shape:   ShapeDirectory,
					project: []rootSpec{read(projectDir(".junie/skills"))},
					skips: map[Scope]string{ScopeGlobal: "Junie has no sourced global skills folder: " +
						"JetBrains documents only the project folder .junie/skills"},
				},
			},
			skipReasons: genericSkips("Junie"),
			status:      "documented: https://www.jetbrains.com/help/air/skills.html (project folder only)",
		},
		{
			// Source: the published @augmentcode/auggie@0.36.0 bundle:
			// [".augment", ".claude", ".agents"], each joined with skills/ to
			// $HOME and to the workspace root; one skill per name by precedence
			// ("mergeByPrecedence"). Docs: https://docs.augmentcode.com/cli/skills.
			id: "augment", displayName: "Augment (Auggie CLI)", aliases: []string{"auggie"},
			executables: []string{"auggie"},
			configDirs:  []place{homeDir(".augment", "")},
			markers:     []string{".augment"},
			npmPackage:  "@augmentcode/auggie",
			kinds: map[format.Kind]kindSpec{
				format.KindSkill: {
					shape: ShapeDirectory,
					global: []rootSpec{
						read(homeDir(".augment", "skills")), readCompat(claudeLiteral), read(sharedGlobal),
					},
					project: []rootSpec{
						read(projectDir(".augment/skills")), readCompat(claudeProject), read(sharedProject),
					},
				},
			},
			skipReasons:   genericSkips("Augment"),
			dedupesByName: true,
			status:        "documented: @augmentcode/auggie@0.36.0 (published bundle, read as text); https://docs.augmentcode.com/cli/skills",
		},
		{
			// Source: OpenHands/software-agent-sdk@611629e6999ad398dc49c761721eefe18d5e6bd9
			// openhands-sdk/openhands/sdk/skills/skill.py: .agents/skills and
			// .openhands/skills (plus .openhands/microagents) in the start folder
			// and at the git root, ~/.agents/skills and ~/.openhands/skills; "Use
			// .agents/skills for new skills. .openhands/skills is the legacy
			// OpenHands location" (so it is deprecated here, and .agents/skills,
			// the agent's own choice, comes first); first skill of a name wins.
			// .openhands/microagents holds plain .md microagents, not packages.
			id: "openhands", displayName: "OpenHands",
			executables: []string{"openhands", "openhands-acp"},
			configDirs:  []place{homeDir(".openhands", "")},
			markers:     []string{".openhands"},
			kinds: map[format.Kind]kindSpec{
				format.KindSkill: {
					shape:  ShapeDirectory,
					global: []rootSpec{read(sharedGlobal), deprecated(read(homeDir(".openhands", "skills")))},
					project: []rootSpec{
						atStart(sharedProject), deprecated(atStart(projectDir(".openhands/skills"))),
					},
				},
			},
			skipReasons:   genericSkips("OpenHands"),
			dedupesByName: true,
			status: "documented: OpenHands/software-agent-sdk@611629e6999ad398dc49c761721eefe18d5e6bd9 " +
				"openhands-sdk/openhands/sdk/skills/skill.py",
		},
		{
			// Source: warpdotdev/warp@19548aec6285e82b1a4cde526e7ec7e04513c248
			// crates/ai/src/skills/skill_provider.rs: eleven <dir>/skills folders,
			// each under home and in every folder from the start folder up to
			// the repository root (docs); Warp's own home root is ~/.warp/skills
			// (crates/warp_core/src/paths.rs). Its precedence puts .agents before
			// .warp; its own folder is listed first here so it is where Warp alone
			// is installed. Docs https://docs.warp.dev/agent-platform/capabilities/skills:
			// the agent "receives a list of all in-scope skills", so a skill in
			// two of these folders is listed twice. The other agents' folders are
			// compat; .copilot/skills and ~/.github/skills belong to no row
			// (Copilot uses other folders) and are compat too, so nothing is
			// ever written there for Warp. `oz agent
			// run` is Warp's CLI (https://docs.warp.dev/agent-platform/cloud-agents/skills-as-agents).
			id: "warp", displayName: "Warp",
			executables: []string{"oz"},
			configDirs:  []place{homeDir(".warp", "")},
			// .warp alone also holds Warp's terminal workflows; only its
			// skills folder says the project is used with Warp's agent.
			markers: []string{".warp/skills"},
			kinds: map[format.Kind]kindSpec{
				format.KindSkill: {
					shape: ShapeDirectory,
					global: []rootSpec{
						read(homeDir(".warp", "skills")), read(sharedGlobal),
						readCompat(claudeLiteral), readCompat(codexLiteral),
						readCompat(homeDir(".cursor", "skills")), readCompat(homeDir(".gemini", "skills")),
						readCompat(homeDir(".copilot", "skills")), readCompat(homeDir(".factory", "skills")),
						readCompat(homeDir(".github", "skills")), readCompat(homeDir(".opencode", "skills")),
						readCompat(homeDir(".kiro", "skills")),
					},
					project: []rootSpec{
						walk(projectDir(".warp/skills")), walk(sharedProject),
						compat(walk(claudeProject)), compat(walk(codexProject)),
						compat(walk(projectDir(".cursor/skills"))), compat(walk(projectDir(".gemini/skills"))),
						compat(walk(projectDir(".copilot/skills"))), compat(walk(projectDir(".factory/skills"))),
						compat(walk(projectDir(".github/skills"))), compat(walk(projectDir(".opencode/skills"))),
						compat(walk(projectDir(".kiro/skills"))),
					},
				},
			},
			skipReasons: genericSkips("Warp"),
			status: "documented: warpdotdev/warp@19548aec6285e82b1a4cde526e7ec7e04513c248 " +
				"crates/ai/src/skills/skill_provider.rs; https://docs.warp.dev/agent-platform/capabilities/skills",
		},
		{
			// Docs: zed-industries/zed@001118731f8ce7e85031ffd0bdbefb03be5e7e4b
			// docs/src/ai/skills.md: "Skills come from ~/.agents/skills/ and
			// <worktree>/.agents/skills/ only", "Project-local skills only load
			// from trusted worktrees", the project skill wins a name clash. The
			// settings folder is ~/.config/zed ($XDG_CONFIG_HOME/zed)
			// (https://zed.dev/docs/configuring-zed). Zed's project folder .zed
			// holds editor settings, too generic to mark an agent project, and
			// Zed has no skills folder of its own: the row has no marker.
			id: "zed", displayName: "Zed",
			configDirs: []place{xdgConfig("zed")},
			kinds: map[format.Kind]kindSpec{
				format.KindSkill: {
					shape:   ShapeDirectory,
					global:  []rootSpec{read(sharedGlobal)},
					project: []rootSpec{read(sharedProject)},
				},
			},
			skipReasons:   genericSkips("Zed"),
			dedupesByName: true,
			projectCaveat: "Zed loads project skills only from a trusted worktree: trust the project in Zed to see them.",
			status:        "documented: zed-industries/zed@001118731f8ce7e85031ffd0bdbefb03be5e7e4b docs/src/ai/skills.md",
		},
		{
			// Source: charmbracelet/crush@37f36e93824e5c4f892e4a817f7f628e2682fe14
			// internal/config/load.go: project .agents, .crush, .claude, .cursor
			// /skills in the working folder and at the git root;
			// GlobalSkillsDirs() returns only $CRUSH_SKILLS_DIR when it is set,
			// else $XDG_CONFIG_HOME/crush/skills, $XDG_CONFIG_HOME/agents/skills,
			// ~/.agents/skills, ~/.claude/skills (README agrees);
			// internal/skills/skills.go keeps one skill per name, the last.
			id: "crush", displayName: "Crush",
			executables: []string{"crush"},
			configDirs:  []place{xdgConfig("crush")},
			markers:     []string{".crush"},
			kinds: map[format.Kind]kindSpec{
				format.KindSkill: {
					shape: ShapeDirectory,
					global: []rootSpec{
						read(xdgConfig("crush/skills")), read(sharedXDG), read(sharedGlobal), readCompat(claudeLiteral),
					},
					globalEnv: "CRUSH_SKILLS_DIR",
					project: []rootSpec{
						atStart(projectDir(".crush/skills")), atStart(sharedProject),
						compat(atStart(claudeProject)), compat(atStart(projectDir(".cursor/skills"))),
					},
				},
			},
			skipReasons:   genericSkips("Crush"),
			dedupesByName: true,
			status: "documented: charmbracelet/crush@37f36e93824e5c4f892e4a817f7f628e2682fe14 " +
				"internal/config/load.go, README.md",
		},
		{
			// Source: mistralai/mistral-vibe@ac8f1a09fdfbadb6d4508a555ba6607fd05eb0dc
			// vibe/core/paths/_local_config_files.py: .vibe/skills and
			// .agents/skills in the start folder only, and only when it is
			// trusted; GLOBAL_SKILLS_DIR = $VIBE_HOME/skills (default
			// ~/.vibe/skills) and ~/.agents/skills; vibe/core/skills/manager.py
			// skips a second skill of one name. README: "project root, trusted
			// folders only".
			id: "mistral-vibe", displayName: "Mistral Vibe", aliases: []string{"vibe"},
			executables: []string{"vibe", "vibe-acp"},
			configDirs:  []place{homeEnv("VIBE_HOME", ".vibe", "")},
			markers:     []string{".vibe"},
			kinds: map[format.Kind]kindSpec{
				format.KindSkill: {
					shape:   ShapeDirectory,
					global:  []rootSpec{read(homeEnv("VIBE_HOME", ".vibe", "skills")), read(sharedGlobal)},
					project: []rootSpec{read(projectDir(".vibe/skills")), read(sharedProject)},
				},
			},
			skipReasons:   genericSkips("Mistral Vibe"),
			dedupesByName: true,
			projectCaveat: "Mistral Vibe reads project skills only in the folder it is started in, and only when that folder is trusted.",
			status:        "documented: mistralai/mistral-vibe@ac8f1a09fdfbadb6d4508a555ba6607fd05eb0dc vibe/core/paths/_local_config_files.py, README.md",
		},
		{
			// Source: MoonshotAI/kimi-cli@4a550effdfcb29a25a5d325bf935296cc50cd417
			// src/kimi_cli/skill/__init__.py and docs/en/customization/skills.md:
			// a brand group (.kimi, .claude, .codex; every existing one is read,
			// merge_all_available_skills defaults to true) and a generic group
			// (~/.config/agents/skills or ~/.agents/skills: "the first existing
			// directory is selected"), all literal under home, at the git root
			// for projects; the first skill of a name wins.
			id: "kimi-cli", displayName: "Kimi Code CLI", aliases: []string{"kimi"},
			executables: []string{"kimi", "kimi-cli"},
			configDirs:  []place{homeEnv("KIMI_SHARE_DIR", ".kimi", "")},
			markers:     []string{".kimi"},
			kinds: map[format.Kind]kindSpec{
				format.KindSkill: {
					shape: ShapeDirectory,
					global: []rootSpec{
						read(homeDir(".kimi", "skills")), readCompat(claudeLiteral), readCompat(codexLiteral),
						{place: homeDir(".config/agents", "skills"), group: "generic"},
						{place: sharedGlobal, group: "generic"},
					},
					project: []rootSpec{
						read(projectDir(".kimi/skills")), readCompat(claudeProject), readCompat(codexProject),
						read(sharedProject),
					},
				},
			},
			skipReasons:   genericSkips("Kimi Code CLI"),
			dedupesByName: true,
			status:        "documented: MoonshotAI/kimi-cli@4a550effdfcb29a25a5d325bf935296cc50cd417 src/kimi_cli/skill/__init__.py",
		},
		{
			// Source: badlogic/pi-mono@83378aad7e74a0e2bb8f37c007a9685fb4609d8a
			// packages/coding-agent/src/core/package-manager.ts: .pi/skills in
			// the start folder only, .agents/skills from the start folder up to
			// the git root, $PI_CODING_AGENT_DIR/skills (default
			// ~/.pi/agent/skills) and ~/.agents/skills; src/core/skills.ts keeps
			// the first skill of a name. Docs: packages/coding-agent/docs/skills.md.
			id: "pi", displayName: "Pi",
			executables: []string{"pi"},
			configDirs:  []place{homeEnv("PI_CODING_AGENT_DIR", ".pi/agent", "")},
			markers:     []string{".pi"},
			npmPackage:  "@mariozechner/pi-coding-agent",
			kinds: map[format.Kind]kindSpec{
				format.KindSkill: {
					shape:   ShapeDirectory,
					global:  []rootSpec{read(homeEnv("PI_CODING_AGENT_DIR", ".pi/agent", "skills")), read(sharedGlobal)},
					project: []rootSpec{read(projectDir(".pi/skills")), walk(sharedProject)},
				},
			},
			skipReasons:   genericSkips("Pi"),
			dedupesByName: true,
			projectCaveat: "Pi reads .pi/skills only in the folder it is started in (.agents/skills also in the folders above it, up to the git root).",
			status: "documented: badlogic/pi-mono@83378aad7e74a0e2bb8f37c007a9685fb4609d8a " +
				"packages/coding-agent/src/core/package-manager.ts",
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
