package agents

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/format"
)

func TestValidate(t *testing.T) {
	long := strings.Repeat("word ", 210)
	cases := []struct {
		name  string
		agent string
		fsys  fstest.MapFS
		want  []string // "severity CODE substring"
	}{
		{
			name: "typical package is fine for claude", agent: "claude-code", fsys: javaPerformance(),
		},
		{
			name: "typical package is fine for codex", agent: "codex", fsys: javaPerformance(),
		},
		{
			name: "codex drops a skill without description", agent: "codex",
			fsys: fstest.MapFS{"SKILL.md": {Data: []byte("---\nname: no-desc\n---\nbody\n")}},
			want: []string{"error ASK_AGENT_CONSTRAINT without a description"},
		},
		{
			name: "manifest description is enough for codex", agent: "codex",
			fsys: fstest.MapFS{
				"skill.yaml": {Data: []byte("name: m-desc\nversion: 1.0.0\ndescription: From the manifest.\nfiles: [SKILL.md]\n")},
				"SKILL.md":   {Data: []byte("---\nname: m-desc\n---\nbody\n")},
			},
		},
		{
			name: "codex cuts a long description", agent: "codex",
			fsys: fstest.MapFS{"SKILL.md": {Data: []byte("---\nname: long-desc\ndescription: " + long + "\n---\nbody\n")}},
			want: []string{"warning ASK_AGENT_CONSTRAINT only the first 1024"},
		},
		{
			name: "copilot refuses a long description", agent: "github-copilot",
			fsys: fstest.MapFS{"SKILL.md": {Data: []byte("---\nname: long-desc\ndescription: " + long + "\n---\nbody\n")}},
			want: []string{"error ASK_AGENT_CONSTRAINT is over 1024"},
		},
		{
			name: "copilot reads skill.yaml's description through the projection", agent: "github-copilot",
			fsys: fstest.MapFS{
				"skill.yaml": {Data: []byte("name: m-desc\nversion: 1.0.0\ndescription: From the manifest.\nfiles: [SKILL.md]\n")},
				"SKILL.md":   {Data: []byte("---\nname: m-desc\n---\nbody\n")},
			},
		},
		{
			name: "codex drops metadata that is not a mapping", agent: "codex",
			fsys: fstest.MapFS{"SKILL.md": {Data: []byte("---\nname: meta\ndescription: Meta.\nmetadata: hello\n---\nbody\n")}},
			want: []string{"error ASK_AGENT_CONSTRAINT metadata is not a mapping"},
		},
		{
			name: "codex reads metadata values that are not strings", agent: "codex",
			fsys: fstest.MapFS{"SKILL.md": {Data: []byte("---\nname: meta\ndescription: Meta.\nmetadata:\n  version: 1.0\n  tags: [a]\n---\nbody\n")}},
		},
		{
			name: "codex interface overrides are checked", agent: "codex",
			fsys: fstest.MapFS{
				"skill.yaml":         {Data: []byte("name: ov\nversion: 1.0.0\ndescription: Overrides.\nfiles: [SKILL.md, agents/]\nagentOverrides:\n  codex:\n    interface:\n      display_name: 3\n      colour: red\n      short_description: " + strings.Repeat("x", 501) + "\n")},
				"SKILL.md":           {Data: []byte("---\nname: ov\ndescription: Overrides.\n---\nbody\n")},
				"agents/openai.yaml": {Data: []byte("interface: {}\n")},
			},
			want: []string{
				"warning ASK_AGENT_CONSTRAINT no field \"colour\"",
				"error ASK_AGENT_CONSTRAINT display_name must be a string",
				"error ASK_AGENT_CONSTRAINT exceeds 500",
				"warning ASK_AGENT_CONSTRAINT ships agents/openai.yaml",
			},
		},
		{
			name: "codex interface must be a mapping", agent: "codex",
			fsys: fstest.MapFS{
				"skill.yaml": {Data: []byte("name: ov\nversion: 1.0.0\ndescription: Overrides.\nfiles: [SKILL.md]\nagentOverrides:\n  codex:\n    interface: text\n")},
				"SKILL.md":   {Data: []byte("---\nname: ov\ndescription: Overrides.\n---\nbody\n")},
			},
			want: []string{"error ASK_AGENT_CONSTRAINT must be a mapping"},
		},
		{
			name: "claude ignores codex rules", agent: "claude-code",
			fsys: fstest.MapFS{"SKILL.md": {Data: []byte("---\nname: no-desc\n---\nbody\n")}},
		},
		{
			name: "claude command needs a description and carries one file", agent: "claude-code",
			fsys: fstest.MapFS{
				"skill.yaml": {Data: []byte("name: cmd\nkind: command\nversion: 1.0.0\nfiles: [COMMAND.md, skill.yaml, notes.md]\n")},
				"COMMAND.md": {Data: []byte("---\nargument-hint: x\n---\nDo it.\n")},
				"notes.md":   {Data: []byte("n\n")},
			},
			want: []string{
				"error ASK_AGENT_CONSTRAINT needs a description",
				"warning ASK_AGENT_CONSTRAINT notes.md",
			},
		},
		{
			name: "claude listing is cut", agent: "claude-code",
			fsys: fstest.MapFS{"SKILL.md": {Data: []byte("---\nname: long\ndescription: " + long + "\nwhen_to_use: " + long + "\n---\nbody\n")}},
			want: []string{"warning ASK_AGENT_CONSTRAINT lists only the first 1536"},
		},
		{
			name: "codex says nothing about commands it skips", agent: "codex",
			fsys: fstest.MapFS{
				"skill.yaml": {Data: []byte("name: cmd\nkind: command\nversion: 1.0.0\nfiles: [COMMAND.md]\n")},
				"COMMAND.md": {Data: []byte("---\n---\nDo it.\n")},
			},
		},
		{
			name: "agents without checks report nothing", agent: "gemini-cli",
			fsys: fstest.MapFS{"SKILL.md": {Data: []byte("---\nname: no-desc\n---\nbody\n")}},
		},
	}
	for _, tc := range cases {
		pkg, _ := format.Load(tc.fsys, format.LoadOptions{})
		ds := mustLookup(t, tc.agent).Validate(pkg)
		var got []string
		for _, d := range ds {
			got = append(got, d.Severity.String()+" "+d.Code+" "+d.Message)
			if d.Fix == "" {
				t.Errorf("%s: %s.Validate() diagnostic %q has no fix", tc.name, tc.agent, d.Message)
			}
			if d.File == "" {
				t.Errorf("%s: %s.Validate() diagnostic %q names no file", tc.name, tc.agent, d.Message)
			}
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: %s.Validate() = %q, want %d diagnostics matching %q", tc.name, tc.agent, got, len(tc.want), tc.want)
			continue
		}
		for _, w := range tc.want {
			sev, rest, _ := strings.Cut(w, " ")
			code, sub, _ := strings.Cut(rest, " ")
			found := false
			for _, d := range ds {
				if d.Severity.String() == sev && d.Code == code && strings.Contains(d.Message, sub) {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: %s.Validate() = %q, want one matching %q", tc.name, tc.agent, got, w)
			}
		}
	}
}

func TestValidateNil(t *testing.T) {
	for _, a := range Default().All() {
		if ds := a.Validate(nil); len(ds) != 0 {
			t.Errorf("%s.Validate(nil) = %v, want nothing", a.ID(), ds)
		}
	}
}
