package ui

import (
	"bytes"
	"testing"

	"github.com/agent-skills/agent-skills/resolve"
)

// TestRenderErrorDesignExample: a resolution error renders in the shape of
// the design's §8 example — "error:" and the message, the detail lines
// indented by two spaces, the next actions after "Try:" aligned under each
// other, and the code.
func TestRenderErrorDesignExample(t *testing.T) {
	err := &resolve.Error{
		Code:    resolve.CodeDependencyConflict,
		Message: `Version conflict for "java-basics"`,
		Detail: []string{
			"you requested java-performance@^1 → java-performance@1.0.0 requires java-basics ^1.2.0",
			"you requested jvm-gc-tuning@~2.1.0 → jvm-gc-tuning@2.1.0 requires java-basics ~1.1.0",
			"No published version satisfies both.",
			"Published versions: 1.1.0, 1.2.0, 1.2.3",
		},
		Try: []string{
			"agent-skills info java-basics to see available versions",
			"agent-skills install jvm-gc-tuning@^2.2.0 (newer versions may relax this)",
		},
	}
	const want = `error: Version conflict for "java-basics"
  you requested java-performance@^1 → java-performance@1.0.0 requires java-basics ^1.2.0
  you requested jvm-gc-tuning@~2.1.0 → jvm-gc-tuning@2.1.0 requires java-basics ~1.1.0
  No published version satisfies both.
  Published versions: 1.1.0, 1.2.0, 1.2.3
Try: agent-skills info java-basics to see available versions
     agent-skills install jvm-gc-tuning@^2.2.0 (newer versions may relax this)
code: ASK_DEPENDENCY_CONFLICT
`
	var out bytes.Buffer
	RenderError(&out, err, Style{})
	if got := out.String(); got != want {
		t.Errorf("RenderError(%s) =\n%s\nwant\n%s", err.Code, got, want)
	}
}
