package releases

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/config"
	"github.com/agent-skills/agent-skills/registry"
)

const doc = `{"schemaVersion": 1, "name": "agent-skills", "releases": [
  {"version": "0.2.0", "date": "2026-11-01", "url": "https://github.com/agent-skills/agent-skills/releases/tag/v0.2.0"},
  {"version": "v0.3.0", "notes": "faster installs"},
  {"version": "0.4.0", "yanked": true},
  {"version": "0.5.0-rc.1"}
]}`

func TestParse(t *testing.T) {
	d, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Releases[1].Version; got != "0.3.0" {
		t.Errorf("Parse: leading v kept: %q, want 0.3.0", got)
	}
	bad := map[string]string{
		"schema":    `{"schemaVersion": 2, "releases": []}`,
		"version":   `{"schemaVersion": 1, "releases": [{"version": "latest"}]}`,
		"twice":     `{"schemaVersion": 1, "releases": [{"version": "1.0.0"}, {"version": "v1.0.0"}]}`,
		"url":       `{"schemaVersion": 1, "releases": [{"version": "1.0.0", "url": "http://example.com/"}]}`,
		"notes":     `{"schemaVersion": 1, "releases": [{"version": "1.0.0", "notes": "` + strings.Repeat("x", maxText+1) + `"}]}`,
		"trailing":  `{"schemaVersion": 1, "releases": []} {}`,
		"not json":  `<html>`,
		"two-digit": `{"schemaVersion": 1, "releases": [{"version": "1.0"}]}`,
	}
	for name, in := range bad {
		if _, err := Parse([]byte(in)); err == nil {
			t.Errorf("Parse(%s) = nil error, want one", name)
		}
	}
}

func TestNewest(t *testing.T) {
	d, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		current, want string
	}{
		{"0.1.0", "0.3.0"},             // the yanked 0.4.0 and the prerelease are skipped
		{"0.3.0", ""},                  // nothing newer
		{"0.3.1", ""},                  // ahead of every release
		{"0.5.0-beta.1", "0.5.0-rc.1"}, // a prerelease user hears of the next prerelease
		{"", "0.3.0"},                  // a build without a version
		{"0.1.0-dev", "0.5.0-rc.1"},
	} {
		r, ok := d.Newest(tc.current)
		if got := map[bool]string{true: r.Version}[ok]; got != tc.want {
			t.Errorf("Newest(%q) = %q, want %q", tc.current, got, tc.want)
		}
	}
}

func TestURL(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	cfg := &config.Config{Updates: &config.Updates{ReleasesURL: "https://mirror.example/releases.json"}}
	if got := URL(getenv, nil); got != DefaultURL {
		t.Errorf("URL() = %q, want the default", got)
	}
	if got := URL(getenv, cfg); got != cfg.Updates.ReleasesURL {
		t.Errorf("URL(config) = %q, want config's", got)
	}
	env[URLEnv] = "http://127.0.0.1:9/releases.json"
	if got := URL(getenv, cfg); got != env[URLEnv] {
		t.Errorf("URL(env) = %q, want the environment's", got)
	}
}

func TestFetch(t *testing.T) {
	big := fmt.Sprintf(`{"schemaVersion": 1, "releases": [], "pad": "%s"}`, strings.Repeat("x", MaxBytes))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ok.json":
			fmt.Fprint(w, doc)
		case "/big.json":
			fmt.Fprint(w, big)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	c := registry.NewHTTPClient(registry.HTTPOptions{})
	ctx := context.Background()
	d, err := Fetch(ctx, c, srv.URL+"/ok.json")
	if err != nil || len(d.Releases) != 4 {
		t.Fatalf("Fetch(ok) = %v, %v; want 4 releases", d, err)
	}
	for _, path := range []string{"/big.json", "/missing.json"} {
		if _, err := Fetch(ctx, c, srv.URL+path); err == nil {
			t.Errorf("Fetch(%s) = nil error, want one", path)
		}
	}
	for _, u := range []string{"http://example.com/releases.json", "https://user:pw@example.com/r.json", "releases.json"} {
		if _, err := Fetch(ctx, c, u); err == nil {
			t.Errorf("Fetch(%q) = nil error, want a refusal", u)
		}
	}
}
