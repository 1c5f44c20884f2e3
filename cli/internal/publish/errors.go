package publish

import (
	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/scan"
)

// Error is a user-facing publish failure; see askerr.Error.
type Error = askerr.Error

// RiskError is ASK_CONTENT_RISK: the package has content-scan findings that
// would block its install, and --allow-risk did not accept them. It carries
// the findings, for the caller to show.
type RiskError struct {
	// Err is the ASK_CONTENT_RISK error itself: message, detail, next
	// actions.
	Err *askerr.Error
	// Findings are every finding of the package; Blocked those that block.
	Findings []scan.Finding
	Blocked  []scan.Finding
}

// Error returns the message.
func (e *RiskError) Error() string { return e.Err.Error() }

// Unwrap returns the coded error, whose code, detail and next actions the
// renderer reads.
func (e *RiskError) Unwrap() error { return e.Err }
