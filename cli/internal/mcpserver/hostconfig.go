package mcpserver

import (
	"encoding/json"
	"fmt"
	"strings"
)

// ServerName is the name every host registers the server under.
const ServerName = "agent-skills"

// HostConfig is how one coding agent registers the server.
type HostConfig struct {
	// Host is claude, codex, copilot, gemini or opencode.
	Host string `json:"host"`
	// File is where the registration goes.
	File string `json:"file"`
	// Format is json, jsonc or toml.
	Format string `json:"format"`
	// Snippet is the text to merge into File.
	Snippet string `json:"snippet"`
	// Command is a CLI command that registers the server instead, when
	// the host has one.
	Command string `json:"command,omitempty"`
	// Note says what else the host needs before it offers the tools.
	Note string `json:"note,omitempty"`
}

// HostConfigFor returns the registration of the stdio server, run as
// "agent-skills mcp serve" plus args, for host.
func HostConfigFor(host string, args ...string) (HostConfig, error) {
	argv := append([]string{"mcp", "serve"}, args...)
	entry := map[string]any{"command": "agent-skills", "args": argv}
	servers := func(extra map[string]any) string {
		e := map[string]any{}
		for k, v := range entry {
			e[k] = v
		}
		for k, v := range extra {
			e[k] = v
		}
		b, _ := json.MarshalIndent(map[string]any{"mcpServers": map[string]any{ServerName: e}}, "", "  ")
		return string(b) + "\n"
	}
	switch host {
	case "claude":
		cmd := "claude mcp add --scope project " + ServerName + " --"
		for _, a := range append([]string{"agent-skills"}, argv...) {
			cmd += " " + a
		}
		return HostConfig{Host: host, File: ".mcp.json", Format: "json",
			Snippet: servers(map[string]any{"type": "stdio"}), Command: cmd}, nil
	case "codex":
		return HostConfig{Host: host, File: "~/.codex/config.toml", Format: "toml",
			Snippet: fmt.Sprintf("[mcp_servers.%s]\ncommand = \"agent-skills\"\nargs = %s\n", ServerName, tomlList(argv))}, nil
	case "copilot":
		return HostConfig{Host: host, File: "~/.copilot/mcp-config.json", Format: "json",
			Snippet: servers(map[string]any{"type": "local", "tools": []string{"*"}})}, nil
	case "gemini":
		// Headless Gemini CLI (gemini -p) starts an untrusted server but
		// offers none of its tools (docs/hosts.md): trust bypasses every
		// confirmation, so it is the user's choice, not our default.
		return HostConfig{Host: host, File: ".gemini/settings.json", Format: "json", Snippet: servers(nil),
			Note: `gemini -p offers the tools only with "trust": true in the entry, which skips Gemini's confirmation of each call; add it only if you want that`}, nil
	case "opencode":
		// OpenCode keeps the command and its arguments in one list, under
		// "mcp" (docs/hosts.md, checked with opencode mcp add).
		b, _ := json.MarshalIndent(map[string]any{"mcp": map[string]any{ServerName: map[string]any{
			"type": "local", "command": append([]string{"agent-skills"}, argv...), "enabled": true}}}, "", "  ")
		cmd := "opencode mcp add " + ServerName + " --"
		for _, a := range append([]string{"agent-skills"}, argv...) {
			cmd += " " + a
		}
		return HostConfig{Host: host, File: "opencode.json", Format: "jsonc", Snippet: string(b) + "\n", Command: cmd}, nil
	}
	return HostConfig{}, fmt.Errorf("unknown host %q: use claude, codex, copilot, gemini or opencode", host)
}

// tomlList renders plain strings as a TOML array: a JSON array of strings
// without control characters is also a TOML array.
func tomlList(items []string) string {
	b, _ := json.Marshal(items)
	return strings.ReplaceAll(string(b), `","`, `", "`)
}
