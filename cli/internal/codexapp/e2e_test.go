package codexapp

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/atomicfile"
)

// TestE2ECodexTrust is the Go half of scripts/e2e-codex-trust.sh: against
// the real Codex the script names in CODEXAPP_E2E_CODEX (with CODEX_HOME
// set up by the script), it lists the hooks, records the trust of every
// untrusted one in config.toml (RecordTrust, through tomledit), and lists them again. The
// script then runs `codex exec` to show the hook runs. Without the
// variable (CI, `go test ./...`) it is skipped: it needs Codex from npm.
func TestE2ECodexTrust(t *testing.T) {
	codex := os.Getenv("CODEXAPP_E2E_CODEX")
	if codex == "" {
		t.Skip("CODEXAPP_E2E_CODEX is not set; scripts/e2e-codex-trust.sh runs this against the real Codex")
	}
	home := os.Getenv("CODEX_HOME")
	cwd := os.Getenv("CODEXAPP_E2E_CWD")
	if home == "" || cwd == "" {
		t.Fatal("CODEX_HOME and CODEXAPP_E2E_CWD must be set")
	}
	opts := Options{Command: []string{codex, "app-server"}, Env: os.Environ(), Dir: cwd, Timeout: 60 * time.Second}
	list := func() []Hook {
		t.Helper()
		dirs, err := ListHooks(context.Background(), opts, []string{cwd})
		if err != nil {
			t.Fatalf("ListHooks: %v\nstderr: %s", err, errStderr(err))
		}
		var hooks []Hook
		for _, d := range dirs {
			for _, w := range d.Warnings {
				t.Logf("warning: %s", w)
			}
			for _, e := range d.Errors {
				t.Logf("error: %s", e)
			}
			hooks = append(hooks, d.Hooks...)
		}
		for _, h := range hooks {
			t.Logf("hook key=%q event=%s command=%q currentHash=%s trustStatus=%s", h.Key, h.EventName, h.Command, h.CurrentHash, h.TrustStatus)
		}
		return hooks
	}

	hooks := list()
	if want := os.Getenv("CODEXAPP_E2E_HOOKS"); want != "" && strconv.Itoa(len(hooks)) != want {
		t.Fatalf("Codex lists %d hooks, want %s", len(hooks), want)
	}
	if len(hooks) == 0 {
		t.Fatal("Codex lists no hooks")
	}
	cfg := filepath.Join(home, "config.toml")
	src, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hooks {
		if h.Trusted() {
			t.Fatalf("hook %q is trusted before we recorded anything", h.Key)
		}
	}
	out, err := RecordTrust(src, hooks...)
	if err != nil {
		t.Fatal(err)
	}
	if err := atomicfile.WriteFile(cfg, out, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Logf("config.toml after tomledit:\n%s", out)

	for _, h := range list() {
		if !h.Trusted() {
			t.Errorf("hook %q is %q after recording trusted_hash, want trusted", h.Key, h.TrustStatus)
		}
	}
}

func errStderr(err error) string {
	if e, ok := err.(*Error); ok {
		return e.Stderr
	}
	return ""
}
