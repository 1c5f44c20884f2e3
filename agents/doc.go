// Package agents describes the coding agents that load skills — Claude
// Code, Codex, GitHub Copilot, Gemini CLI, Cursor, OpenCode, Windsurf,
// Goose, Amp, Cline, Kilo Code, Roo Code, Kiro CLI, Qwen Code, Factory
// Droid, Continue, Junie, Augment, OpenHands, Warp, Zed, Crush, Mistral
// Vibe, Kimi Code CLI and Pi (docs/agents.md has the table with its
// sources) — and answers, for each one, the questions an installer
// asks: is it installed (Detect), which folders does it read (ReadRoots,
// Roots), where should a package of a given kind go (LocationFor), what
// does the package look like once projected for it (LayoutFor,
// LayoutForRoot), and what in a package would it refuse (Validate).
//
// # Knowledge as data
//
// Everything known about an agent is one row of the built-in table
// (builtin.go; Default makes a Table of it, looked up by id and alias):
// id, display name, aliases, the agentOverrides keys it allows, the
// executables and configuration folders that prove it is installed, the
// project markers that hint at it, and per package kind and scope the ordered
// roots it reads, the root it prefers to be written to, and the shape of a
// package there (a folder, or one file plus an extension). Adding an agent
// is adding a row; an agent with front-matter keys or files of its own also
// gets a key list or a projection hook. Roots resolve against Env: Home,
// ProjectRoot, the variables that move an agent's folder (CLAUDE_CONFIG_DIR,
// CODEX_HOME, XDG_CONFIG_HOME, CLINE_DIR, QWEN_HOME, …) read through
// Env.Getenv, and per-agent skills-root overrides from configuration
// (Env.Overrides), which replace the skills root only. A root is read in
// the project root's folder, in every folder from Env.WorkDir up to it
// (walk-up), or in Env.WorkDir and the project root; it may belong to
// another agent (compat: written only when that agent is selected), and
// a group of alternative roots is read only in its first existing member
// (Kimi), the one place where roots depend on Env.Stat.
//
// Decisions the table encodes:
//
//   - Codex: skills are written to ~/.agents/skills (global) and
//     <project>/.agents/skills. Codex 0.169 also reads $CODEX_HOME/skills
//     and <project>/.codex/skills, but its source marks them deprecated, so
//     they are read roots only (doctor reports skills found there). The
//     agent-oracle run showed a skill present in two roots is listed twice.
//   - Claude Code reads no shared root: it always gets its own copy in
//     $CLAUDE_CONFIG_DIR/skills (default ~/.claude/skills) or
//     <project>/.claude/skills, and commands in …/commands/<name>.md. It
//     allows no agentOverrides: every key it understands lives in SKILL.md.
//   - Commands have a location for Claude Code only. Workflows have none:
//     no agent was verified to load a WORKFLOW.js from any folder, and this
//     package never writes to an invented path; installs skip with a reason.
//   - Project roots of Claude Code, Codex and OpenCode are read in every
//     folder from Env.WorkDir up to the project root.
//
// # Exactly once
//
// Several agents read the same folder (.agents/skills is read by Codex,
// Copilot, Gemini CLI, Cursor, OpenCode, Windsurf, Goose and Amp) and most
// read several. PlanRoots picks the roots one package is written to so
// that every selected agent sees it, each root is written once, and no
// agent sees it twice unless no choice of roots avoids that (Copilot reads
// both the .claude/skills Claude Code needs and the .agents/skills Codex
// needs); such agents are reported in Plan.Duplicates. The choice is the
// best one for any number of agents: only roots two selected agents read
// are searched, each agent's own roots completing the choice. Agents that
// were not selected but read a root written anyway are named by
// Plan.NoteBystanders, so the report can say who else will see it. A
// root written for several agents gets LayoutForRoot's projection, the
// union of what each reader needs. Two roots that are one folder (a project whose
// .claude/skills links to .agents/skills) are one root: the CLI passes
// Env.Canonical, which resolves the links, and every root reported goes
// through it, so the folder is planned, written and listed once with all
// its readers. The package itself never looks at the file system; it
// asks Env.Stat only for detection and for alternative roots.
//
// # Projection
//
// LayoutFor is pure: package in, files out, read from the package's fs.FS
// only. The entrypoint's front matter is rewritten with a fixed key order
// (name, description, license, the Agent Skills keys compatibility,
// allowed-tools and metadata, then the agent's own keys) and the body bytes
// are kept exactly. Claude Code skills keep the Claude keys the author
// wrote (when_to_use, argument-hint, disable-model-invocation,
// user-invocable, model, effort, context, agent, hooks, paths, shell);
// Claude Code commands become one <name>.md with description,
// argument-hint, allowed-tools and model. Codex skills gain
// metadata.short-description and a synthesised agents/openai.yaml from
// agentOverrides.codex.interface. Other files are copied unchanged,
// skill.yaml included: agents ignore it, and it lets `list` and `doctor`
// read the installed version and re-validate the folder.
//
// # Purity and errors
//
// Nothing here reads the environment, the clock or the file system except
// through the functions in Env, and nothing runs an agent binary. Errors a
// user can see are *Error values: a stable code (the Code constants), a
// message, detail lines and next actions, read by the CLI through
// ErrorCode, ErrorDetail and ErrorTry; Error() is the message alone. They
// are ASK_AGENT_UNKNOWN (Table.Lookup, Table.Select), ASK_NO_AGENT (AutoSelect, and
// NoAgentError for the CLI), ASK_LAYOUT_INVALID (an adapter bug) and
// ASK_PACKAGE_UNSAFE_FILE (Layout.Check, a package file name some system
// cannot create). The CLI maps codes to exit statuses. Adapter validation
// reports ASK_AGENT_CONSTRAINT diagnostics.
package agents
