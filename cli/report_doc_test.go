package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/bump"
)

// TestBumpRulesDocumented keeps docs/maintenance.md's rules table in step
// with bump.Rules: every rule has its row, with its category and example.
func TestBumpRulesDocumented(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "maintenance.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, r := range bump.Rules {
		row := "| `" + r.ID + "` | " + string(r.Category) + " | "
		if !strings.Contains(doc, row) || !strings.Contains(doc, "`"+r.Example+"` |") {
			t.Errorf("docs/maintenance.md has no row %q with example %s", row, r.Example)
		}
	}
}
