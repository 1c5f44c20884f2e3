package maintain

import (
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
)

func sampleAudit(t *testing.T) []byte {
	t.Helper()
	m := twoSkills()
	m["beta/SKILL.md"] = "---\nname: beta\n---\n"
	return Encode(mustAudit(t, files(t, m)))
}

func TestDecodeAuditRoundTrip(t *testing.T) {
	data := sampleAudit(t)
	a, err := DecodeAudit(data, "audit.json")
	if err != nil {
		t.Fatalf("DecodeAudit = %v", err)
	}
	if got := Encode(a); string(got) != string(data) {
		t.Errorf("Encode(DecodeAudit(x)) differs from x:\n%s\nwant\n%s", got, data)
	}
	if _, err := DecodePlan(Encode(NewPlan(a)), "plan.json"); err != nil {
		t.Errorf("DecodePlan(NewPlan) = %v", err)
	}
}

func TestDecodeRefuses(t *testing.T) {
	good := string(sampleAudit(t))
	plan := func() string {
		a, err := DecodeAudit([]byte(good), "a")
		if err != nil {
			t.Fatal(err)
		}
		return string(Encode(NewPlan(a)))
	}()
	tests := []struct {
		name, doc string
		plan      bool
		want      string
	}{
		{"not json", "<<<", false, "not valid"},
		{"unknown key", strings.Replace(good, `"strict"`, `"extra": 1, "strict"`, 1), false, "unknown field"},
		{"trailing", good + "{}", false, "data after"},
		{"other schema", strings.Replace(good, AuditSchema, "something-else", 1), false, "not an audit"},
		{"a plan as an audit", plan, false, "unknown field"},
		{"edited digest", strings.Replace(good, `"digest": "sha256-`, `"digest": "sha256-X`, 2), false, "baseline digest"},
		{"bad source", strings.Replace(good, `"source": "validate"`, `"source": "oracle"`, 1), false, "unknown source"},
		{"bad severity", strings.Replace(good, `"severity": "error"`, `"severity": "fatal"`, 1), false, "unknown severity"},
		{"escaping path", strings.Replace(good, `"package": "beta"`, `"package": "../etc"`, 1), false, "clean relative path"},
		{"path id", strings.Replace(good, `"collection": "coll"`, `"collection": "/home/x"`, 1), false, "not a folder name"},
		{"plan step", strings.Replace(plan, `"steps": [`, `"steps": [{"action": "rm", "file": "x", "reason": "", "findings": []}`, 1), true, "not an automatic step"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if tt.plan {
				_, err = DecodePlan([]byte(tt.doc), "f.json")
			} else {
				_, err = DecodeAudit([]byte(tt.doc), "f.json")
			}
			if !askerr.Is(err, CodeDocumentInvalid) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("decode = %v, want %s mentioning %q", err, CodeDocumentInvalid, tt.want)
			}
		})
	}
	big := make([]byte, MaxDocumentSize+1)
	if _, err := DecodeAudit(big, "big.json"); !askerr.Is(err, CodeDocumentInvalid) {
		t.Errorf("DecodeAudit(%d bytes) = %v, want %s", len(big), err, CodeDocumentInvalid)
	}
}

func TestOutputConflict(t *testing.T) {
	b := Baseline{Packages: []PackageState{{Path: "alpha"}, {Path: "group/beta"}}}
	root := Baseline{Packages: []PackageState{{Path: "."}}}
	tests := []struct {
		b        Baseline
		rel      string
		conflict bool
	}{
		{b, "../audit.json", false},
		{b, "audit.json", false},
		{b, "group/audit.json", false},
		{b, "alphabet/audit.json", false},
		{b, "alpha/audit.json", true},
		{b, "alpha", true},
		{b, "group/beta/x/y.json", true},
		{b, "skills-catalog.json", true},
		{b, "notes/SKILL.md", true},
		{root, "audit.json", true},
		{root, "../audit.json", false},
	}
	for _, tt := range tests {
		if got := OutputConflict(tt.b, tt.rel) != ""; got != tt.conflict {
			t.Errorf("OutputConflict(%v, %q) = %v, want %v", tt.b.Packages, tt.rel, got, tt.conflict)
		}
	}
}
