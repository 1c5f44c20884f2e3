package catalog

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestScanInstalled(t *testing.T) {
	home := t.TempDir()
	proj := t.TempDir()
	writeTree(t, proj, map[string]string{
		".claude/skills/alpha/SKILL.md":   skillMD("alpha", "Alpha for the project."),
		".claude/skills/alpha/skill.yaml": manifest("alpha", "2.0.0", "Alpha."),
		".claude/skills/gamma/SKILL.md":   skillMD("gamma", "Gamma."),
		".claude/skills/gamma/skill.yaml": manifest("gamma", "3.1.0", "Gamma."),
		".agents/skills/alpha/SKILL.md":   skillMD("alpha", "Alpha again."),
		".agents/skills/broken/SKILL.md":  "---\nname: [unclosed\n",
		".agents/skills/nomd/README.md":   "no SKILL.md",
		".agents/skills/.hidden/SKILL.md": skillMD("hidden", "Hidden."),
	})
	writeTree(t, home, map[string]string{
		".claude/skills/beta/SKILL.md": skillMD("beta", "Beta,\n  folded."),
	})
	if err := os.Symlink(filepath.Join(home, ".claude/skills/beta"), filepath.Join(home, ".claude/skills/linked")); err != nil {
		t.Skipf("symbolic links unavailable: %v", err)
	}
	roots := []Root{
		{Path: filepath.Join(proj, ".agents/skills"), Scope: "project", Readers: []string{"codex"}},
		{Path: filepath.Join(proj, ".claude/skills"), Scope: "project", Readers: []string{"claude-code"}},
		{Path: filepath.Join(home, ".claude/skills"), Scope: "global", Readers: []string{"claude-code"}},
		{Path: filepath.Join(home, "missing"), Scope: "global"},
	}
	got, err := ScanInstalled(context.Background(), roots, ScanOptions{Manifest: true})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range got {
		names = append(names, s.Source+"/"+s.Name)
	}
	want := []string{"installed:project/alpha", "installed:project/broken", "installed:project/gamma", "installed:project/nomd", "installed:global/beta", "installed:global/linked"}
	if !slices.Equal(names, want) {
		t.Fatalf("ScanInstalled() = %v, want %v", names, want)
	}
	alpha := got[0]
	if alpha.Description != "Alpha again." || !slices.Equal(alpha.Readers, []string{"claude-code", "codex"}) {
		t.Errorf("ScanInstalled() alpha = %+v, want the .agents copy (first folder) read by claude-code and codex", alpha)
	}
	if got[1].Problem == "" || got[3].Problem == "" {
		t.Errorf("ScanInstalled() broken/nomd problems = %q, %q; want both reported", got[1].Problem, got[3].Problem)
	}
	if g := got[2]; g.Version != "3.1.0" || len(g.Keywords) != 2 {
		t.Errorf("ScanInstalled() gamma = %+v, want version 3.1.0 and keywords from skill.yaml", g)
	}
	if alpha.Version != "" {
		t.Errorf("ScanInstalled() alpha version = %q, want none (the .agents copy has no skill.yaml)", alpha.Version)
	}
	if got[4].Description != "Beta, folded." {
		t.Errorf("ScanInstalled() beta description = %q, want %q", got[4].Description, "Beta, folded.")
	}
	if got[5].Problem == "" || got[5].Description != "" {
		t.Errorf("ScanInstalled() linked = %+v, want a link problem and no metadata", got[5])
	}
}

func TestScanInstalledCancelled(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a/SKILL.md": skillMD("a", "A."), "b/SKILL.md": skillMD("b", "B.")})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ScanInstalled(ctx, []Root{{Path: dir, Scope: "global"}}, ScanOptions{}); err == nil {
		t.Errorf("ScanInstalled(cancelled) = nil error, want the context's error")
	}
}
