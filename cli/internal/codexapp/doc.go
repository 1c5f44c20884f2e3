// Package codexapp asks a real Codex for the hooks it sees, so that setup
// can record a hook's trust with the hash Codex itself computed.
//
// Codex 0.169.0 runs a hook from hooks.json (or config.toml's [hooks])
// only when config.toml records the hook's current hash:
//
//	[hooks.state."/abs/.codex/hooks.json:session_start:0:0"]
//	trusted_hash = "sha256:…"
//
// The key and the hash come from `codex app-server`, a JSON-RPC server on
// stdio (one JSON object a line): initialize, the initialized
// notification, then hooks/list {"cwds": […]}, whose answer lists every
// hook with its key, currentHash and trustStatus. The hash algorithm is
// Codex's own and has changed between versions, so it is never computed
// here (docs/hosts.md, "Session-start hook" under Codex).
//
// ListHooks starts the app-server from an argument array, never through a
// shell, with the environment the caller gives (CODEX_HOME decides which
// config.toml and hooks.json Codex reads), and bounds the time, the line
// length, the total output and the number of hooks. Strings in the answer
// come from another program and may hold anything: callers sanitise them
// (cli/internal/termtext) before printing and write them to files only
// through an encoder (cli/internal/tomledit quotes them).
//
// Failures are an *Error whose Kind says which step failed; the setup
// command turns them into its ASK_* errors.
package codexapp
