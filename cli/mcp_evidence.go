package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/evidence"
	"github.com/agent-skills/agent-skills/cli/internal/mcpserver"
)

// mcpEvidence answers the MCP evidence tools with the same queries and
// records as the evidence commands.
type mcpEvidence struct {
	e   *env
	loc evidence.Location
}

var _ mcpserver.Evidence = (*mcpEvidence)(nil)

// Query opens the store read-only for one query; a missing store is a
// result that says so, and nothing is created.
func (m *mcpEvidence) Query(ctx context.Context, name string, in mcpserver.EvidenceInput) (any, error) {
	limit := in.Limit
	if limit == 0 {
		limit = 50
	}
	var q evidence.Query
	if name != "status" {
		var err error
		q, err = buildEvidenceQuery(evidencePeriod{Since: in.Since, From: in.From, To: in.To}, in.Skill, in.Host, limit, in.Cutoff, time.Now())
		if err != nil {
			return nil, err
		}
	}
	return m.e.withContext(ctx).evidenceQuery(ctx, name, m.loc, q, "")
}

// RecordLifecycle validates the event and records it (creating the store
// when it is the first record).
func (m *mcpEvidence) RecordLifecycle(ctx context.Context, in mcpserver.LifecycleInput) (any, error) {
	l, err := lifecycleRecord(in.EventID, in.Attempt, in.Skill, in.Version, in.Stage, in.Outcome, in.At, in.Emitter, in.Reason)
	if err != nil {
		return nil, err
	}
	res, err := record(ctx, m.loc, "lifecycle", func(ctx context.Context, s *evidence.Store) (evidence.WriteResult, error) {
		return s.RecordLifecycle(ctx, l)
	})
	if err != nil {
		return nil, err
	}
	if !res.Inserted {
		return struct {
			recordResult
			Note string `json:"note"`
		}{res, fmt.Sprintf("event %s was already recorded with this content; nothing changed", l.EventID)}, nil
	}
	return res, nil
}
