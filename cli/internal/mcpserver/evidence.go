package mcpserver

import (
	"context"
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// EvidenceQueries are the read-only evidence tools, each answered by the
// evidence query of the same name: evidence_status, evidence_rankings, …
var EvidenceQueries = []string{"status", "rankings", "outcomes", "overlap", "inactivity", "history", "memory"}

// Evidence answers the evidence tools over the usage evidence store. Query
// opens the store read-only and never creates it (a missing store is a
// result saying so, with its path); RecordLifecycle is only offered with
// AllowWrite and is the one tool that may create the store.
type Evidence interface {
	// Query runs the named query (one of EvidenceQueries).
	Query(ctx context.Context, query string, in EvidenceInput) (any, error)
	// RecordLifecycle validates and records one lifecycle event.
	RecordLifecycle(ctx context.Context, in LifecycleInput) (any, error)
}

// EvidenceInput is the evidence query tools' arguments.
type EvidenceInput struct {
	Since  string `json:"since,omitempty" jsonschema:"the period: the last N days, today included, e.g. 7d (default 30d)"`
	From   string `json:"from,omitempty" jsonschema:"first day of the period, YYYY-MM-DD (UTC), instead of since"`
	To     string `json:"to,omitempty" jsonschema:"last day of the period, YYYY-MM-DD (UTC; default today)"`
	Skill  string `json:"skill,omitempty" jsonschema:"only this skill"`
	Host   string `json:"host,omitempty" jsonschema:"only observations from this host"`
	Limit  int    `json:"limit,omitempty" jsonschema:"the most rows to return (1-1000, default 50)"`
	Cutoff string `json:"cutoff,omitempty" jsonschema:"evidence_memory only: also count records before and after this day (YYYY-MM-DD) within the period"`
}

// LifecycleInput is record_lifecycle's arguments, the same as
// `agent-skills evidence record lifecycle`.
type LifecycleInput struct {
	EventID string `json:"eventId" jsonschema:"the event's id (1-128 of A-Z a-z 0-9 . _ : -); a retry with the same id and content records nothing new"`
	Attempt string `json:"attempt" jsonschema:"the attempt the event belongs to: one started and one finished event per attempt"`
	Skill   string `json:"skill" jsonschema:"the skill's name"`
	Version string `json:"version,omitempty" jsonschema:"the skill's version"`
	Stage   string `json:"stage" jsonschema:"started or finished"`
	Outcome string `json:"outcome,omitempty" jsonschema:"with stage finished: succeeded, failed, abandoned or blocked"`
	At      string `json:"at,omitempty" jsonschema:"when it happened, RFC 3339 (default now)"`
	Emitter string `json:"emitter" jsonschema:"who asserts it, e.g. agent:claude (1-64 characters)"`
	Reason  string `json:"reason,omitempty" jsonschema:"a short reason code, no free text (up to 64 of A-Z a-z 0-9 . _ : -)"`
}

// evidenceDescriptions say what each query tool answers.
var evidenceDescriptions = map[string]string{
	"status":     "Where the usage evidence store is, which setting chose it, its schema version and how many records it holds.",
	"rankings":   "The skills whose files the hosts' hooks observed being read most in a period, with sessions and hosts.",
	"outcomes":   "Reported lifecycle outcomes per skill in a period: attempts, succeeded, failed, abandoned, blocked, unfinished.",
	"overlap":    "Pairs of skills read in the same host sessions in a period, with the Jaccard index.",
	"inactivity": "Installed or catalogued skills with no read observed in a period, with the last read ever seen.",
	"history":    "Reads and reported outcomes per day over a period, for one skill or all.",
	"memory":     "Everything the store holds about skills in one consistent snapshot: reads, digests and versions seen, outcomes, inventories, missing coverage; with cutoff, counts before and after it.",
}

// addEvidence registers the evidence tools.
func addEvidence(s *mcp.Server, ev Evidence, allowWrite bool) {
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)}
	in := schema[EvidenceInput](func(p map[string]*jsonschema.Schema) {
		for _, k := range []string{"since", "from", "to", "cutoff"} {
			p[k].MaxLength = ptr(16)
		}
		p["skill"].MaxLength = ptr(maxNameLength)
		p["host"].Enum = []any{"claude", "codex", "gemini", "copilot"}
		p["limit"].Minimum, p["limit"].Maximum = ptr(1.0), ptr(1000.0)
	})
	const caveat = " Read observations count hosts opening a skill's files, not proof it was followed; every result " +
		"states its denominator, period and missing coverage. Read-only: creates no file."
	// status takes no argument.
	none := schema[struct{}](func(map[string]*jsonschema.Schema) {})
	for _, q := range EvidenceQueries {
		sc := in
		if q == "status" {
			sc = none
		}
		mcp.AddTool(s, &mcp.Tool{Name: "evidence_" + q, Annotations: withTitle(ro, "Evidence: "+q),
			Description: evidenceDescriptions[q] + caveat, InputSchema: sc},
			func(ctx context.Context, _ *mcp.CallToolRequest, in EvidenceInput) (*mcp.CallToolResult, any, error) {
				out, err := ev.Query(ctx, q, in)
				if err != nil {
					return nil, nil, toolError(err)
				}
				return jsonResult(out)
			})
	}
	if !allowWrite {
		return
	}
	lin := schema[LifecycleInput](func(p map[string]*jsonschema.Schema) {
		p["eventId"].MaxLength, p["attempt"].MaxLength = ptr(128), ptr(128)
		p["skill"].MaxLength, p["version"].MaxLength = ptr(maxNameLength), ptr(128)
		p["stage"].Enum = []any{"started", "finished"}
		p["outcome"].Enum = []any{"succeeded", "failed", "abandoned", "blocked"}
		p["at"].MaxLength, p["emitter"].MaxLength, p["reason"].MaxLength = ptr(40), ptr(64), ptr(64)
	}, "eventId", "attempt", "skill", "stage", "emitter")
	mcp.AddTool(s, &mcp.Tool{Name: "record_lifecycle",
		Annotations: &mcp.ToolAnnotations{Title: "Record a lifecycle event", IdempotentHint: true, DestructiveHint: ptr(false), OpenWorldHint: ptr(false)},
		Description: "Record that an attempt to use a skill started, or finished with an outcome, as " +
			"`agent-skills evidence record lifecycle` does. It may create the evidence store. A retry with the same " +
			"eventId and content is a no-op; other content under the same id, or a second start or finish of an " +
			"attempt, is refused and changes nothing.",
		InputSchema: lin},
		func(ctx context.Context, _ *mcp.CallToolRequest, in LifecycleInput) (*mcp.CallToolResult, any, error) {
			out, err := ev.RecordLifecycle(ctx, in)
			if err != nil {
				return nil, nil, toolError(err)
			}
			return jsonResult(out)
		})
}

// jsonResult returns out as the structured result and as its JSON text.
func jsonResult(out any) (*mcp.CallToolResult, any, error) {
	b, err := json.Marshal(out)
	if err != nil {
		return nil, nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, json.RawMessage(b), nil
}
