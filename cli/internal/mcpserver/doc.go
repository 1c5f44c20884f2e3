// Package mcpserver exposes the skill catalog to agents as a Model Context
// Protocol server, built on the official Go SDK.
//
// New returns a server with four read-only tools — search_skills,
// read_skill, skills_overview and skill_info — and, only when
// Options.AllowWrite is set, install_skill and uninstall_skill, whose dryRun
// argument defaults to true. Every tool has a typed input schema with
// bounds (query length, limits, name grammar); arguments that break it are
// rejected by the SDK as a tool error (isError), as is every failure of the
// Backend, whose message carries its ASK_* code. Outputs are bounded: search
// and overview are capped and say so in a note, and read serves at most the
// catalog's read cap.
//
// The package does no I/O of its own: the Backend (the CLI) does the work,
// so that tests drive the server with an in-memory transport and a fake
// Backend.
package mcpserver
