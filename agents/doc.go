// Package agents describes the coding agents that load skills (Claude Code,
// Codex, Copilot, Gemini CLI, Cursor and others): where each one reads skills
// and commands, how to detect it, and how a neutral package is projected onto
// it. Agent knowledge is data in one table.
package agents
