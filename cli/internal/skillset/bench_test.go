//go:build unix

package skillset

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/workspace"
	"github.com/agent-skills/agent-skills/format"
)

// The install benchmarks of issue 15 (make bench): N local skills into
// Claude Code and Codex, project scope, the whole use case — fetch,
// verify, stage, commit, skills.lock — into a fresh project and home each
// iteration. Scratch folders are kept until the benchmark ends: on ext4
// without a journal, deleting the last run's files right before the next
// makes file creation many times slower. Besides time they report
// alloc-MiB/op (bytes allocated), files/op (files the run left in the
// project) and peak-RSS-MB (the process's, setup included).

func BenchmarkInstallFolder50(b *testing.B)    { benchInstall(b, 50, false) }
func BenchmarkInstallFolder500(b *testing.B)   { benchInstall(b, 500, false) }
func BenchmarkInstallRegistry50(b *testing.B)  { benchInstall(b, 50, true) }
func BenchmarkInstallRegistry500(b *testing.B) { benchInstall(b, 500, true) }

// BenchmarkInstallGit500 is BenchmarkInstallFolder500 from a git
// repository (a local bare one, file://): the checkout is read as a
// folder is.
func BenchmarkInstallGit500(b *testing.B) { benchInstallFrom(b, 500, false, true) }

// benchSkills writes n skills like bench-peers' (a SKILL.md of about
// 2 KB, references/guide.md of about 3 KB, scripts/check.sh for every
// third) under dir/skills/<name>, each with a skill.yaml when packaged,
// and returns their names.
func benchSkills(b *testing.B, dir string, n int, packaged bool) []string {
	b.Helper()
	var names []string
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("bench-%03d", i)
		names = append(names, name)
		files := map[string]string{
			"SKILL.md": fmt.Sprintf("---\nname: %s\ndescription: >-\n  Help a developer with task %d step by step, with the checks a careful\n  reviewer would make. Use when asked to do task %d.\nlicense: Apache-2.0\n---\n\n# %s\n\nRead [the guide](references/guide.md).\n\n%s",
				name, i, i, name, strings.Repeat("Measure first, change one thing at a time, and write down what was learnt.\n", 22)),
			"references/guide.md": "# Guide\n\n" + strings.Repeat("Background, the long checklist and the reasons behind each step.\n", 45),
		}
		list := "  - SKILL.md\n  - skill.yaml\n  - references/\n"
		if i%3 == 0 {
			files["scripts/check.sh"] = "#!/bin/sh\necho checking " + name + "\n"
			files["SKILL.md"] += "\nRun [the check](scripts/check.sh).\n"
			list += "  - scripts/\n"
		}
		if packaged {
			files["skill.yaml"] = fmt.Sprintf("schemaVersion: 1\nname: %s\nkind: skill\nversion: 1.0.0\ndescription: Help a developer with task %d.\nlicense: Apache-2.0\nfiles:\n%s", name, i, list)
		}
		for p, c := range files {
			full := filepath.Join(dir, "skills", name, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	return names
}

// benchRegistry makes a local registry of the packages under reg/skills.
func benchRegistry(b *testing.B, reg string, names []string) {
	b.Helper()
	var idx strings.Builder
	idx.WriteString("schemaVersion: 1\nname: team\nskills:\n")
	for _, name := range names {
		dir := filepath.Join(reg, "skills", name)
		pkg, diags := format.Load(os.DirFS(dir), format.LoadOptions{})
		if diags.HasErrors() {
			b.Fatalf("%s: %v", name, diags)
		}
		sum, err := format.Digest(pkg.FS, pkg.Files)
		if err != nil {
			b.Fatal(err)
		}
		fmt.Fprintf(&idx, "  - name: %s\n    description: Bench skill %s.\n    versions:\n      - version: 1.0.0\n        path: skills/%s\n        integrity: %s\n", name, name, name, sum)
	}
	if err := os.MkdirAll(filepath.Join(reg, "registry"), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(reg, "registry", "skills.yaml"), []byte(idx.String()), 0o644); err != nil {
		b.Fatal(err)
	}
}

func benchInstall(b *testing.B, n int, fromRegistry bool) {
	benchInstallFrom(b, n, fromRegistry, false)
}

// benchGit commits the folder src into a new bare repository and returns
// its file:// URL.
func benchGit(b *testing.B, src, bare string) string {
	b.Helper()
	git := func(dir string, args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.name=Bench", "-c", "user.email=bench@example.com",
			"-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if err := os.MkdirAll(bare, 0o755); err != nil {
		b.Fatal(err)
	}
	git(src, "init", "-q")
	git(src, "add", "-A")
	git(src, "commit", "-q", "-m", "bench")
	git(bare, "init", "-q", "--bare")
	git(src, "push", "-q", bare, "HEAD:refs/heads/main")
	return "file://" + bare
}

func benchInstallFrom(b *testing.B, n int, fromRegistry, fromGit bool) {
	base := b.TempDir()
	src := filepath.Join(base, "src")
	names := benchSkills(b, src, n, fromRegistry)
	req := InstallRequest{Args: []string{src}, Skills: []string{"*"}}
	switch {
	case fromRegistry:
		benchRegistry(b, src, names)
		req = InstallRequest{Args: names}
	case fromGit:
		if _, err := exec.LookPath("git"); err != nil {
			b.Skip("git is not installed")
		}
		req.Args = []string{benchGit(b, src, filepath.Join(base, "bare.git"))}
	}
	var files int
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		run := filepath.Join(base, fmt.Sprintf("run-%d", i))
		home, proj := filepath.Join(run, "home"), filepath.Join(run, "proj")
		env := map[string]string{"HOME": home, "AGENT_SKILLS_HOME": filepath.Join(home, ".agent-skills"),
			"CLAUDE_CONFIG_DIR": filepath.Join(home, ".claude"), "CODEX_HOME": filepath.Join(home, ".codex")}
		if err := os.MkdirAll(filepath.Join(proj, ".git"), 0o755); err != nil {
			b.Fatal(err)
		}
		if fromRegistry {
			cfg := fmt.Sprintf(`{"registries":[{"name":"team","url":%q,"kind":"local","trusted":true}]}`, src)
			if err := os.MkdirAll(env["AGENT_SKILLS_HOME"], 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(env["AGENT_SKILLS_HOME"], "config.json"), []byte(cfg), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		m := &workspace.Machine{Getenv: func(k string) string { return env[k] }, Cwd: proj}
		s, err := Open(b.Context(), m, Options{Scope: workspace.ScopeRequest{Project: true}, Agents: bothAgents, Generator: "agent-skills@bench"})
		if err != nil {
			b.Fatal(err)
		}
		out, err := s.Install(b.Context(), req)
		if err != nil || len(out.Results) != 2*n {
			b.Fatalf("Install(%d skills) = %d results, %v", n, len(out.Results), err)
		}
		b.StopTimer()
		files = 0
		filepath.WalkDir(proj, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				files++
			}
			return nil
		})
		b.StartTimer()
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/(1<<20), "alloc-MiB/op")
	b.ReportMetric(float64(files), "files/op")
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MB")
	}
}
