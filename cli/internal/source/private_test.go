package source

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// privateServer serves the fixture's repositories over smart HTTP and
// answers 401 unless the request carries password.
func privateServer(t *testing.T, fx *gitFixture, password string) *httptest.Server {
	t.Helper()
	out, err := exec.Command("git", "--exec-path").Output()
	if err != nil {
		t.Skip("git --exec-path:", err)
	}
	backend := filepath.Join(strings.TrimSpace(string(out)), "git-http-backend")
	if _, err := os.Stat(backend); err != nil {
		t.Skip("no git-http-backend")
	}
	h := &cgi.Handler{Path: backend, Env: []string{"GIT_PROJECT_ROOT=" + fx.base, "GIT_HTTP_EXPORT_ALL=1"}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, pw, ok := r.BasicAuth(); !ok || pw != password {
			w.Header().Set("WWW-Authenticate", `Basic realm="private"`)
			http.Error(w, "authentication required", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// scanFor fails the test when secret, or its Basic-header form, appears
// in any file under the roots or in any of the strings.
func scanFor(t *testing.T, secret string, roots []string, texts ...string) {
	t.Helper()
	forms := []string{secret, base64.StdEncoding.EncodeToString([]byte("x-access-token:" + secret))}
	for _, s := range texts {
		for _, f := range forms {
			if strings.Contains(s, f) {
				t.Errorf("output %q contains the token", s)
			}
		}
	}
	for _, root := range roots {
		filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
			if err != nil || info.IsDir() {
				return nil
			}
			data, _ := os.ReadFile(p)
			for _, f := range forms {
				if strings.Contains(string(data), f) {
					t.Errorf("%s contains the token", p)
				}
			}
			return nil
		})
	}
}

func TestFetchPrivate(t *testing.T) {
	fx := newFixture(t)
	fx.commit("acme/private", map[string]string{"SKILL.md": skillMD("secret-skill", "Private. Use inside the company.")})
	const token = "tok-private-8f3a2c"
	srv := privateServer(t, fx, token)
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))
	t.Setenv("GIT_ASKPASS", "")
	t.Setenv("SSH_ASKPASS", "")

	env := map[string]string{"AGENT_SKILLS_GITHUB_URL": srv.URL}
	getenv := func(k string) string { return env[k] }
	run := func() (*Result, Options, error) {
		opts := Options{CacheDir: filepath.Join(t.TempDir(), "cache"), Dir: filepath.Join(t.TempDir(), "out"), Getenv: getenv}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		res, err := Fetch(ctx, mustParse(t, "acme/private"), opts)
		return res, opts, err
	}

	// No credentials: fails fast, with the auth code, never a prompt.
	start := time.Now()
	_, _, err := run()
	if codeOf(err) != "ASK_SOURCE_AUTH" || !strings.Contains(err.Error(), "GITHUB_TOKEN") {
		t.Errorf("Fetch(no credentials) = %v, want ASK_SOURCE_AUTH naming GITHUB_TOKEN", err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("Fetch(no credentials) took %v, want a fast failure", d)
	}

	// A wrong token: refused, and not echoed.
	env["GITHUB_TOKEN"] = "tok-wrong-77d1e0"
	_, opts, err := run()
	if codeOf(err) != "ASK_SOURCE_AUTH" {
		t.Errorf("Fetch(wrong token) = %v, want ASK_SOURCE_AUTH", err)
	}
	scanFor(t, "tok-wrong-77d1e0", []string{opts.CacheDir, opts.Dir}, errText(err))

	// GITHUB_TOKEN: sent as a header through the environment.
	env["GITHUB_TOKEN"] = token
	res, opts, err := run()
	if err != nil || len(res.Packages) != 1 {
		t.Fatalf("Fetch(GITHUB_TOKEN) = %v", err)
	}
	p := res.Packages[0]
	scanFor(t, token, []string{opts.CacheDir, opts.Dir}, p.Resolved, p.Source, res.URL, p.Dir)

	// A credential helper from the user's git configuration is consulted.
	delete(env, "GITHUB_TOKEN")
	marker := filepath.Join(home, "helper-called")
	helper := filepath.Join(home, "helper.sh")
	script := "#!/bin/sh\ncase \"$1\" in get) echo called >> '" + marker + "'; echo username=ci; echo password=" + token + ";; esac\n"
	if err := os.WriteFile(helper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[credential]\n\thelper = "+helper+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, opts, err = run()
	if err != nil || len(res.Packages) != 1 {
		t.Fatalf("Fetch(credential helper) = %v", err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("Fetch(credential helper) did not consult the helper: %v", err)
	}
	scanFor(t, token, []string{opts.CacheDir, opts.Dir}, res.Packages[0].Resolved, res.URL)
}

// errText returns err's message, or "".
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestAuthHeader(t *testing.T) {
	env := map[string]string{"GITHUB_TOKEN": "gh", "GITLAB_TOKEN": "gl", "AGENT_SKILLS_GITHUB_URL": "http://127.0.0.1:9/"}
	getenv := func(k string) string { return env[k] }
	tests := []struct {
		url, key string
	}{
		{"https://github.com/a/b.git", "http.https://github.com/.extraHeader"},
		{"https://gitlab.com/a/b.git", "http.https://gitlab.com/.extraHeader"},
		{"http://127.0.0.1:9/a/b.git", "http.http://127.0.0.1:9/.extraHeader"},
		{"http://github.com/a/b.git", ""},
		{"https://example.com/a/b.git", ""},
		{"ssh://git@github.com/a/b.git", ""},
	}
	for _, tt := range tests {
		k, _, ok := authHeader(tt.url, getenv)
		if k != tt.key || ok != (tt.key != "") {
			t.Errorf("authHeader(%q) = %q, %v, want %q", tt.url, k, ok, tt.key)
		}
	}
}
