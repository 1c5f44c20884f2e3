package hooks_test

import (
	"fmt"

	"github.com/agent-skills/agent-skills/cli/internal/hooks"
)

// A session-start hook prints the host's envelope around the context.
func Example() {
	fmt.Print(string(hooks.Envelope(hooks.Claude, "- java-basics: Java fundamentals")))
	fmt.Print(string(hooks.Neutral(hooks.Copilot)))
	fmt.Println(hooks.Verify(hooks.Codex, hooks.Config(hooks.Codex).Snippet) == nil)
	// Output:
	// {"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"- java-basics: Java fundamentals"}}
	// {}
	// true
}
