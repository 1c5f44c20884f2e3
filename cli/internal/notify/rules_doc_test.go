package notify

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestRulesDocumented keeps docs/cli.md's "Update notifications" table
// the same as Rules(), row for row.
func TestRulesDocumented(t *testing.T) {
	data, err := os.ReadFile("../../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(data), "\n## Update notifications\n")
	if !ok {
		t.Fatal(`docs/cli.md has no "## Update notifications" section`)
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	var doc []string
	for _, line := range strings.Split(sec, "\n") {
		if strings.HasPrefix(line, "| `") {
			doc = append(doc, line)
		}
	}
	var want []string
	for _, r := range Rules() {
		want = append(want, fmt.Sprintf("| `%s` | %s | %s |", r.Command, r.Scope, r.Why))
	}
	if strings.Join(doc, "\n") != strings.Join(want, "\n") {
		t.Errorf("docs/cli.md's table:\n%s\nwant, from Rules():\n%s", strings.Join(doc, "\n"), strings.Join(want, "\n"))
	}
}
