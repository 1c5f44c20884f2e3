package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestLoadMissingIsDefault(t *testing.T) {
	c, err := Load(filepath.Join(t.TempDir(), "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Registries) != 2 || c.Registries[0].Name != "bundled" || c.Registries[1].Name != "official" {
		t.Errorf("Load(missing).Registries = %+v, want bundled then official", c.Registries)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, in string
		line     int
		msg      string
	}{
		{"syntax", "{\n  \"registries\": [\n    {\"name\": \"a\",}\n  ]\n}\n", 3, "not valid JSON"},
		{"type", "{\n  \"cache\": {\"ttlSeconds\": \"soon\"}\n}\n", 2, "cache.ttlSeconds must be int"},
		{"unknown key", "{\n  \"registeries\": []\n}\n", 2, `unknown key "registeries"`},
		{"duplicate", "{\"registries\": [\n {\"name\": \"a\", \"url\": \"/x\", \"kind\": \"local\"},\n {\"name\": \"a\", \"url\": \"/y\", \"kind\": \"local\"}\n]}\n", 3, "used twice"},
		{"bad kind", "{\"registries\": [\n {\"name\": \"a\", \"url\": \"/x\", \"kind\": \"ftp\"}\n]}\n", 2, "not one of"},
		{"newer", "{\"schemaVersion\": 9}", 0, "upgrade agent-skills"},
		{"empty", "", 0, "empty"},
		{"trailing", "{}\n{}", 2, "after the JSON object"},
		{"releases over http", "{\n  \"updates\": {\"releasesURL\": \"http://example.com/r.json\"}\n}\n", 2, "only allowed to loopback"},
		{"releases relative", "{\n  \"updates\": {\"releasesURL\": \"r.json\"}\n}\n", 2, "not an absolute URL"},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.in), "config.json")
		ce, ok := err.(*Error)
		if !ok {
			t.Errorf("%s: Parse = %v, want *Error", tt.name, err)
			continue
		}
		if ce.Line != tt.line || !strings.Contains(ce.Message, tt.msg) {
			t.Errorf("%s: Parse = line %d %q, want line %d containing %q", tt.name, ce.Line, ce.Message, tt.line, tt.msg)
		}
		if ce.ErrorCode() != "ASK_CONFIG_INVALID" {
			t.Errorf("%s: code = %s", tt.name, ce.ErrorCode())
		}
	}
}

func TestSaveRoundTrip(t *testing.T) {
	p := filepath.Join(t.TempDir(), "home", "config.json")
	c := Default()
	c.Registries = append(c.Registries, Registry{Name: "team", URL: "/srv/skills", Kind: KindLocal})
	if err := c.Save(p); err != nil {
		t.Fatal(err)
	}
	got, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if string(got.Encode()) != string(c.Encode()) {
		t.Errorf("round trip changed the config:\n%s\nwant\n%s", got.Encode(), c.Encode())
	}
	data, _ := os.ReadFile(p)
	if !strings.HasSuffix(string(data), "}\n") {
		t.Errorf("saved file lacks a trailing newline")
	}
}

// TestLoadUnreadableIsIO: a configuration that cannot be read at all (here
// a path through a regular file) is ASK_IO, not ASK_CONFIG_INVALID: the
// file's content is not at fault (B17).
func TestLoadUnreadableIsIO(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(filepath.Join(file, "config.json"))
	var ce *Error
	if !errors.As(err, &ce) || ce.ErrorCode() != "ASK_IO" || !errors.Is(err, syscall.ENOTDIR) {
		t.Errorf("Load(through a file) = %v, want an ASK_IO error wrapping ENOTDIR", err)
	}
	if _, err := Parse([]byte("{"), "config.json"); !errors.As(err, &ce) || ce.ErrorCode() != "ASK_CONFIG_INVALID" {
		t.Errorf("Parse(bad JSON) = %v, want ASK_CONFIG_INVALID", err)
	}
}

// TestCheckRegistryName: the grammar first, then the reserved names;
// bundled is allowed only for the bundled collection itself.
func TestCheckRegistryName(t *testing.T) {
	tests := []struct {
		name, kind string
		want       string // a fragment of the reason; "" for allowed
	}{
		{"team", KindLocal, ""},
		{"a", KindGit, ""},
		{"bundled", KindBundled, ""},
		{"bundled", KindLocal, "reserved"},
		{"mcp", KindGit, "reserved"},
		{"github", KindGit, "reserved"},
		{"gitlab", KindHTTP, "reserved"},
		{"Team", KindLocal, "lowercase"},
		{"-x", KindLocal, "lowercase"},
		{"a:b", KindLocal, "lowercase"},
		{"", KindLocal, "lowercase"},
		{strings.Repeat("a", 65), KindLocal, "1-64"},
	}
	for _, tt := range tests {
		got := CheckRegistryName(tt.name, tt.kind)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("CheckRegistryName(%q, %q) = %q, want %q", tt.name, tt.kind, got, tt.want)
		}
	}
}

// TestCustomAgents: an entry whose id is not a built-in agent's is a
// custom agent, passed on whole and sorted by id; a built-in entry keeps
// its overrides and is refused custom-only keys.
func TestCustomAgents(t *testing.T) {
	in := `{
  "agents": {
    "zeta": {"projectRoot": ".zeta/skills"},
    "codex": {"enabled": false, "projectRoot": "tools/skills"},
    "acme": {
      "displayName": "Acme Agent",
      "globalRoot": "~/.acme/skills",
      "projectRoot": ".acme/skills",
      "alsoReads": {"global": ["~/.agents/skills"], "project": [".agents/skills"]},
      "commands": {"projectRoot": ".acme/commands", "shape": "file", "extension": ".md"},
      "detect": {"executables": ["acme"], "configDirs": ["~/.acme"], "markers": [".acme"]}
    }
  }
}
`
	c, err := Parse([]byte(in), "config.json")
	if err != nil {
		t.Fatal(err)
	}
	got := c.CustomAgents()
	if len(got) != 2 || got[0].ID != "acme" || got[1].ID != "zeta" {
		t.Fatalf("CustomAgents() = %+v, want acme then zeta (codex is built in)", got)
	}
	a := got[0]
	if a.DisplayName != "Acme Agent" || a.Skills.GlobalRoot != "~/.acme/skills" || a.Skills.ProjectRoot != ".acme/skills" ||
		len(a.Skills.AlsoGlobal) != 1 || a.Skills.AlsoProject[0] != ".agents/skills" ||
		a.Commands == nil || a.Commands.Shape != "file" || a.Commands.Extension != ".md" || a.Commands.ProjectRoot != ".acme/commands" ||
		a.Executables[0] != "acme" || a.ConfigDirs[0] != "~/.acme" || a.Markers[0] != ".acme" {
		t.Errorf("CustomAgents()[0] = %+v, want every field of the entry", a)
	}
	over := c.Overrides()
	if len(over) != 1 || over["codex"].ProjectRoot != "tools/skills" {
		t.Errorf("Overrides() = %+v, want codex's only: a custom agent's roots are its own", over)
	}
	if c.AgentEnabled("codex") {
		t.Errorf("AgentEnabled(codex) = true, want false")
	}
	// The file round-trips.
	back, err := Parse(c.Encode(), "config.json")
	if err != nil || len(back.CustomAgents()) != 2 || back.CustomAgents()[0].Commands == nil {
		t.Errorf("Parse(Encode()) = %+v, %v, want the same custom agents", back, err)
	}
}

func TestBuiltinAgentRefusesCustomKeys(t *testing.T) {
	for _, key := range []string{`"displayName": "X"`, `"alsoReads": {}`, `"commands": {}`, `"detect": {}`} {
		in := "{\n  \"agents\": {\n    \"claude-code\": {" + key + "}\n  }\n}\n"
		_, err := Parse([]byte(in), "config.json")
		ce, ok := err.(*Error)
		if !ok || ce.ErrorCode() != CodeConfigInvalid || ce.Line != 3 || !strings.Contains(ce.Message, "claude-code is built in") {
			t.Errorf("Parse(claude-code with %s) = %v, want ASK_CONFIG_INVALID at line 3 saying claude-code is built in", key, err)
		}
	}
}
