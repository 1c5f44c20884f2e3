package format

import (
	"strings"
	"testing"
)

func TestCheckName(t *testing.T) {
	tests := []struct {
		name string
		want string // substring of the joined reasons; "" means valid
	}{
		{"a", ""},
		{"7", ""},
		{"ab", ""},
		{"java-performance", ""},
		{"a1-b2-c3", ""},
		{"0x", ""},
		{strings.Repeat("a", 64), ""},
		{"", "is empty"},
		{strings.Repeat("a", 65), "is 65 characters; the limit is 64"},
		{"Java", `contains uppercase letters ("J"); names are lowercase`},
		{"@org/skill", `contains "@" and "/", reserved for scoped names`},
		{"org/skill", `contains "/", reserved`},
		{"my_skill", `contains '_'; only lowercase letters, digits and hyphens are allowed`},
		{"my skill", `contains ' '`},
		{"-", "starts with a hyphen"},
		{"-skill", "starts with a hyphen"},
		{"skill-", "ends with a hyphen"},
		{"my--skill", `contains "--"`},
		{"java--basics", `contains "--"`},
		{"héllo", `contains 'é'`},
		{"ab\n", `contains '\n'`},
	}
	for _, tt := range tests {
		reasons := CheckName(tt.name)
		got := strings.Join(reasons, "; ")
		if tt.want == "" {
			if len(reasons) != 0 {
				t.Errorf("CheckName(%q) = %q, want no reason", tt.name, reasons)
			}
		} else if !strings.Contains(got, tt.want) {
			t.Errorf("CheckName(%q) = %q, want a reason containing %q", tt.name, reasons, tt.want)
		}
		if valid := ValidName(tt.name); valid != (tt.want == "") {
			t.Errorf("ValidName(%q) = %v, want %v", tt.name, valid, tt.want == "")
		}
	}
}

func TestCheckNameListsEveryReason(t *testing.T) {
	got := strings.Join(CheckName("-My__Skill-"), "; ")
	for _, want := range []string{"uppercase", "'_'", "starts with a hyphen", "ends with a hyphen"} {
		if !strings.Contains(got, want) {
			t.Errorf("CheckName(%q) = %q, want it to mention %q", "-My__Skill-", got, want)
		}
	}
	if reasons := CheckName("-"); len(reasons) != 1 {
		t.Errorf("CheckName(%q) = %q, want one reason (a lone hyphen starts with one, it does not also end with one)", "-", reasons)
	}
}

func TestSuggestName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"My Skill", "my-skill"},
		{"Java Performance", "java-performance"},
		{"java_performance", "java-performance"},
		{"--a--b--", "a-b"},
		{"a--b", "a-b"},
		{"@org/skill", "org-skill"},
		{"x", "x"},
		{"-x-", "x"},
		{"@@", ""},
		{"", ""},
		{strings.Repeat("ab-", 30), strings.TrimSuffix(strings.Repeat("ab-", 21)+"a", "-")},
	}
	for _, tt := range tests {
		got := SuggestName(tt.in)
		if got != tt.want {
			t.Errorf("SuggestName(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got != "" && !ValidName(got) {
			t.Errorf("SuggestName(%q) = %q, which ValidName rejects: %q", tt.in, got, CheckName(got))
		}
	}
}
