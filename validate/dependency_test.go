package validate

import (
	"strings"
	"testing"
)

func TestCheckDependencies(t *testing.T) {
	deps := []Requirement{
		{Name: "java-basics", Range: "^1.2.0"},
		{Name: "me", Range: "^1.0.0"},
		{Name: "Bad_Name", Range: "^1.0.0"},
		{Name: "ranged", Range: "latest"},
		{Name: "java-basics", Range: "^2.0.0"},
		{Name: "", Range: "^1.0.0"},
		{Name: "no-range"},
	}
	optional := []Requirement{
		{Name: "jvm-gc-tuning", Range: "^2.0.0"},
		{Name: "java-basics", Range: "*"},
	}
	got := CheckDependencies("me", deps, optional)
	want := []struct{ field, msg string }{
		{"dependencies[1].name", `names the package itself ("me")`},
		{"dependencies[2].name", "uppercase"},
		{"dependencies[3].version", `version range "latest" is not valid`},
		{"dependencies[4].name", `repeats "java-basics", already required by dependencies[0]`},
		{"dependencies[5].name", "has no name"},
		{"dependencies[6].version", "version range is empty"},
		{"optionalDependencies[1].name", `repeats "java-basics", already required by dependencies[0]`},
	}
	if len(got) != len(want) {
		t.Fatalf("CheckDependencies() = %d problems %v, want %d", len(got), got, len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Field != w.field || g.Code != "ASK_DEPENDENCY_INVALID" || !strings.Contains(g.Message, w.msg) || g.Fix == "" {
			t.Errorf("CheckDependencies()[%d] = %s %s %q, want %s containing %q with a fix", i, g.Field, g.Code, g.Message, w.field, w.msg)
		}
	}
}

func TestCheckDependenciesValid(t *testing.T) {
	got := CheckDependencies("java-performance",
		[]Requirement{{Name: "java-basics", Range: "^1.2.0"}},
		[]Requirement{{Name: "jvm-gc-tuning", Range: "^2.0.0"}})
	if len(got) != 0 {
		t.Errorf("CheckDependencies(valid) = %v, want none", got)
	}
}

func TestCheckSuggests(t *testing.T) {
	tests := []struct {
		list []string
		want []string // field: message substring
	}{
		{[]string{"flame-graph-analysis", "jvm-gc-tuning"}, nil},
		{[]string{"flame-graph-analysis@^1.0.0"}, []string{`suggests[0]: carries a version range`}},
		{[]string{"flame-graph-analysis ^1.0.0"}, []string{`suggests[0]: carries a version range`}},
		{[]string{"me"}, []string{`suggests[0]: names the package itself`}},
		{[]string{"a-b", "a-b"}, []string{`suggests[1]: repeats "a-b", already at suggests[0]`}},
		{[]string{"Bad"}, []string{`suggests[0]: uppercase`}},
		{[]string{""}, []string{`suggests[0]: is empty`}},
	}
	for _, tt := range tests {
		got := CheckSuggests("me", tt.list)
		if len(got) != len(tt.want) {
			t.Errorf("CheckSuggests(%q) = %v, want %d problems", tt.list, got, len(tt.want))
			continue
		}
		for i, w := range tt.want {
			field, msg, _ := strings.Cut(w, ": ")
			if got[i].Field != field || got[i].Code != "ASK_SUGGESTS_INVALID" || !strings.Contains(got[i].Message, msg) {
				t.Errorf("CheckSuggests(%q)[%d] = %s %s %q, want %s containing %q", tt.list, i, got[i].Field, got[i].Code, got[i].Message, field, msg)
			}
		}
	}
}
