package validate

import (
	"strings"
	"testing"
)

func TestCheckOverrides(t *testing.T) {
	allow := map[string][]string{"codex": {"interface"}, "claude-code": {}}
	tests := []struct {
		overrides map[string]map[string]any
		want      []string // field: message substring
	}{
		{map[string]map[string]any{"codex": {"interface": map[string]any{}}}, nil},
		{nil, nil},
		{map[string]map[string]any{"gemini": {"x": 1}}, []string{`agentOverrides.gemini: unknown agent "gemini"`}},
		{map[string]map[string]any{"codex": {"interface": 1, "sandbox": true, "env": 1}}, []string{
			`agentOverrides.codex.env: has the key "env"`,
			`agentOverrides.codex.sandbox: has the key "sandbox"`,
		}},
		{map[string]map[string]any{"claude-code": {"model": "x"}}, []string{`agentOverrides.claude-code.model: does not allow`}},
	}
	for _, tt := range tests {
		got := CheckOverrides(tt.overrides, allow)
		if len(got) != len(tt.want) {
			t.Errorf("CheckOverrides(%v) = %v, want %d problems", tt.overrides, got, len(tt.want))
			continue
		}
		for i, w := range tt.want {
			field, msg, _ := strings.Cut(w, ": ")
			if got[i].Field != field || got[i].Code != "ASK_OVERRIDE_KEY_UNKNOWN" || !strings.Contains(got[i].Message, msg) || got[i].Fix == "" {
				t.Errorf("CheckOverrides(%v)[%d] = %s %s %q, want %s containing %q", tt.overrides, i, got[i].Field, got[i].Code, got[i].Message, field, msg)
			}
		}
	}
}

func TestCheckOverridesFixListsAllowedKeys(t *testing.T) {
	got := CheckOverrides(map[string]map[string]any{"codex": {"bogus": 1}}, map[string][]string{"codex": {"interface", "icon"}})
	if len(got) != 1 || !strings.Contains(got[0].Fix, "icon, interface") {
		t.Errorf("CheckOverrides() = %v, want one problem whose fix lists %q", got, "icon, interface")
	}
}
