package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// exitMentions match the ways the docs pair a code with its exit code:
// "`ASK_X` (exit 5)", "`ASK_X`, exit 5", "(`ASK_X`, exit 5)" and a table
// row "| `ASK_X` | 5 |".
var exitMentions = []*regexp.Regexp{
	regexp.MustCompile("`(ASK_[A-Z0-9_]+)` \\(exit (\\d)\\)"),
	regexp.MustCompile("`(ASK_[A-Z0-9_]+)`, exit (\\d)"),
	regexp.MustCompile("\\| `(ASK_[A-Z0-9_]+)` \\| (\\d) \\|"),
}

// TestDocsExitCodesAgree checks every exit code the reference pages
// (registry.md, sources.md, catalog.md, cli.md, …) state next to an
// error code against the CLI's table, which TestErrorCodesDocumented
// keeps equal to errors.md. A page that promises another exit code than
// the one a script sees is a defect (issue 11, B17).
func TestDocsExitCodesAgree(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join("..", "docs", "*.md"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no docs found: %v", err)
	}
	checked := 0
	for _, page := range pages {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.ReplaceAll(string(data), "\n", " ")
		for _, re := range exitMentions {
			for _, m := range re.FindAllStringSubmatch(text, -1) {
				code, said := m[1], m[2]
				want := exitFailure
				if n, ok := exitCodes[code]; ok {
					want = n
				}
				if n, _ := strconv.Atoi(said); n != want {
					t.Errorf("%s says %s exits %s; the CLI exits %d", filepath.Base(page), code, said, want)
				}
				checked++
			}
		}
	}
	if checked < 20 {
		t.Errorf("checked only %d code/exit pairs in docs/; the patterns no longer match the pages", checked)
	}
}
