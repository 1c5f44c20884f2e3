// Package hooks speaks the session-start hook formats of the coding agents
// agent-skills serves: the JSON a SessionStart hook prints to add context
// (Envelope), the output that adds nothing (Neutral), the registration each
// host's settings file needs (Config) and a check that a settings file holds
// it exactly (Verify).
//
// The formats, as the real agents read them:
//
//   - Claude Code: settings.json "hooks" → "SessionStart" → matcher groups →
//     {"type":"command","command":…,"timeout":seconds}; the hook prints
//     {"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":…}}.
//   - Codex: the same event and output schema, in ~/.codex/hooks.json
//     ($CODEX_HOME) or <repo>/.codex/hooks.json (a trusted project only).
//     Hooks are on by default since 0.169.0, but Codex runs only a hook
//     whose hash config.toml records as trusted
//     ([hooks.state."<key>"] trusted_hash; cli/internal/codexapp asks Codex
//     for key and hash). Codex rejects a SessionStart output without
//     hookSpecificOutput, or with a top-level additionalContext, so the
//     neutral output keeps the envelope with empty context.
//   - Gemini CLI: settings.json "hooks" → "SessionStart" → groups →
//     {"name":…,"type":"command","command":…,"timeout":milliseconds}; the
//     output is the same hookSpecificOutput object.
//   - GitHub Copilot CLI: {"version":1,"hooks":{"sessionStart":[{"type":
//     "command","bash":…,"powershell":…,"timeoutSec":…}]}} in
//     ~/.copilot/hooks/*.json (every folder) or .github/hooks/*.json (a
//     trusted folder only); a top-level {"additionalContext":…} output
//     reaches the model (Copilot CLI 1.0.102; the hookSpecificOutput
//     envelope runs but is not injected).
//
// docs/hosts.md records how each fact was checked against the real agents.
//
// The package is pure: bytes in, bytes out.
package hooks
