package policy

import (
	"fmt"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
)

// Codes this package raises; their exit codes are in the CLI's table and
// both are documented in docs/errors.md.
const (
	// CodePolicyInvalid: a policy file cannot be used (exit 2).
	CodePolicyInvalid = "ASK_POLICY_INVALID"
	// CodePolicyViolation: the policy refuses what a command was asked
	// to do (exit 5); nothing was written.
	CodePolicyViolation = "ASK_POLICY_VIOLATION"
)

// Problem is one thing wrong with a policy file: its line (0 when
// unknown) and what.
type Problem struct {
	Line    int
	Message string
}

// InvalidError is a policy file that cannot be used, with every problem
// found in it. Nothing of a file with a problem is used, and a command
// that needs the policy stops: a broken policy must not mean no policy.
type InvalidError struct {
	File     string
	Problems []Problem
	// Err is set when the file could not be read at all.
	Err error
}

func (e *InvalidError) Error() string {
	if len(e.Problems) == 1 {
		return e.File + ": " + e.line(e.Problems[0])
	}
	return fmt.Sprintf("%s cannot be used: %d problems", e.File, len(e.Problems))
}

func (e *InvalidError) line(p Problem) string {
	if p.Line > 0 {
		return fmt.Sprintf("line %d: %s", p.Line, p.Message)
	}
	return p.Message
}

// ErrorCode returns ASK_POLICY_INVALID, or ASK_IO when the file could not
// be read.
func (e *InvalidError) ErrorCode() string {
	if e.Err != nil {
		return askerr.CodeIO
	}
	return CodePolicyInvalid
}

// ErrorDetail lists every problem when there are several.
func (e *InvalidError) ErrorDetail() []string {
	var out []string
	if len(e.Problems) > 1 {
		for _, p := range e.Problems {
			out = append(out, e.File+": "+e.line(p))
		}
	}
	return append(out, "Commands that install stop while a policy file has a problem; nothing was written.")
}

// ErrorTry says how to recover.
func (e *InvalidError) ErrorTry() []string {
	if e.Err != nil {
		return []string{"check the permissions of " + e.File}
	}
	return []string{"fix " + e.File + " at the named lines (docs/policy.md); a project's file is committed with it: tell whoever changed it"}
}

// Unwrap returns the read failure, if any.
func (e *InvalidError) Unwrap() error { return e.Err }

// violation is the ASK_POLICY_VIOLATION error: what was refused, the
// policy lines that refused it, and where they are.
func violation(msg string, because []string, where []Origin) error {
	detail := append([]string(nil), because...)
	detail = append(detail, "Nothing was written.")
	var try []string
	seen := map[string]bool{}
	for _, o := range where {
		s := "the policy line is " + o.String() + ": ask whoever maintains it, or choose what it allows"
		if !seen[s] {
			seen[s] = true
			try = append(try, s)
		}
	}
	try = append(try, "agent-skills doctor   (shows the effective policy and where each line comes from)")
	return &askerr.Error{Code: CodePolicyViolation, Message: msg, Detail: detail, Try: try}
}
