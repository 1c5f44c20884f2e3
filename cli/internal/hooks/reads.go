package hooks

import "encoding/json"

// ReadCommand returns the command line a host runs for the read hook.
func ReadCommand(h Host) string { return "agent-skills hook observe --host " + string(h) }

// ReadEventName is the post-tool event the read hook is registered for.
func (h Host) ReadEventName() string {
	switch h {
	case Copilot:
		return "postToolUse"
	case Gemini:
		return "AfterTool"
	}
	return "PostToolUse"
}

// ReadMatcher is the tool the read hook's group matches: Claude Code's
// Read, Codex's shell tool (Bash in hooks), Gemini CLI's read_file; ""
// for Copilot CLI, whose hooks have no matcher.
func (h Host) ReadMatcher() string {
	switch h {
	case Claude:
		return "Read"
	case Codex:
		return "Bash"
	case Gemini:
		return "read_file"
	}
	return ""
}

// readHandler returns the read hook's handler object for h.
func readHandler(h Host) map[string]any {
	cmd := ReadCommand(h)
	switch h {
	case Copilot:
		return map[string]any{"type": "command", "bash": cmd, "powershell": cmd, "timeoutSec": TimeoutSeconds}
	case Gemini:
		return map[string]any{"name": "agent-skills-observe", "type": "command", "command": cmd, "timeout": TimeoutSeconds * 1000}
	}
	return map[string]any{"type": "command", "command": cmd, "timeout": TimeoutSeconds}
}

// ReadConfig returns the registration of the read hook ("hook observe")
// for h, as setup enable --reads writes it (docs/evidence-hooks.md).
func ReadConfig(h Host) Registration {
	var doc any
	if h == Copilot {
		doc = map[string]any{"version": 1, "hooks": map[string]any{h.ReadEventName(): []any{readHandler(h)}}}
	} else {
		doc = map[string]any{"hooks": map[string]any{h.ReadEventName(): []any{
			map[string]any{"matcher": h.ReadMatcher(), "hooks": []any{readHandler(h)}}}}}
	}
	b, _ := json.MarshalIndent(doc, "", "  ")
	r := Config(h)
	r.Snippet = b
	switch h {
	case Codex:
		r.Note = "Codex runs only a hook you trust: trust it with /hooks in an interactive codex session (or let agent-skills setup enable --host codex --reads --write do it); the trust is kept in ~/.codex/config.toml."
	case Copilot:
		r.Files = []string{".github/hooks/agent-skills-reads.json", "~/.copilot/hooks/agent-skills-reads.json"}
		r.Note = "Copilot CLI calls a postToolUse hook after every tool; the hook keeps only successful view reads."
	}
	return r
}

// VerifyRead is Verify for the read hook: the settings file must hold
// ReadConfig's handler under the host's post-tool event, in a group whose
// matcher is the host's read tool.
func VerifyRead(h Host, data []byte) []string {
	return verify(h, data, h.ReadEventName(), h.ReadMatcher(), readHandler(h), "hook observe")
}
