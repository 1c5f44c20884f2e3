package mcpserver

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BumpReporter answers the bump_report tool: the report of
// `agent-skills report bump`, read-only.
type BumpReporter interface {
	// Report compares before with after, applying the review file when
	// one is named, and returns the report.
	Report(ctx context.Context, in BumpInput) (any, error)
}

// BumpInput is bump_report's arguments.
type BumpInput struct {
	Before string `json:"before" jsonschema:"the previous version: a package folder, a snapshot or observation file (paths relative to the server's working folder), or a published name@version"`
	After  string `json:"after" jsonschema:"the new version, in the same forms"`
	Review string `json:"review,omitempty" jsonschema:"a review file of per-change verdicts (schema agent-skills.bump-review/1)"`
}

// maxBumpArg bounds each argument of bump_report.
const maxBumpArg = 4096

// addBump registers bump_report.
func addBump(s *mcp.Server, b BumpReporter) {
	in := schema[BumpInput](func(p map[string]*jsonschema.Schema) {
		for _, k := range []string{"before", "after", "review"} {
			p[k].MaxLength = ptr(maxBumpArg)
		}
		p["before"].MinLength, p["after"].MinLength = ptr(1), ptr(1)
	}, "before", "after")
	mcp.AddTool(s, &mcp.Tool{Name: "bump_report",
		Annotations: &mcp.ToolAnnotations{Title: "Bump report", ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(true)},
		Description: "Compare two versions of one package, as `agent-skills report bump` does, and return the report: every " +
			"contract change and every added, removed or changed file with a stable id, the rule that classified it and its " +
			"category, and the recommendation patch, minor, major or undetermined (with what is missing). Changed instruction " +
			"text needs a reviewer's verdict from the review file; the report never decides it from content alone. " +
			"Read-only: it changes no version and creates no file; a published name@version is fetched from the configured registries.",
		InputSchema: in},
		func(ctx context.Context, _ *mcp.CallToolRequest, in BumpInput) (*mcp.CallToolResult, any, error) {
			out, err := b.Report(ctx, in)
			if err != nil {
				return nil, nil, toolError(err)
			}
			return jsonResult(out)
		})
}
