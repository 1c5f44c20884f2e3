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
