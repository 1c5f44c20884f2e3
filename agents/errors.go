package agents

import (
	"fmt"
	"strings"
)

// Error is a user-facing failure raised by this package. It carries a
// stable ASK_* code, the cause in Message, and the next actions in Hints,
// so that the CLI can print and map it without knowing its origin.
type Error struct {
	// Code is the stable ASK_* identifier of the failure.
	Code string
	// Message states the cause in one sentence.
	Message string
	// Hints lists the next actions, one per line, most useful first.
	Hints []string
}

// Error returns the message followed by the code, so that a wrapped error
// still names its code in logs.
func (e *Error) Error() string { return e.Message + " (" + e.Code + ")" }

// ErrorCode returns the stable ASK_* code of the failure.
func (e *Error) ErrorCode() string { return e.Code }

// ErrorTry returns the next actions a user can take, most useful first.
func (e *Error) ErrorTry() []string { return e.Hints }

// ExitCode returns the process exit code the design assigns to the error's
// code: 2 for an unknown agent (a usage error), 5 for a package file whose
// name is not portable, 6 when no agent was detected and 1 for an adapter
// bug.
func (e *Error) ExitCode() int {
	switch e.Code {
	case "ASK_AGENT_UNKNOWN":
		return 2
	case "ASK_PACKAGE_UNSAFE_FILE":
		return 5
	case "ASK_NO_AGENT":
		return 6
	}
	return 1
}

// unknownAgentError reports an agent id or alias that no adapter answers
// to. It lists every known id with its aliases and, when the input is a
// near miss of one of them, suggests it.
func unknownAgentError(input string, known []Adapter) *Error {
	var names []string
	var candidates []string
	for _, a := range known {
		entry := a.ID()
		candidates = append(candidates, a.ID())
		if al := a.Aliases(); len(al) > 0 {
			entry += " (alias " + strings.Join(al, ", ") + ")"
			candidates = append(candidates, al...)
		}
		names = append(names, entry)
	}
	hints := []string{"Known agents: " + strings.Join(names, ", ") + ", or all"}
	if s := closest(strings.ToLower(input), candidates); s != "" {
		hints = append([]string{fmt.Sprintf("Did you mean --agent %s?", s)}, hints...)
	}
	hints = append(hints, "Try: agent-skills agents   to see which agents are detected")
	return &Error{
		Code:    "ASK_AGENT_UNKNOWN",
		Message: fmt.Sprintf("unknown agent %q", input),
		Hints:   hints,
	}
}

// NoAgentError returns the ASK_NO_AGENT error the CLI raises when no agent
// has strong evidence and none was named with --agent. supported lists
// every agent the tool can install for; weak lists agents found only
// through a project marker, which need --agent to be used.
func NoAgentError(supported []Adapter, weak []Adapter) *Error {
	ids := make([]string, 0, len(supported))
	for _, a := range supported {
		ids = append(ids, a.ID())
	}
	var hints []string
	for _, a := range weak {
		hints = append(hints, fmt.Sprintf("%s left a project marker only; use it with --agent %s", a.DisplayName(), a.ID()))
	}
	hints = append(hints,
		"Supported agents: "+strings.Join(ids, ", "),
		"Install one of them, or name it with --agent <id> (--agent all for every one)",
		"Try: agent-skills agents   to see the evidence that was looked for",
	)
	return &Error{
		Code:    "ASK_NO_AGENT",
		Message: "no coding agent was detected on this machine",
		Hints:   hints,
	}
}

// layoutError reports an adapter bug: a projection that cannot be written
// as planned, such as several entries for a file-shaped target.
func layoutError(format string, args ...any) *Error {
	return &Error{
		Code:    "ASK_LAYOUT_INVALID",
		Message: fmt.Sprintf(format, args...),
		Hints: []string{
			"This is a bug in an agent adapter, not in the skill; nothing was written",
			"Report it with the output of: agent-skills doctor --json",
		},
	}
}

// closest returns the candidate nearest to s by edit distance, the first
// listed on a tie, or "" when none is within a third of s's length (at
// least 1, at most 2) — close enough to be a typing slip.
func closest(s string, candidates []string) string {
	best, bestDist := "", min(max(len(s)/3, 1), 2)+1
	for _, c := range candidates {
		if d := editDistance(s, c); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, by bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
