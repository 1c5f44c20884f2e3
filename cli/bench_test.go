package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/agent-skills/agent-skills/scaffold"
)

// BenchmarkInstall50 is the install benchmark of the design's issue: 50
// skills from a local registry into Claude Code and Codex, project scope,
// a fresh HOME and project each iteration, in process.
// scripts/bench-install.sh measures the same through the binary, with RSS.
func BenchmarkInstall50(b *testing.B) {
	base := b.TempDir()
	reg := filepath.Join(base, "reg")
	if err := os.MkdirAll(filepath.Join(reg, "registry"), 0o755); err != nil {
		b.Fatal(err)
	}
	os.WriteFile(filepath.Join(reg, "registry", "skills.yaml"), []byte("schemaVersion: 1\nname: bench\nskills: []\n"), 0o644)
	ctx := context.Background()
	var names []string
	for i := range 50 {
		name := fmt.Sprintf("bench-skill-%02d", i)
		names = append(names, name)
		files, err := scaffold.New(scaffold.Options{Name: name, Description: "Benchmark skill. Use when measuring install speed."})
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range files {
			p := filepath.Join(base, "src", name, filepath.FromSlash(f.Path))
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, f.Data, 0o644)
		}
		if code := run(ctx, []string{"-q", "publish", filepath.Join(base, "src", name), "--registry", reg, "--write"},
			nil, io.Discard, io.Discard, benchEnv(filepath.Join(base, "setup"))); code != 0 {
			b.Fatalf("publish %s exited %d", name, code)
		}
	}
	config := fmt.Sprintf(`{"registries":[{"name":"bench","url":%q,"kind":"local","trusted":true}]}`, reg)
	args := append([]string{"-q", "install"}, names...)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		a, env := benchRun(base, i, config, args)
		b.StartTimer()
		if code := run(ctx, a, nil, io.Discard, io.Discard, env); code != 0 {
			b.Fatalf("install exited %d", code)
		}
	}
}

// benchEnv is the environment of a run whose HOME is home, with
// agent-skills' own folder inside it.
func benchEnv(home string) func(string) string {
	return func(k string) string {
		switch k {
		case "HOME":
			return home
		case "AGENT_SKILLS_HOME":
			return filepath.Join(home, ".agent-skills")
		}
		return ""
	}
}

// benchRun makes iteration i's fresh HOME (configured with config) and
// project under base — kept until the benchmark ends, since deleting
// right before the next run slows file creation on our disks — and
// returns args aimed at that project for Claude Code and Codex, and the
// run's environment.
func benchRun(base string, i int, config string, args []string) ([]string, func(string) string) {
	dir := filepath.Join(base, fmt.Sprintf("run-%d", i))
	home := filepath.Join(dir, "home")
	proj := filepath.Join(dir, "proj")
	os.MkdirAll(filepath.Join(home, ".agent-skills"), 0o755)
	os.MkdirAll(filepath.Join(proj, ".git"), 0o755)
	os.WriteFile(filepath.Join(home, ".agent-skills", "config.json"), []byte(config), 0o644)
	return append(append([]string{}, args...), "--project-root", proj, "--agent", "claude", "--agent", "codex"), benchEnv(home)
}
