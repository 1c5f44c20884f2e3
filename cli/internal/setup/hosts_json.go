package setup

import (
	"encoding/json"
	"path/filepath"

	"github.com/agent-skills/agent-skills/cli/internal/hooks"
	"github.com/agent-skills/agent-skills/cli/internal/mcpserver"
)

// The files and shapes below are docs/hosts.md's, checked against the
// real agents; each host's section there gives the source of each fact.

// hookTimeout is the hook timeout every host gets, in seconds.
const hookTimeout = hooks.TimeoutSeconds

// raw marshals v, which cannot fail for the values built here.
func raw(v any) json.RawMessage {
	b, _ := marshal(v)
	return b
}

// obj builds a JSON object whose members keep the order given (name,
// value, name, value, …): the order each host's own commands write.
func obj(kv ...any) json.RawMessage {
	var b []byte
	b = append(b, '{')
	for i := 0; i+1 < len(kv); i += 2 {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, raw(kv[i].(string))...)
		b = append(b, ':')
		b = append(b, raw(kv[i+1])...)
	}
	return append(b, '}')
}

// hookCommand is the command line of the session-index hook for host.
func hookCommand(o Options, host string) string {
	return o.command() + " hook session-index --host " + host
}

// hookMarker identifies a session-index hook, ours even when edited.
const hookMarker = "hook session-index"

// readCommand is the command line of the read hook for host.
func readCommand(o Options, host string) string {
	return o.command() + " hook observe --host " + host
}

// readMarker identifies a read hook, ours even when edited.
const readMarker = "hook observe"

// readMatchers are the tools each host's read hook is registered for
// (docs/evidence-hooks.md): Claude Code's Read tool, Codex's shell tool
// (which it names Bash in hooks) and Gemini CLI's read_file. Copilot CLI
// has no matcher: its hook runs after every tool and filters itself.
var readMatchers = map[string]string{"claude": "Read", "codex": "Bash", "gemini": "read_file"}

// serveArgs are the arguments of the MCP server's command.
var serveArgs = []string{"mcp", "serve"}

// mcpPath is where an MCP server entry goes in the files of Claude,
// Gemini and Copilot.
var mcpPath = []string{"mcpServers", mcpserver.ServerName}

// claude is Claude Code: MCP servers in ~/.claude.json (user) or .mcp.json
// (project), the hook in settings.json, all strict JSON.
type claude struct{}

func (claude) Name() string { return "claude" }

// configDir is $CLAUDE_CONFIG_DIR, else ~/.claude.
func (claude) configDir(env Env) string {
	return env.env("CLAUDE_CONFIG_DIR", filepath.Join(env.Home, ".claude"))
}

func (c claude) Installed(env Env) bool {
	return exists(c.configDir(env)) || onPath(env, "claude")
}

func (c claude) Entries(env Env, scope Scope, o Options) ([]Entry, error) {
	var mcpFile, hookFile string
	if scope == User {
		// Claude keeps user MCP servers in its state file: ~/.claude.json,
		// or .claude.json inside $CLAUDE_CONFIG_DIR when that is set.
		mcpFile = filepath.Join(env.Home, ".claude.json")
		if d := env.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
			mcpFile = filepath.Join(d, ".claude.json")
		}
		hookFile = filepath.Join(c.configDir(env), "settings.json")
	} else {
		var err error
		if mcpFile, err = inProject(env, ".mcp.json"); err != nil {
			return nil, err
		}
		hookFile, _ = inProject(env, ".claude", "settings.json")
	}
	var out []Entry
	if o.wants(MCP) {
		out = append(out, Entry{Part: MCP, File: mcpFile, Format: JSON(), Kind: Member, Path: mcpPath, Command: o.command(),
			Value: obj("type", "stdio", "command", o.command(), "args", serveArgs, "env", map[string]any{})})
	}
	if o.wants(Hooks) {
		out = append(out, Entry{Part: Hooks, File: hookFile, Format: JSON(), Kind: Element, Path: []string{"hooks", "SessionStart"},
			Marker: hookMarker, Command: o.command(),
			Value: obj("hooks", []any{obj("type", "command", "command", hookCommand(o, "claude"), "timeout", hookTimeout)})})
	}
	if o.wants(Reads) {
		out = append(out, Entry{Part: Reads, File: hookFile, Format: JSON(), Kind: Element, Path: []string{"hooks", "PostToolUse"},
			Marker: readMarker, Command: o.command(),
			Value: obj("matcher", readMatchers["claude"], "hooks", []any{obj("type", "command", "command", readCommand(o, "claude"), "timeout", hookTimeout)})})
	}
	return out, nil
}

func (claude) Notes(scope Scope, o Options) []string {
	if scope == Project && o.wants(MCP) {
		return []string{"Claude Code asks once, in an interactive session, before it starts a server from .mcp.json (claude -p uses it without asking)."}
	}
	return nil
}

// gemini is Gemini CLI: MCP server and hook in settings.json (JSON with
// comments) under $GEMINI_CLI_HOME/.gemini or ~/.gemini, or the project's
// .gemini/.
type gemini struct{}

func (gemini) Name() string { return "gemini" }

// dir is the user folder: .gemini in $GEMINI_CLI_HOME, else in the home.
func (gemini) dir(env Env) string {
	return filepath.Join(env.env("GEMINI_CLI_HOME", env.Home), ".gemini")
}

func (g gemini) Installed(env Env) bool { return exists(g.dir(env)) || onPath(env, "gemini") }

func (g gemini) Entries(env Env, scope Scope, o Options) ([]Entry, error) {
	file := filepath.Join(g.dir(env), "settings.json")
	if scope == Project {
		var err error
		if file, err = inProject(env, ".gemini", "settings.json"); err != nil {
			return nil, err
		}
	}
	var out []Entry
	if o.wants(MCP) {
		v := obj("command", o.command(), "args", serveArgs)
		if o.TrustMCP {
			v = obj("command", o.command(), "args", serveArgs, "trust", true)
		}
		out = append(out, Entry{Part: MCP, File: file, Format: JSONC(), Kind: Member, Path: mcpPath, Command: o.command(), Value: v})
	}
	if o.wants(Hooks) {
		out = append(out, Entry{Part: Hooks, File: file, Format: JSONC(), Kind: Element, Path: []string{"hooks", "SessionStart"},
			Marker: hookMarker, Command: o.command(),
			Value: obj("hooks", []any{obj("name", "agent-skills-session-index", "type", "command",
				"command", hookCommand(o, "gemini"), "timeout", hookTimeout*1000)})})
	}
	if o.wants(Reads) {
		out = append(out, Entry{Part: Reads, File: file, Format: JSONC(), Kind: Element, Path: []string{"hooks", "AfterTool"},
			Marker: readMarker, Command: o.command(),
			Value: obj("matcher", readMatchers["gemini"], "hooks", []any{obj("name", "agent-skills-observe", "type", "command",
				"command", readCommand(o, "gemini"), "timeout", hookTimeout*1000)})})
	}
	return out, nil
}

func (gemini) Notes(scope Scope, o Options) []string {
	var out []string
	if o.wants(MCP) && !o.TrustMCP {
		out = append(out, `Gemini CLI starts the server but offers its tools in headless mode (gemini -p) only with "trust": true on it, which skips every confirmation of its tools: add --trust-mcp to write it.`)
	}
	if o.wants(Hooks) || o.wants(Reads) {
		out = append(out, "Gemini CLI runs hooks only in a trusted folder.")
	}
	if scope == Project {
		out = append(out, "Gemini CLI reads a project's .gemini/settings.json only when the folder is trusted.")
	}
	return out
}

// copilot is GitHub Copilot CLI: MCP servers in $COPILOT_HOME/mcp-config.json
// (project: .github/mcp.json), the hook in a hooks file of its own.
type copilot struct{}

func (copilot) Name() string { return "copilot" }

// home is $COPILOT_HOME, else ~/.copilot.
func (copilot) home(env Env) string {
	return env.env("COPILOT_HOME", filepath.Join(env.Home, ".copilot"))
}

func (c copilot) Installed(env Env) bool { return exists(c.home(env)) || onPath(env, "copilot") }

func (c copilot) Entries(env Env, scope Scope, o Options) ([]Entry, error) {
	mcpFile := filepath.Join(c.home(env), "mcp-config.json")
	hookFile := filepath.Join(c.home(env), "hooks", "agent-skills.json")
	if scope == Project {
		var err error
		// .github/mcp.json, not .mcp.json: Claude Code's .mcp.json entry
		// has another shape under the same name.
		if mcpFile, err = inProject(env, ".github", "mcp.json"); err != nil {
			return nil, err
		}
		hookFile, _ = inProject(env, ".github", "hooks", "agent-skills.json")
	}
	var out []Entry
	if o.wants(MCP) {
		out = append(out, Entry{Part: MCP, File: mcpFile, Format: JSONC(), Kind: Member, Path: mcpPath, Command: o.command(),
			Value: obj("type", "local", "command", o.command(), "args", serveArgs, "env", map[string]any{}, "tools", []string{"*"})})
	}
	if o.wants(Hooks) {
		cmd := hookCommand(o, "copilot")
		out = append(out, Entry{Part: Hooks, File: hookFile, Format: OwnedJSON(), Kind: WholeFile, Command: o.command(),
			Value: obj("version", 1, "hooks", obj("sessionStart", []any{
				obj("type", "command", "bash", cmd, "powershell", cmd, "timeoutSec", hookTimeout)}))})
	}
	if o.wants(Reads) {
		// A file of its own beside the session hook's, so that each part is
		// enabled and disabled alone.
		readFile := filepath.Join(filepath.Dir(hookFile), "agent-skills-reads.json")
		cmd := readCommand(o, "copilot")
		out = append(out, Entry{Part: Reads, File: readFile, Format: OwnedJSON(), Kind: WholeFile, Command: o.command(),
			Value: obj("version", 1, "hooks", obj("postToolUse", []any{
				obj("type", "command", "bash", cmd, "powershell", cmd, "timeoutSec", hookTimeout)}))})
	}
	return out, nil
}

func (copilot) Notes(scope Scope, o Options) []string {
	if scope == Project {
		return []string{"Copilot CLI reads a repository's .github/mcp.json and .github/hooks/ only in a trusted folder."}
	}
	return nil
}

// opencode is OpenCode: the MCP server in opencode.json(c) under "mcp",
// the hook as a JS plugin file setup owns.
type opencode struct{}

func (opencode) Name() string { return "opencode" }

// dir is $XDG_CONFIG_HOME/opencode, else ~/.config/opencode.
func (opencode) dir(env Env) string {
	return filepath.Join(env.env("XDG_CONFIG_HOME", filepath.Join(env.Home, ".config")), "opencode")
}

func (c opencode) Installed(env Env) bool { return exists(c.dir(env)) || onPath(env, "opencode") }

// configFile returns the config file of dir: opencode.jsonc or
// opencode.json, whichever exists (.jsonc first), else opencode.json.
func configFile(dir string) string {
	for _, n := range []string{"opencode.jsonc", "opencode.json"} {
		if exists(filepath.Join(dir, n)) {
			return filepath.Join(dir, n)
		}
	}
	return filepath.Join(dir, "opencode.json")
}

func (c opencode) Entries(env Env, scope Scope, o Options) ([]Entry, error) {
	dir, plugins := c.dir(env), filepath.Join(c.dir(env), "plugins")
	if scope == Project {
		if env.ProjectRoot == "" {
			return nil, errNoProject()
		}
		dir, plugins = env.ProjectRoot, filepath.Join(env.ProjectRoot, ".opencode", "plugins")
	}
	var out []Entry
	if o.wants(MCP) {
		out = append(out, Entry{Part: MCP, File: configFile(dir), Format: JSONC(), Kind: Member, Path: []string{"mcp", mcpserver.ServerName},
			Command: o.command(),
			Value:   obj("type", "local", "command", append([]string{o.command()}, serveArgs...), "enabled", true)})
	}
	if o.wants(Hooks) {
		text, _ := json.Marshal(opencodePlugin(o.command()))
		out = append(out, Entry{Part: Hooks, File: filepath.Join(plugins, "agent-skills.js"), Format: OwnedText(), Kind: WholeFile,
			Command: o.command(), Value: text})
	}
	return out, nil
}

func (opencode) Notes(_ Scope, o Options) []string {
	if o.wants(Reads) && !o.wants(Hooks) {
		return []string{"OpenCode has no read hook agent-skills speaks: --reads registers nothing for it."}
	}
	if !o.wants(Hooks) {
		return nil
	}
	return []string{"OpenCode has no shell hooks: the session index comes from a plugin file setup owns (agent-skills.js), through OpenCode's experimental system-prompt hook."}
}

// opencodePlugin is the OpenCode plugin that adds the session index to
// the system prompt. It runs the session-index hook in Claude's output
// format and takes the text out of it.
func opencodePlugin(command string) string {
	cmd, _ := json.Marshal(command)
	return `// agent-skills: adds the index of the installed skills to OpenCode's system prompt.
// Written by "agent-skills setup enable --host opencode"; "agent-skills setup disable
// --host opencode" removes it. Edits are kept: setup leaves a changed file alone.
import { execFile } from "node:child_process";

function sessionIndex(cwd) {
  return new Promise((resolve) => {
    execFile(` + string(cmd) + `, ["hook", "session-index", "--host", "claude"],
      { cwd, timeout: 5000, maxBuffer: 1 << 20 }, (err, stdout) => {
        if (err) return resolve("");
        try {
          resolve(JSON.parse(stdout).hookSpecificOutput?.additionalContext ?? "");
        } catch {
          resolve("");
        }
      });
  });
}

export const AgentSkills = async ({ directory }) => {
  let text;
  return {
    "experimental.chat.system.transform": async (_input, output) => {
      if (text === undefined) text = await sessionIndex(directory);
      if (text) output.system.push(text);
    },
  };
};
`
}
