// Package hooks speaks the session-start hook formats of the coding agents
// agent-skills serves: the JSON a SessionStart hook prints to add context
// (Envelope), the output that adds nothing (Neutral), the registration each
// host's settings file needs (Config) and a check that a settings file holds
// it exactly (Verify).
//
// The formats, from each host's documentation:
//
//   - Claude Code: settings.json "hooks" → "SessionStart" → matcher groups →
//     {"type":"command","command":…,"timeout":seconds}; the hook prints
//     {"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":…}}.
//   - Codex: the same event and output schema, in ~/.codex/hooks.json or
//     <repo>/.codex/hooks.json, behind "[features] codex_hooks = true" in
//     config.toml; Codex rejects a SessionStart output without
//     hookSpecificOutput, so the neutral output keeps it with empty context.
//   - Gemini CLI: settings.json "hooks" → "SessionStart" → groups →
//     {"name":…,"type":"command","command":…,"timeout":milliseconds}; the
//     output is the same hookSpecificOutput object.
//   - GitHub Copilot CLI: .github/hooks/*.json {"version":1,"hooks":{
//     "sessionStart":[{"type":"command","bash":…,"powershell":…,"timeoutSec":…}]}};
//     its reference documents the sessionStart output as ignored, so the
//     envelope ({"additionalContext":…}, the Copilot SDK's field) is
//     informational there and the MCP server is the reliable path.
//
// The package is pure: bytes in, bytes out.
package hooks
