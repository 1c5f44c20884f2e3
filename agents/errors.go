package agents

import (
	"fmt"
	"strings"

	"github.com/agent-skills/agent-skills/format"
)

// The stable codes of the errors and diagnostics this package raises,
// documented in docs/errors.md. An unportable file name in a projection is
// format.CodePackageUnsafeFile.
const (
	// CodeAgentUnknown reports an agent id or alias no adapter answers to.
	CodeAgentUnknown = "ASK_AGENT_UNKNOWN"
	// CodeNoAgent reports that no agent was detected and none was named
	// (NoAgentError).
	CodeNoAgent = "ASK_NO_AGENT"
	// CodeLayoutInvalid reports that an adapter produced a projection that
	// cannot be written as planned — a bug in the adapter, not in the skill.
	CodeLayoutInvalid = "ASK_LAYOUT_INVALID"
	// CodeAgentConstraint is the diagnostic code of Adapter.Validate: what
	// an agent would refuse, drop or cut.
	CodeAgentConstraint = "ASK_AGENT_CONSTRAINT"
)

// Error is a user-facing failure raised by this package: a stable ASK_*
// code, the cause, the facts that explain it and the next actions, so that
// the CLI can render and map it without knowing its origin.
type Error struct {
	// Code is the stable ASK_* identifier, one of the Code constants or
	// format.CodePackageUnsafeFile.
	Code string
	// Message states the cause in one sentence.
	Message string
	// Detail holds further facts, one per line: the known agents, the
	// evidence found.
	Detail []string
	// Try lists the next actions, most useful first.
	Try []string
	// Err is the underlying error, if any.
	Err error
}

// Error returns the message and, when there is one, ": " and the
// underlying error. Detail lines are read with ErrorDetail.
func (e *Error) Error() string {
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

// ErrorCode returns the stable ASK_* code of the failure.
func (e *Error) ErrorCode() string { return e.Code }

// ErrorDetail returns the facts that explain the failure.
func (e *Error) ErrorDetail() []string { return e.Detail }

// ErrorTry returns the next actions a user can take, most useful first.
func (e *Error) ErrorTry() []string { return e.Try }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

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
	var try []string
	if near := format.Similar(strings.ToLower(input), candidates); len(near) > 0 {
		try = append(try, fmt.Sprintf("use --agent %s, the nearest known name", near[0]))
	}
	try = append(try, "agent-skills agents   to see which agents are detected")
	return &Error{
		Code:    CodeAgentUnknown,
		Message: fmt.Sprintf("unknown agent %q", input),
		Detail:  []string{"Known agents: " + strings.Join(names, ", ") + ", or all"},
		Try:     try,
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
	var detail, try []string
	for _, a := range weak {
		detail = append(detail, a.DisplayName()+" left a project marker only, which is not enough to install for it.")
		try = append(try, "use --agent "+a.ID()+" to install for "+a.DisplayName())
	}
	detail = append(detail, "Supported agents: "+strings.Join(ids, ", "))
	try = append(try,
		"install one of them, or name it with --agent <id> (--agent all for every one)",
		"agent-skills agents   to see the evidence that was looked for",
	)
	return &Error{
		Code:    CodeNoAgent,
		Message: "no coding agent was detected on this machine",
		Detail:  detail,
		Try:     try,
	}
}

// layoutError reports an adapter bug: a projection that cannot be written
// as planned, such as several entries for a file-shaped target.
func layoutError(format string, args ...any) *Error {
	return &Error{
		Code:    CodeLayoutInvalid,
		Message: fmt.Sprintf(format, args...),
		Detail:  []string{"This is a bug in an agent adapter, not in the skill; nothing was written."},
		Try:     []string{"report it with the output of agent-skills doctor --json"},
	}
}
