package setup

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
)

// testEnv returns an Env on a scratch home with a project folder.
func testEnv(t *testing.T) Env {
	t.Helper()
	dir := t.TempDir()
	home, proj := filepath.Join(dir, "home"), filepath.Join(dir, "proj")
	for _, d := range []string{home, proj} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	vars := map[string]string{"SOURCE_DATE_EPOCH": "1767225600"}
	return Env{Getenv: func(k string) string { return vars[k] }, Home: home, StateDir: filepath.Join(home, ".agent-skills"),
		ProjectRoot: proj, Version: "1.2.3",
		LookPath: func(string) (string, error) { return "", errors.New("not found") }}
}

func TestEnableReplacesItsOwnOlderWrite(t *testing.T) {
	env := testEnv(t)
	if r := Enable(env, gemini{}, User, Options{}, true); r.Err != nil || !r.Written {
		t.Fatalf("first Enable: %v (written %v)", r.Err, r.Written)
	}
	r := Enable(env, gemini{}, User, Options{Command: "/opt/as/agent-skills"}, true)
	if r.Err != nil {
		t.Fatalf("Enable --command: %v", r.Err)
	}
	for _, e := range r.Entries {
		if e.Status != "update" {
			t.Errorf("%s: status %s, want update", e.Where, e.Status)
		}
	}
	data, _ := os.ReadFile(filepath.Join(env.Home, ".gemini", "settings.json"))
	if strings.Count(string(data), "hook session-index") != 1 || !strings.Contains(string(data), "/opt/as/agent-skills hook session-index") {
		t.Errorf("settings.json = %s, want one hook running /opt/as/agent-skills", data)
	}
	if d := Disable(env, gemini{}, User, true); d.Err != nil {
		t.Fatalf("Disable: %v", d.Err)
	}
	if _, err := os.Stat(filepath.Join(env.Home, ".gemini", "settings.json")); !os.IsNotExist(err) {
		t.Errorf("settings.json still there after disable (err %v)", err)
	}
}

func TestProjectReceiptMustStayInTheProject(t *testing.T) {
	env := testEnv(t)
	path := receiptPath(env, "claude", Project)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	receipt := `{"schemaVersion":1,"host":"claude","scope":"project","entries":[{"file":"../home/.bashrc","format":"text","part":"hooks","kind":"file","value":"\"x\"","command":"agent-skills","version":"1","written":"x"}]}`
	if err := os.WriteFile(path, []byte(receipt), 0o644); err != nil {
		t.Fatal(err)
	}
	r := Disable(env, claude{}, Project, true)
	if !askerr.Is(r.Err, CodeReceiptInvalid) {
		t.Fatalf("Disable with a receipt naming ../home/.bashrc: %v, want %s", r.Err, CodeReceiptInvalid)
	}
}

func TestCheckCommandDoesNotRunTheProjectsPrograms(t *testing.T) {
	env := testEnv(t)
	exe := filepath.Join(env.ProjectRoot, "evil")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\ntouch \"$0.ran\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	c := CheckCommand(env, exe)
	if c.Runs || !strings.Contains(c.Problem, "inside the project") {
		t.Errorf("CheckCommand(%q) = %+v, want refused", exe, c)
	}
	if _, err := os.Stat(exe + ".ran"); err == nil {
		t.Error("the project's program ran")
	}
	if c := CheckCommand(env, "agent-skills"); c.Runs || c.Problem != "not found on PATH" {
		t.Errorf("CheckCommand(agent-skills) without PATH = %+v", c)
	}
}
