// Package policy reads the policy files a user and a team set for what
// agent-skills may install, and merges them into the Effective policy a
// command enforces.
//
// There are two files: the user's, $AGENT_SKILLS_HOME/policy.json, and
// the project's, skills-policy.json at the project root beside skills.lock
// (committed with the project). Both have the same shape
// (docs/policy.md); the merge only tightens: a project can forbid more,
// never allow what the user's policy forbids. Every effective line keeps
// the file and line it came from, for errors and for `doctor`.
//
// A policy file is untrusted input when it comes with a project: it is
// read only as a regular file of at most 1 MiB, decoded strictly (an
// unknown or repeated key, a bad glob, an unknown rule id or severity is
// ASK_POLICY_INVALID with its line) and used only when nothing in it is
// wrong. What a policy refuses is ASK_POLICY_VIOLATION (exit 5), raised
// before anything is written.
//
// The package matches strings only: callers turn registries and sources
// into the names and "host/path" subjects it checks (Subject).
package policy
