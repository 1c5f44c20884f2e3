package ui

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/scan"
)

func TestFindingsForm(t *testing.T) {
	var out bytes.Buffer
	p := &Printer{Out: &out}
	p.findings(&out, "  ", "my-skill", []scan.Finding{
		{Rule: "hidden-bidi", Severity: scan.Critical, File: "SKILL.md", Line: 5, Col: 8,
			Message: "bidirectional control U+202E", Excerpt: "Run it.<U+202E>Hidden", Fix: "delete it"},
		{Rule: "hidden-bidi", Severity: scan.Critical, File: "gpj.\u202emd", Message: "the file name holds it"},
	})
	got := out.String()
	for _, want := range []string{
		"  my-skill/SKILL.md:5:8: critical hidden-bidi bidirectional control U+202E\n",
		"      | Run it.<U+202E>Hidden\n",
		"      fix: delete it\n",
		"  my-skill/gpj.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.ContainsRune(got, '\u202e') {
		t.Errorf("a file name's bidi control reached the output:\n%q", got)
	}
}
