package validate

import (
	"os"
	"strings"
	"testing"
)

// TestRulesDocumented keeps the rule × gate table of docs/manifest.md in
// step with Rules: the same rules, in the same order, with the same code,
// checks and levels.
func TestRulesDocumented(t *testing.T) {
	data, err := os.ReadFile("../docs/manifest.md")
	if err != nil {
		t.Fatalf("reading the rule table: %v", err)
	}
	_, table, ok := strings.Cut(string(data), "| Rule | Code | Checks | `validate` | `--strict`, `publish` | `install` | At install |\n")
	if !ok {
		t.Fatal("docs/manifest.md has no rule × gate table")
	}
	table, _, _ = strings.Cut(table, "\n\n")
	var rows [][]string
	for _, line := range strings.Split(table, "\n")[1:] { // after the --- row
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		for i := range cells {
			cells[i] = strings.Trim(strings.TrimSpace(cells[i]), "`")
		}
		rows = append(rows, cells)
	}
	rules := Rules()
	if len(rows) != len(rules) {
		t.Fatalf("docs/manifest.md lists %d rules, Rules() has %d", len(rows), len(rules))
	}
	for i, r := range rules {
		want := []string{r.ID, r.Code, r.Checks, r.Default.String(), r.Strict.String(), r.Install.String()}
		if got := rows[i]; len(got) < len(want) || strings.Join(got[:len(want)], "|") != strings.Join(want, "|") {
			t.Errorf("docs/manifest.md row %d = %q, want %q", i+1, got, want)
		}
	}
}
