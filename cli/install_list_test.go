package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/source"
	"github.com/agent-skills/agent-skills/cli/internal/ui"
)

// The picker tells apart folders that offer one name with different
// contents, and install --list says once what is nested and what clashes.
func TestPickAndNotesShowFolders(t *testing.T) {
	found := []source.Found{
		{Name: "mixed", Path: ".claude/skills/mixed", Description: "Newer.", Conflicts: []string{"skills/mixed"}},
		{Name: "mixed", Path: "skills/mixed", Description: "Older.", Conflicts: []string{".claude/skills/mixed"}},
		{Name: "outer", Path: "skills/outer", Description: "Outer.", Nested: []string{"examples/a"}},
	}
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader("2\n"), Printer: ui.New(&out, &errb, ui.Options{})}
	picked, err := e.pickSkills(found)
	if err != nil || len(picked) != 1 || picked[0].Path != "skills/mixed" {
		t.Fatalf("pickSkills(2) = %+v, %v, want skills/mixed", picked, err)
	}
	for _, want := range []string{"  1) mixed  (.claude/skills/mixed)  Newer.\n", "  2) mixed  (skills/mixed)  Older.\n", "  3) outer  Outer.\n"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("pickSkills printed %q, want a line %q", errb.String(), want)
		}
	}

	errb.Reset()
	e.discoveryNotes(found)
	want := "note: 2 folders offer a skill named mixed with different contents (.claude/skills/mixed, skills/mixed); install one with --skill <folder>; --skill '*' skips them\n" +
		"note: outer (skills/outer) contains examples/a/SKILL.md; it is part of outer's package, not a skill of its own\n"
	if got := errb.String(); got != want {
		t.Errorf("discoveryNotes printed\n%s\nwant\n%s", got, want)
	}
}
