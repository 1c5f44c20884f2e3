package mcpserver

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestOnboardingFor: every host of the table gets versioned data with the
// setup, manual MCP and first-skill commands of that host; a host without
// shell hooks gets no hook command; an unknown host is an error.
func TestOnboardingFor(t *testing.T) {
	if got := HostIDs(); !slices.Equal(got, []string{"claude", "codex", "gemini", "copilot", "opencode"}) {
		t.Fatalf("HostIDs = %v", got)
	}
	for _, id := range HostIDs() {
		o, err := OnboardingFor(id)
		if err != nil {
			t.Fatal(err)
		}
		if o.Version != OnboardingVersion || o.Host.ID != id || len(o.Steps) != 4 {
			t.Fatalf("%s: %+v", id, o)
		}
		all := ""
		for _, st := range o.Steps {
			all += strings.Join(st.Commands, "\n") + "\n"
		}
		for _, want := range []string{"agent-skills setup enable --host " + id + " --write", "agent-skills mcp config --host " + id,
			"agent-skills install java-basics --agent " + o.Host.Agent, o.Host.MCPCommand} {
			if !strings.Contains(all, want+"\n") {
				t.Errorf("%s: no command %q in\n%s", id, want, all)
			}
		}
		if hook := strings.Contains(all, "agent-skills hook config --host "+id); hook != (id != "opencode") {
			t.Errorf("%s: hook config offered = %v", id, hook)
		}
		if _, err := HostConfigFor(id); err != nil {
			t.Errorf("%s: mcp config knows no such host: %v", id, err)
		}
	}
	if _, err := OnboardingFor("vim"); err == nil {
		t.Error("OnboardingFor(vim) succeeded")
	}
}

// TestOnboardingTool: the tool is read-only, refuses a host outside the
// enum, and returns the data as structured content.
func TestOnboardingTool(t *testing.T) {
	cs := connect(t, &fakeBackend{}, Options{})
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "onboarding", Arguments: map[string]any{"host": "codex"}})
	if err != nil || res.IsError {
		t.Fatalf("onboarding codex = %+v, %v", res, err)
	}
	sc, _ := res.StructuredContent.(map[string]any)
	if sc["version"] != 1.0 || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "codex mcp add agent-skills") {
		t.Errorf("onboarding codex = %v", sc)
	}
	res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "onboarding", Arguments: map[string]any{"host": "vim"}})
	if err != nil || !res.IsError {
		t.Errorf("onboarding vim = %+v, %v; want a tool error", res, err)
	}
}
