package mcpserver_test

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agent-skills/agent-skills/cli/internal/catalog"
	"github.com/agent-skills/agent-skills/cli/internal/mcpserver"
)

// oneSkill is a Backend with one installed skill.
type oneSkill struct{}

func (oneSkill) Search(context.Context, string, int) ([]catalog.Hit, error) {
	return []catalog.Hit{{Skill: catalog.Skill{Name: "hello", Source: "installed:global"}, Match: "exact-name"}}, nil
}
func (oneSkill) Read(_ context.Context, skill, _, _ string) (catalog.Document, error) {
	return catalog.Document{Skill: skill, Resource: "SKILL.md", Content: "# Hello\n"}, nil
}
func (oneSkill) Overview(_ context.Context, o catalog.OverviewOptions) (catalog.Overview, error) {
	return catalog.BuildOverview(nil, o), nil
}
func (oneSkill) Info(_ context.Context, s string) (mcpserver.Info, error) {
	return mcpserver.Info{Name: s}, nil
}
func (oneSkill) Install(context.Context, mcpserver.WriteRequest) (mcpserver.WriteResult, error) {
	return mcpserver.WriteResult{}, nil
}
func (oneSkill) Uninstall(context.Context, mcpserver.WriteRequest) (mcpserver.WriteResult, error) {
	return mcpserver.WriteResult{}, nil
}

// Serve the catalog and read a skill through the SDK's client.
func Example() {
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, _ := mcpserver.New(oneSkill{}, mcpserver.Options{Version: "1.0.0"}).Connect(ctx, st, nil)
	defer ss.Close()
	cs, _ := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "1"}, nil).Connect(ctx, ct, nil)
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_skill", Arguments: map[string]any{"skill": "hello"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// # Hello
}
