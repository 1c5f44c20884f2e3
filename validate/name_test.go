package validate

import (
	"strings"
	"testing"
)

func TestCheckName(t *testing.T) {
	tests := []struct {
		name string
		want string // substring of the message; "" means valid
	}{
		{"a", ""},
		{"ab", ""},
		{"java-performance", ""},
		{"a1-b2-c3", ""},
		{"0x", ""},
		{strings.Repeat("a", 64), ""},
		{"", "is empty"},
		{strings.Repeat("a", 65), "is 65 characters; the limit is 64"},
		{"Java", `contains uppercase letters ("J")`},
		{"@org/skill", `contains "@" and "/", reserved for scoped names`},
		{"org/skill", `contains "/", reserved`},
		{"my_skill", `contains '_'; only lowercase letters, digits and hyphens are allowed`},
		{"my skill", `contains ' '`},
		{"-skill", "starts with a hyphen"},
		{"skill-", "ends with a hyphen"},
		{"my--skill", `contains "--"`},
		{"héllo", `contains 'é'`},
	}
	for _, tt := range tests {
		err := CheckName(tt.name)
		if tt.want == "" {
			if err != nil {
				t.Errorf("CheckName(%q) = %v, want nil", tt.name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("CheckName(%q) = %v, want message containing %q", tt.name, err, tt.want)
			continue
		}
		p := err.(*Problem)
		if p.Code != "ASK_NAME_INVALID" || p.Fix == "" || p.Warning {
			t.Errorf("CheckName(%q) = %+v, want an ASK_NAME_INVALID error with a fix", tt.name, p)
		}
	}
}

func TestCheckNameListsEveryReason(t *testing.T) {
	err := CheckName("-My__Skill-")
	for _, want := range []string{"uppercase", "'_'", "starts with a hyphen", "ends with a hyphen"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckName(%q) = %v, want it to mention %q", "-My__Skill-", err, want)
		}
	}
}

func TestCheckNameFixSuggestsName(t *testing.T) {
	err := CheckName("My_Skill").(*Problem)
	if !strings.Contains(err.Fix, `"my-skill"`) {
		t.Errorf("CheckName(%q).Fix = %q, want it to suggest %q", "My_Skill", err.Fix, "my-skill")
	}
}
