package cli

import (
	"context"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/mcpserver"
)

// mcpBump answers bump_report with the report of `report bump`.
type mcpBump struct{ e *env }

var _ mcpserver.BumpReporter = mcpBump{}

// Report builds the report; it writes nothing.
func (m mcpBump) Report(ctx context.Context, in mcpserver.BumpInput) (any, error) {
	if in.Before == "" || in.After == "" {
		return nil, askerr.Usage("bump_report needs before and after")
	}
	return m.e.withContext(ctx).bumpReport(ctx, in.Before, in.After, in.Review)
}
