package scaffold

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/agent-skills/agent-skills/format"
)

// TestWorkflowRunsInNode loads a generated WORKFLOW.js in Node, when Node
// is installed, to prove what static checks cannot: the script is valid
// JavaScript, meta evaluates to exactly the strings New was given (so the
// escaping is right), and the default function runs its three phases with
// stand-in agent and phase functions.
func TestWorkflowRunsInNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed; skipping the JavaScript execution check")
	}
	desc := `Quotes ' and " and \ and ${x} and </script>: all literal. Use when testing é ✓.`
	files, err := New(Options{Name: "wf-check", Kind: format.KindWorkflow, Description: desc, Version: "1.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "workflow.mjs")
	if err := os.WriteFile(script, mapFS(files)["WORKFLOW.js"].Data, 0o644); err != nil {
		t.Fatal(err)
	}
	driver := `
import { pathToFileURL } from 'node:url';
const m = await import(pathToFileURL(process.argv[1]).href);
const calls = [];
const runtime = {
  phase: (title) => { calls.push('phase:' + title); },
  agent: async (prompt) => { calls.push('agent'); return 'done'; },
};
const out = await m.default({ files: ['a.go'] }, runtime);
console.log(JSON.stringify({ meta: m.meta, calls, out }));
`
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, node, "--input-type=module", "-e", driver, script).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	var got struct {
		Meta  map[string]string
		Calls []string
		Out   map[string]string
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("node output %q: %v", out, err)
	}
	want := map[string]string{"name": "wf-check", "description": desc, "version": "1.0.0"}
	for k, v := range want {
		if got.Meta[k] != v {
			t.Errorf("meta.%s = %q, want %q", k, got.Meta[k], v)
		}
	}
	if len(got.Meta) != len(want) {
		t.Errorf("meta = %v, want exactly %v", got.Meta, want)
	}
	wantCalls := []string{"phase:Plan", "agent", "phase:Carry out", "agent", "phase:Verify", "agent"}
	if len(got.Calls) != len(wantCalls) {
		t.Fatalf("calls = %v, want %v", got.Calls, wantCalls)
	}
	for i := range wantCalls {
		if got.Calls[i] != wantCalls[i] {
			t.Errorf("calls[%d] = %q, want %q", i, got.Calls[i], wantCalls[i])
		}
	}
	if got.Out["plan"] != "done" || got.Out["result"] != "done" || got.Out["check"] != "done" {
		t.Errorf("result = %v, want plan, result and check from the agent", got.Out)
	}
}
