package mcpserver

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agent-skills/agent-skills/cli/internal/catalog"
)

// Bounds of the tools' inputs and outputs.
const (
	MaxQueryLength    = catalog.MaxQueryLength
	MaxSearchLimit    = 50
	DefaultLimit      = 10
	MaxOverview       = 200
	DefaultOverview   = 50
	MaxOverviewBytes  = 16 << 10
	maxNameLength     = 214
	maxResourceLength = 1024
)

// Backend answers the tools. The CLI implements it over the installed
// skills and the configured registries.
type Backend interface {
	// Search ranks the skills matching query; at most limit.
	Search(ctx context.Context, query string, limit int) ([]catalog.Hit, error)
	// Read serves resource ("" for SKILL.md) of skill, from source when
	// set.
	Read(ctx context.Context, skill, resource, source string) (catalog.Document, error)
	// Overview lists every available skill, bounded.
	Overview(ctx context.Context, opts catalog.OverviewOptions) (catalog.Overview, error)
	// Info describes a skill: versions, dependencies, where installed.
	Info(ctx context.Context, skill string) (Info, error)
	// Install installs (or with DryRun plans) a skill.
	Install(ctx context.Context, req WriteRequest) (WriteResult, error)
	// Uninstall removes (or with DryRun plans removing) a skill.
	Uninstall(ctx context.Context, req WriteRequest) (WriteResult, error)
}

// Info is what skill_info returns.
type Info struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Registry    string          `json:"registry,omitempty"`
	Latest      string          `json:"latest,omitempty"`
	Versions    []VersionInfo   `json:"versions"`
	Requires    []Requirement   `json:"dependencies"`
	Optional    []Requirement   `json:"optionalDependencies"`
	Suggests    []string        `json:"suggests"`
	Installed   []catalog.Skill `json:"installed"`
}

// VersionInfo is one published version.
type VersionInfo struct {
	Version    string `json:"version"`
	Deprecated bool   `json:"deprecated,omitempty"`
}

// Requirement is one dependency and its range.
type Requirement struct {
	Name  string `json:"name"`
	Range string `json:"range"`
}

// WriteRequest asks to install or uninstall one skill.
type WriteRequest struct {
	Skill  string   `json:"skill"`
	Scope  string   `json:"scope,omitempty"`
	Agents []string `json:"agents,omitempty"`
	DryRun bool     `json:"dryRun"`
}

// WriteResult is the outcome of a write tool: the CLI's JSON report.
type WriteResult struct {
	DryRun bool   `json:"dryRun"`
	Report string `json:"report"`
}

// Options configure the server.
type Options struct {
	// Version is reported to clients.
	Version string
	// AllowWrite adds install_skill and uninstall_skill.
	AllowWrite bool
	// Skills, when set, serves the MCP Skills Extension (SEP-2640): the
	// server declares io.modelcontextprotocol/skills and resources, and
	// serves every file of every skill of the store as a skill://
	// resource. skills/list and skills/get are answered by the transport
	// (LineTransport.Methods, SkillMethods), because the SDK refuses
	// methods it does not know before any middleware runs.
	Skills SkillStore
	// Evidence, when set, adds the read-only evidence tools and, with
	// AllowWrite, record_lifecycle.
	Evidence Evidence
	// Bump, when set, adds the read-only bump_report tool.
	Bump BumpReporter
}

// SearchInput is search_skills' arguments.
type SearchInput struct {
	Query string `json:"query" jsonschema:"words to look for in names, keywords and descriptions; all must match"`
	Limit int    `json:"limit,omitempty" jsonschema:"the most results to return (1-50, default 10)"`
}

// SearchOutput is search_skills' result.
type SearchOutput struct {
	Results []catalog.Hit `json:"results"`
	Note    string        `json:"note,omitempty"`
}

// ReadInput is read_skill's arguments.
type ReadInput struct {
	Skill    string `json:"skill" jsonschema:"the skill's name"`
	Resource string `json:"resource,omitempty" jsonschema:"SKILL.md (default) or a Markdown file under references/"`
	Source   string `json:"source,omitempty" jsonschema:"read only from this source: installed:project, installed:global or a registry name"`
}

// OverviewInput is skills_overview's arguments.
type OverviewInput struct {
	MaxEntries int `json:"maxEntries,omitempty" jsonschema:"the most skills to list (1-200, default 50)"`
}

// InfoInput is skill_info's arguments.
type InfoInput struct {
	Skill string `json:"skill" jsonschema:"the skill's name"`
}

// WriteInput is install_skill's and uninstall_skill's arguments.
type WriteInput struct {
	Skill  string   `json:"skill" jsonschema:"[registry:]name[@version or range] to install, or the installed name to remove"`
	Scope  string   `json:"scope,omitempty" jsonschema:"project or global; default: project when in a project, else global"`
	Agents []string `json:"agents,omitempty" jsonschema:"agent ids (claude-code, codex, …); default: every detected agent"`
	DryRun *bool    `json:"dryRun,omitempty" jsonschema:"preview only, write nothing (default true)"`
}

// New returns the MCP server over b.
func New(b Backend, opts Options) *mcp.Server {
	so := &mcp.ServerOptions{Instructions: "Search, read and describe the agent skills available on this machine " +
		"(installed in the project and globally) and in the configured registries. Read a skill's SKILL.md " +
		"with read_skill before following it."}
	if opts.Skills != nil {
		caps := &mcp.ServerCapabilities{Logging: &mcp.LoggingCapabilities{}, Resources: &mcp.ResourceCapabilities{}}
		caps.AddExtension(SkillsExtension, map[string]any{})
		so.Capabilities = caps
		so.Instructions += " The same skills are served by the MCP Skills Extension: skills/list, skills/get and " +
			"skill:// resources for every file."
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "agent-skills", Title: "agent-skills catalog", Version: opts.Version}, so)
	if opts.Skills != nil {
		addSkillResources(s, opts.Skills)
	}
	addOnboarding(s)
	if opts.Evidence != nil {
		addEvidence(s, opts.Evidence, opts.AllowWrite)
	}
	if opts.Bump != nil {
		addBump(s, opts.Bump)
	}
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)}

	mcp.AddTool(s, &mcp.Tool{Name: "search_skills", Annotations: withTitle(ro, "Search skills"),
		Description: "Search the installed skills and the registries by words in names, keywords and descriptions. " +
			"Each result says where it comes from (installed:project, installed:global or a registry).",
		InputSchema: schema[SearchInput](func(p map[string]*jsonschema.Schema) {
			p["query"].MaxLength = ptr(MaxQueryLength)
			p["limit"].Minimum, p["limit"].Maximum = ptr(1.0), ptr(float64(MaxSearchLimit))
		}, "query")},
		func(ctx context.Context, _ *mcp.CallToolRequest, in SearchInput) (*mcp.CallToolResult, SearchOutput, error) {
			limit := in.Limit
			if limit == 0 {
				limit = DefaultLimit
			}
			hits, err := b.Search(ctx, in.Query, limit+1)
			if err != nil {
				return nil, SearchOutput{}, toolError(err)
			}
			out := SearchOutput{Results: hits}
			if out.Results == nil {
				out.Results = []catalog.Hit{}
			}
			if len(hits) > limit {
				out.Results = hits[:limit]
				out.Note = fmt.Sprintf("more than %d skills match; refine the query or raise limit (at most %d)", limit, MaxSearchLimit)
			}
			return nil, out, nil
		})

	mcp.AddTool(s, &mcp.Tool{Name: "read_skill", Annotations: withTitle(ro, "Read a skill"),
		Description: "Return a skill's SKILL.md, or a Markdown file under its references/ folder, with its sha256 digest. " +
			"Only those files are served; paths with .., absolute paths, encoded escapes and links are refused.",
		InputSchema: schema[ReadInput](func(p map[string]*jsonschema.Schema) {
			p["skill"].MaxLength, p["skill"].MinLength = ptr(maxNameLength), ptr(1)
			p["resource"].MaxLength = ptr(maxResourceLength)
			p["source"].MaxLength = ptr(maxNameLength)
		}, "skill")},
		func(ctx context.Context, _ *mcp.CallToolRequest, in ReadInput) (*mcp.CallToolResult, catalog.Document, error) {
			doc, err := b.Read(ctx, in.Skill, in.Resource, in.Source)
			if err != nil {
				return nil, catalog.Document{}, toolError(err)
			}
			res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: doc.Content}}}
			return res, doc, nil
		})

	mcp.AddTool(s, &mcp.Tool{Name: "skills_overview", Annotations: withTitle(ro, "Overview of skills"),
		Description: "List the available skills, installed ones first, one line each, bounded in count and size.",
		InputSchema: schema[OverviewInput](func(p map[string]*jsonschema.Schema) {
			p["maxEntries"].Minimum, p["maxEntries"].Maximum = ptr(1.0), ptr(float64(MaxOverview))
		})},
		func(ctx context.Context, _ *mcp.CallToolRequest, in OverviewInput) (*mcp.CallToolResult, catalog.Overview, error) {
			n := in.MaxEntries
			if n == 0 {
				n = DefaultOverview
			}
			ov, err := b.Overview(ctx, catalog.OverviewOptions{MaxEntries: n, MaxBytes: MaxOverviewBytes})
			if err != nil {
				return nil, catalog.Overview{}, toolError(err)
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: ov.Text}}}, ov, nil
		})

	mcp.AddTool(s, &mcp.Tool{Name: "skill_info", Annotations: withTitle(ro, "Skill details"),
		Description: "Describe a skill: its registry, published versions, dependencies, suggestions and where it is installed.",
		InputSchema: schema[InfoInput](func(p map[string]*jsonschema.Schema) {
			p["skill"].MaxLength, p["skill"].MinLength = ptr(maxNameLength), ptr(1)
		}, "skill")},
		func(ctx context.Context, _ *mcp.CallToolRequest, in InfoInput) (*mcp.CallToolResult, Info, error) {
			info, err := b.Info(ctx, in.Skill)
			if err != nil {
				return nil, Info{}, toolError(err)
			}
			return nil, info, nil
		})

	if opts.AllowWrite {
		writeSchema := schema[WriteInput](func(p map[string]*jsonschema.Schema) {
			p["skill"].MaxLength, p["skill"].MinLength = ptr(maxNameLength), ptr(1)
			p["scope"].Enum = []any{"project", "global"}
			p["agents"].MaxItems = ptr(16)
		}, "skill")
		write := func(do func(context.Context, WriteRequest) (WriteResult, error)) mcp.ToolHandlerFor[WriteInput, WriteResult] {
			return func(ctx context.Context, _ *mcp.CallToolRequest, in WriteInput) (*mcp.CallToolResult, WriteResult, error) {
				req := WriteRequest{Skill: in.Skill, Scope: in.Scope, Agents: in.Agents, DryRun: in.DryRun == nil || *in.DryRun}
				res, err := do(ctx, req)
				if err != nil {
					return nil, WriteResult{}, toolError(err)
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: res.Report}}}, res, nil
			}
		}
		mcp.AddTool(s, &mcp.Tool{Name: "install_skill",
			Annotations: &mcp.ToolAnnotations{Title: "Install a skill", DestructiveHint: ptr(false), OpenWorldHint: ptr(true)},
			Description: "Install a skill and its dependencies for the coding agents, as `agent-skills install` does. " +
				"dryRun defaults to true: set it to false to write.",
			InputSchema: writeSchema}, write(b.Install))
		mcp.AddTool(s, &mcp.Tool{Name: "uninstall_skill",
			Annotations: &mcp.ToolAnnotations{Title: "Uninstall a skill", DestructiveHint: ptr(true), OpenWorldHint: ptr(false)},
			Description: "Remove an installed skill (only the files agent-skills wrote), as `agent-skills uninstall` does. " +
				"dryRun defaults to true: set it to false to remove.",
			InputSchema: writeSchema}, write(b.Uninstall))
	}
	return s
}

// schema infers T's input schema, applies the bounds and marks required
// properties; additional properties are refused.
func schema[T any](bound func(map[string]*jsonschema.Schema), required ...string) *jsonschema.Schema {
	sc, err := jsonschema.For[T](nil)
	if err != nil {
		// The input types are fixed structs of strings and ints.
		return &jsonschema.Schema{Type: "object"}
	}
	bound(sc.Properties)
	sc.Required = required
	sc.AdditionalProperties = &jsonschema.Schema{Not: &jsonschema.Schema{}}
	return sc
}

// toolError turns a backend failure into the tool error text, with its
// detail lines, first next action and code when it has them.
func toolError(err error) error {
	var c interface{ ErrorCode() string }
	var h interface{ ErrorTry() []string }
	msg := err.Error()
	for _, l := range detailLines(err) {
		msg += "\n  " + l
	}
	if errors.As(err, &h) && len(h.ErrorTry()) > 0 {
		msg += "\nTry: " + h.ErrorTry()[0]
	}
	if errors.As(err, &c) && c.ErrorCode() != "" {
		msg += "\ncode: " + c.ErrorCode()
	}
	return errors.New(msg)
}

// detailLines returns the detail lines of every library error in err's
// tree, outermost first.
func detailLines(err error) []string {
	var out []string
	for err != nil {
		if d, ok := err.(interface{ ErrorDetail() []string }); ok {
			out = append(out, d.ErrorDetail()...)
		}
		switch u := err.(type) {
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				out = append(out, detailLines(e)...)
			}
			return out
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		default:
			return out
		}
	}
	return out
}

// withTitle copies the annotations with a title.
func withTitle(a *mcp.ToolAnnotations, title string) *mcp.ToolAnnotations {
	c := *a
	c.Title = title
	return &c
}

func ptr[T any](v T) *T { return &v }
