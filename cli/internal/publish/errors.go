package publish

import "github.com/agent-skills/agent-skills/cli/internal/askerr"

// Error is a user-facing publish failure; see askerr.Error.
type Error = askerr.Error
