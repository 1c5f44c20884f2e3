package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// OnboardingVersion is the version of the onboarding tool's data. It
// changes when a field changes meaning or disappears; new fields keep it.
const OnboardingVersion = 1

// HostFacts is what agent-skills knows about one coding agent ("host"):
// where it keeps MCP servers and session hooks and what gates them, as
// docs/hosts.md records them with their sources. It is data only: the
// onboarding tool returns it, and other code (setup) may read it.
type HostFacts struct {
	// ID is the host id of --host: claude, codex, gemini, copilot or
	// opencode.
	ID string `json:"id"`
	// Name is the product's name.
	Name string `json:"name"`
	// Agent is the agent id of install --agent.
	Agent string `json:"agent"`
	// Package is the npm package the host ships as.
	Package string `json:"package"`
	// Checked is the host version docs/hosts.md's facts were checked with.
	Checked string `json:"checked"`
	// MCPUserFile is the user-level file that registers MCP servers.
	MCPUserFile string `json:"mcpUserFile"`
	// MCPProjectFile is the project-level one.
	MCPProjectFile string `json:"mcpProjectFile"`
	// MCPCommand is the host's own command that registers the server for
	// the user.
	MCPCommand string `json:"mcpCommand"`
	// HookFiles are the files a session-start hook goes in; empty when
	// the host has no shell hooks.
	HookFiles []string `json:"hookFiles"`
	// HookEvent is the session-start event's name; empty when the host
	// has no shell hooks.
	HookEvent string `json:"hookEvent,omitempty"`
	// Gates are the trust or approval rules that can hide a correct
	// registration.
	Gates []string `json:"gates"`
}

// Hosts is the table of the five hosts, in the order of the issue.
var Hosts = []HostFacts{
	{ID: "claude", Name: "Claude Code", Agent: "claude-code", Package: "@anthropic-ai/claude-code", Checked: "2.1.328",
		MCPUserFile: "~/.claude.json (mcpServers; $CLAUDE_CONFIG_DIR/.claude.json when set)", MCPProjectFile: ".mcp.json",
		MCPCommand: "claude mcp add --scope user agent-skills -- agent-skills mcp serve",
		HookFiles:  []string{"~/.claude/settings.json", ".claude/settings.json"}, HookEvent: "SessionStart",
		Gates: []string{"servers from .mcp.json wait for approval in an interactive session",
			"a comment in settings.json stops its hooks from running: the file must stay strict JSON"}},
	{ID: "codex", Name: "Codex", Agent: "codex", Package: "@openai/codex", Checked: "0.169.0",
		MCPUserFile:    "$CODEX_HOME/config.toml ([mcp_servers.agent-skills]; CODEX_HOME defaults to ~/.codex)",
		MCPProjectFile: ".codex/config.toml (only in a trusted project)",
		MCPCommand:     "codex mcp add agent-skills -- agent-skills mcp serve",
		HookFiles:      []string{"$CODEX_HOME/hooks.json", ".codex/hooks.json"}, HookEvent: "SessionStart",
		Gates: []string{"every hook must be trusted (open /hooks in Codex, or a recorded trusted_hash) before it runs",
			"project config is read only in a trusted project"}},
	{ID: "gemini", Name: "Gemini CLI", Agent: "gemini-cli", Package: "@google/gemini-cli", Checked: "0.61.0",
		MCPUserFile:    "~/.gemini/settings.json (mcpServers; $GEMINI_CLI_HOME/.gemini when set)",
		MCPProjectFile: ".gemini/settings.json (trusted folder only)",
		MCPCommand:     "gemini mcp add -s user agent-skills agent-skills mcp serve",
		HookFiles:      []string{"~/.gemini/settings.json", ".gemini/settings.json"}, HookEvent: "SessionStart",
		Gates: []string{"in headless -p mode a server's tools reach the model only with \"trust\": true, which skips every confirmation",
			"hooks run only in a trusted folder"}},
	{ID: "copilot", Name: "GitHub Copilot CLI", Agent: "github-copilot", Package: "@github/copilot", Checked: "1.0.102",
		MCPUserFile:    "~/.copilot/mcp-config.json (mcpServers; $COPILOT_HOME when set)",
		MCPProjectFile: ".mcp.json or .github/mcp.json (trusted folder only)",
		MCPCommand:     "copilot mcp add agent-skills -- agent-skills mcp serve",
		HookFiles:      []string{"~/.copilot/hooks/agent-skills.json", ".github/hooks/agent-skills.json"}, HookEvent: "sessionStart",
		Gates: []string{"repository hooks and workspace MCP servers need folder trust; ~/.copilot/hooks needs none",
			"Copilot rewrites settings.json and drops its comments"}},
	{ID: "opencode", Name: "OpenCode", Agent: "opencode", Package: "opencode-ai", Checked: "1.18.33",
		MCPUserFile:    "~/.config/opencode/opencode.jsonc or opencode.json (mcp; $XDG_CONFIG_HOME/opencode when set)",
		MCPProjectFile: "opencode.json or opencode.jsonc at the project root",
		MCPCommand:     "opencode mcp add agent-skills -- agent-skills mcp serve",
		HookFiles:      []string{},
		Gates:          []string{"OpenCode has no shell hooks: its session-start hook is a JS plugin in .opencode/plugins/"}},
}

// HostFactsFor returns the facts of host id.
func HostFactsFor(id string) (HostFacts, bool) {
	for _, h := range Hosts {
		if h.ID == id {
			return h, true
		}
	}
	return HostFacts{}, false
}

// HostIDs returns the ids of Hosts, in order.
func HostIDs() []string {
	ids := make([]string, len(Hosts))
	for i, h := range Hosts {
		ids[i] = h.ID
	}
	return ids
}

// OnboardingStep is one thing to do, with the commands that do it.
type OnboardingStep struct {
	// ID names the step: setup, mcp, hooks or first-skill.
	ID string `json:"id"`
	// Title says what the step achieves.
	Title string `json:"title"`
	// Commands are shell commands for the user to run, in order.
	Commands []string `json:"commands"`
	// Note says what to know before running them.
	Note string `json:"note,omitempty"`
}

// Onboarding is the onboarding tool's result.
type Onboarding struct {
	// Version is OnboardingVersion.
	Version int `json:"version"`
	// Host is the host's facts.
	Host HostFacts `json:"host"`
	// Steps are the ways to wire the host up and to install a skill.
	Steps []OnboardingStep `json:"steps"`
	// Examples are further commands worth knowing.
	Examples []string `json:"examples"`
	// Note says that nothing was run.
	Note string `json:"note"`
}

// OnboardingFor returns the onboarding data of host id.
func OnboardingFor(id string) (Onboarding, error) {
	h, ok := HostFactsFor(id)
	if !ok {
		return Onboarding{}, fmt.Errorf("unknown host %q: use %s", id, strings.Join(HostIDs(), ", "))
	}
	o := Onboarding{Version: OnboardingVersion, Host: h,
		Note: "Data only: this tool ran nothing and changed nothing. Show the commands to the user, or run them only with the user's consent."}
	o.Steps = append(o.Steps, OnboardingStep{ID: "setup", Title: "Register the MCP server and the session hook in one command",
		Commands: []string{"agent-skills setup enable --host " + h.ID, "agent-skills setup enable --host " + h.ID + " --write",
			"agent-skills setup status --host " + h.ID},
		Note: "The first command previews the change as a diff; --write applies it and records a receipt; " +
			"`agent-skills setup disable --host " + h.ID + "` undoes it."})
	mcpStep := OnboardingStep{ID: "mcp", Title: "Or register the MCP server by hand",
		Commands: []string{"agent-skills mcp config --host " + h.ID, h.MCPCommand},
		Note:     "The first prints the entry to merge into " + h.MCPUserFile + " or " + h.MCPProjectFile + "; the second is " + h.Name + "'s own command."}
	o.Steps = append(o.Steps, mcpStep)
	if h.HookEvent != "" {
		o.Steps = append(o.Steps, OnboardingStep{ID: "hooks", Title: "Or register the session-start hook by hand",
			Commands: []string{"agent-skills hook config --host " + h.ID},
			Note:     "Merge what it prints into one of " + strings.Join(h.HookFiles, ", ") + "; the hook lists the installed skills at " + h.HookEvent + "."})
	} else {
		o.Steps = append(o.Steps, OnboardingStep{ID: "hooks", Title: "Session-start hook", Commands: []string{},
			Note: h.Name + " has no shell hooks; setup writes its JS plugin instead."})
	}
	o.Steps = append(o.Steps, OnboardingStep{ID: "first-skill", Title: "Install a first skill",
		Commands: []string{"agent-skills search java", "agent-skills install java-basics --agent " + h.Agent, "agent-skills list"},
		Note:     "install writes the skill where " + h.Name + " reads skills. Add --project to install into the current project."})
	o.Examples = []string{
		"agent-skills info java-basics",
		"agent-skills install java-basics --agent " + h.Agent + " --project",
		"agent-skills catalog overview",
		"agent-skills uninstall java-basics",
	}
	return o, nil
}

// OnboardingInput is the onboarding tool's arguments.
type OnboardingInput struct {
	Host string `json:"host" jsonschema:"the coding agent to wire up: claude, codex, gemini, copilot or opencode"`
}

// addOnboarding adds the read-only onboarding tool.
func addOnboarding(s *mcp.Server) {
	ro := &mcp.ToolAnnotations{Title: "How to set up a host", ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)}
	ids := make([]any, len(Hosts))
	for i, h := range Hosts {
		ids[i] = h.ID
	}
	mcp.AddTool(s, &mcp.Tool{Name: "onboarding", Annotations: ro,
		Description: "Return versioned onboarding data for a coding agent: the commands that register this MCP server " +
			"and the session-start hook (agent-skills setup, or by hand), that install a first skill, and examples. " +
			"Data only: nothing is run.",
		InputSchema: schema[OnboardingInput](func(p map[string]*jsonschema.Schema) { p["host"].Enum = ids }, "host")},
		func(_ context.Context, _ *mcp.CallToolRequest, in OnboardingInput) (*mcp.CallToolResult, Onboarding, error) {
			o, err := OnboardingFor(in.Host)
			if err != nil {
				return nil, Onboarding{}, err
			}
			var b strings.Builder
			fmt.Fprintf(&b, "Onboarding for %s (data version %d; nothing was run):\n", o.Host.Name, o.Version)
			for _, st := range o.Steps {
				fmt.Fprintf(&b, "\n%s:\n", st.Title)
				for _, c := range st.Commands {
					fmt.Fprintf(&b, "  %s\n", c)
				}
				if st.Note != "" {
					fmt.Fprintf(&b, "  (%s)\n", st.Note)
				}
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: b.String()}}}, o, nil
		})
}
