package mcpserver

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agent-skills/agent-skills/cli/internal/catalog"
)

// fakeBackend serves two skills and records write requests.
type fakeBackend struct {
	writes []WriteRequest
}

func (f *fakeBackend) Search(_ context.Context, query string, limit int) ([]catalog.Hit, error) {
	var out []catalog.Hit
	for _, n := range []string{"java-basics", "java-performance", "jvm-gc-tuning"} {
		if strings.Contains(n, query) && len(out) < limit {
			out = append(out, catalog.Hit{Skill: catalog.Skill{Name: n, Source: "bundled"}, Match: "name-prefix"})
		}
	}
	return out, nil
}

func (f *fakeBackend) Read(_ context.Context, skill, resource, source string) (catalog.Document, error) {
	res, err := catalog.CheckResource(resource)
	if err != nil {
		return catalog.Document{}, err
	}
	if skill != "java-basics" {
		return catalog.Document{}, &catalog.Error{Code: "ASK_CATALOG_NOT_FOUND", Message: "no skill named " + skill}
	}
	body := "# Java basics\n"
	return catalog.Document{Skill: skill, Resource: res, Source: "bundled", Content: body, Size: len(body), Digest: catalog.ContentDigest([]byte(body))}, nil
}

func (f *fakeBackend) Overview(_ context.Context, opts catalog.OverviewOptions) (catalog.Overview, error) {
	return catalog.BuildOverview([]catalog.Skill{{Name: "java-basics", Source: "bundled"}}, opts), nil
}

func (f *fakeBackend) Info(_ context.Context, skill string) (Info, error) {
	if skill != "java-basics" {
		return Info{}, errors.New("not found")
	}
	return Info{Name: skill, Latest: "1.2.0", Versions: []VersionInfo{{Version: "1.2.0"}}}, nil
}

func (f *fakeBackend) Install(_ context.Context, req WriteRequest) (WriteResult, error) {
	f.writes = append(f.writes, req)
	return WriteResult{DryRun: req.DryRun, Report: "{}"}, nil
}

func (f *fakeBackend) Uninstall(ctx context.Context, req WriteRequest) (WriteResult, error) {
	return f.Install(ctx, req)
}

// connect starts a server over in-memory transports and returns a client
// session.
func connect(t *testing.T, b Backend, opts Options) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := New(b, opts).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func TestListTools(t *testing.T) {
	tests := []struct {
		allowWrite bool
		want       []string
	}{
		{false, []string{"onboarding", "read_skill", "search_skills", "skill_info", "skills_overview"}},
		{true, []string{"install_skill", "onboarding", "read_skill", "search_skills", "skill_info", "skills_overview", "uninstall_skill"}},
	}
	for _, tt := range tests {
		cs := connect(t, &fakeBackend{}, Options{AllowWrite: tt.allowWrite})
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range res.Tools {
			names = append(names, tool.Name)
			readOnly := tool.Annotations != nil && tool.Annotations.ReadOnlyHint
			if want := !strings.Contains(tool.Name, "install"); readOnly != want {
				t.Errorf("tool %s readOnlyHint = %v, want %v", tool.Name, readOnly, want)
			}
			if tool.InputSchema == nil {
				t.Errorf("tool %s has no input schema", tool.Name)
			}
		}
		slices.Sort(names)
		if !slices.Equal(names, tt.want) {
			t.Errorf("ListTools(allowWrite=%v) = %v, want %v", tt.allowWrite, names, tt.want)
		}
	}
}

// text returns the concatenated text content of a result.
func text(r *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func TestCallTool(t *testing.T) {
	b := &fakeBackend{}
	cs := connect(t, b, Options{AllowWrite: true})
	tests := []struct {
		tool    string
		args    map[string]any
		isError bool
		want    string
	}{
		{"search_skills", map[string]any{"query": "java"}, false, "java-performance"},
		{"search_skills", map[string]any{"query": "j", "limit": 1}, false, "refine the query"},
		{"search_skills", map[string]any{"query": "java", "limit": 500}, true, "limit"},
		{"search_skills", map[string]any{"query": strings.Repeat("x", MaxQueryLength+1)}, true, "query"},
		{"search_skills", map[string]any{}, true, "query"},
		{"search_skills", map[string]any{"query": "java", "extra": 1}, true, "extra"},
		{"read_skill", map[string]any{"skill": "java-basics"}, false, "# Java basics"},
		{"read_skill", map[string]any{"skill": "java-basics", "resource": "../x"}, true, "ASK_CATALOG_READ_DENIED"},
		{"read_skill", map[string]any{"skill": "java-basics", "resource": "%2e%2e/x.md"}, true, "ASK_CATALOG_READ_DENIED"},
		{"read_skill", map[string]any{"skill": "nope"}, true, "ASK_CATALOG_NOT_FOUND"},
		{"read_skill", map[string]any{"skill": 42}, true, "skill"},
		{"skills_overview", map[string]any{"maxEntries": 5}, false, "java-basics"},
		{"skills_overview", map[string]any{"maxEntries": 0.5}, true, "maxEntries"},
		{"skill_info", map[string]any{"skill": "java-basics"}, false, "1.2.0"},
		{"install_skill", map[string]any{"skill": "java-basics"}, false, "{}"},
		{"install_skill", map[string]any{"skill": "java-basics", "scope": "somewhere"}, true, "scope"},
	}
	for _, tt := range tests {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tt.tool, Arguments: tt.args})
		if err != nil {
			t.Errorf("CallTool(%s, %v) = protocol error %v, want a tool result", tt.tool, tt.args, err)
			continue
		}
		if res.IsError != tt.isError || !strings.Contains(text(res), tt.want) {
			t.Errorf("CallTool(%s, %.60v) = isError %v %.200q, want isError %v containing %q", tt.tool, tt.args, res.IsError, text(res), tt.isError, tt.want)
		}
	}
	if len(b.writes) != 1 || !b.writes[0].DryRun {
		t.Errorf("install_skill without dryRun gave requests %+v, want one dry run", b.writes)
	}
}

func TestUnknownTool(t *testing.T) {
	cs := connect(t, &fakeBackend{}, Options{})
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "install_skill", Arguments: map[string]any{"skill": "x"}})
	if err == nil || !strings.Contains(err.Error(), "unknown tool") {
		t.Errorf("CallTool(install_skill) without --allow-write = %v, want an unknown tool error", err)
	}
	// The session survives.
	if _, err := cs.ListTools(context.Background(), nil); err != nil {
		t.Errorf("ListTools after an unknown tool = %v, want nil", err)
	}
}

func TestHostConfigFor(t *testing.T) {
	tests := []struct {
		host string
		args []string
		want []string
	}{
		{"claude", nil, []string{`"mcpServers"`, `"agent-skills"`, `"type": "stdio"`, `"serve"`}},
		{"codex", []string{"--allow-write"}, []string{"[mcp_servers.agent-skills]", `args = ["mcp", "serve", "--allow-write"]`}},
		{"copilot", nil, []string{`"type": "local"`, `"tools"`}},
		{"gemini", nil, []string{`"mcpServers"`, `"command": "agent-skills"`}},
	}
	for _, tt := range tests {
		hc, err := HostConfigFor(tt.host, tt.args...)
		if err != nil {
			t.Fatalf("HostConfigFor(%q) = %v", tt.host, err)
		}
		for _, w := range tt.want {
			if !strings.Contains(hc.Snippet, w) {
				t.Errorf("HostConfigFor(%q).Snippet = %s, want it to contain %s", tt.host, hc.Snippet, w)
			}
		}
	}
	if _, err := HostConfigFor("vim"); err == nil {
		t.Errorf("HostConfigFor(%q) = nil error, want an error", "vim")
	}
}
