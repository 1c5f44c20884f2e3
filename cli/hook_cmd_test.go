package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hookEnv returns a getenv for an isolated HOME.
func hookEnv(home string) func(string) string {
	return func(k string) string {
		switch k {
		case "HOME":
			return home
		case "AGENT_SKILLS_HOME":
			return filepath.Join(home, ".agent-skills")
		case "NO_COLOR":
			return "1"
		}
		return ""
	}
}

func TestHookSessionIndexNeverFails(t *testing.T) {
	const neutral = `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":""}}` + "\n"
	badHome := t.TempDir()
	os.MkdirAll(filepath.Join(badHome, ".agent-skills"), 0o755)
	os.WriteFile(filepath.Join(badHome, ".agent-skills", "config.json"), []byte("{nope"), 0o644)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name       string
		ctx        context.Context
		home       string
		args       []string
		wantOut    string
		wantStderr string
	}{
		{"bad config", context.Background(), badHome, []string{"hook", "session-index", "--host", "claude"}, neutral, "ASK_CONFIG_INVALID"},
		{"cancelled", cancelled, t.TempDir(), []string{"hook", "session-index", "--host", "codex"}, neutral, "context canceled"},
		{"unknown host", context.Background(), t.TempDir(), []string{"hook", "session-index", "--host", "vim"}, "{}\n", `unknown host "vim"`},
		{"bad bounds", context.Background(), t.TempDir(), []string{"hook", "session-index", "--host", "copilot", "--max-entries", "0"}, "{}\n", "ASK_USAGE"},
	}
	for _, tt := range tests {
		var out, errb bytes.Buffer
		code := run(tt.ctx, tt.args, nil, &out, &errb, hookEnv(tt.home))
		if code != 0 || out.String() != tt.wantOut || !strings.Contains(errb.String(), tt.wantStderr) || strings.Count(errb.String(), "\n") != 1 {
			t.Errorf("run(%s: %v) = %d, stdout %q, stderr %q; want 0, %q and one stderr line with %q",
				tt.name, tt.args, code, out.String(), errb.String(), tt.wantOut, tt.wantStderr)
		}
	}
}

// BenchmarkHookSessionIndex1k runs "hook session-index --host claude" in
// process over 1,000 skills installed globally for Claude Code.
func BenchmarkHookSessionIndex1k(b *testing.B) {
	home := b.TempDir()
	root := filepath.Join(home, ".claude", "skills")
	for i := range 1000 {
		dir := filepath.Join(root, fmt.Sprintf("skill-%04d", i))
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "SKILL.md"), fmt.Appendf(nil,
			"---\nname: skill-%04d\ndescription: Skill %d for topic %d. Use when working on topic %d.\n---\n# Skill\n", i, i, i%97, i%97), 0o644)
	}
	getenv := hookEnv(home)
	ctx := context.Background()
	var out, errb bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		out.Reset()
		if code := run(ctx, []string{"hook", "session-index", "--host", "claude"}, nil, &out, &errb, getenv); code != 0 || !bytes.Contains(out.Bytes(), []byte("skill-0049")) {
			b.Fatalf("hook session-index = %d, %.200s %s", code, out.String(), errb.String())
		}
	}
}
