package skillset

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/install"
)

func TestUninstallRemovesOrphans(t *testing.T) {
	t.Parallel()
	for _, global := range []bool{false, true} {
		w := appWorld(t)
		if _, err := w.open(global, nil).Install(t.Context(), InstallRequest{Args: []string{"app", "tool"}}); err != nil {
			t.Fatal(err)
		}
		out, err := w.open(global, nil).Uninstall(t.Context(), UninstallRequest{Names: []string{"app"}})
		if err != nil {
			t.Fatalf("Uninstall(app, global=%v) = %v", global, err)
		}
		// app goes before lib, so that a run cut short leaves no skill
		// without its dependency.
		want := []string{"removed app 1.0.0 [codex]", "removed app 1.0.0 [claude-code]", "removed lib 1.1.0 [codex]", "removed lib 1.1.0 [claude-code]"}
		if got := results(out); !slices.Equal(got, want) {
			t.Errorf("Uninstall(app, global=%v).Results = %v, want %v", global, got, want)
		}
		if !slices.Contains(notices(out), "info: lib was installed as a dependency and nothing requires it any more: removing it too") {
			t.Errorf("Uninstall(app, global=%v).Notices = %v, want lib named", global, notices(out))
		}
		for _, id := range bothAgents {
			for _, n := range []string{"app", "lib"} {
				if exists(filepath.Join(w.root(global, id), n)) {
					t.Errorf("Uninstall(app, global=%v) left %s for %s", global, n, id)
				}
			}
		}
		if got := w.installedVersion(global, "codex", "tool"); got != "1.0.0" {
			t.Errorf("Uninstall(app, global=%v) touched tool: %q", global, got)
		}
		if want := map[bool]string{false: "tool@1.0.0[claude-code codex]", true: ""}[global]; w.lockedVersions() != want {
			t.Errorf("skills.lock after Uninstall(app, global=%v) = %q, want %q", global, w.lockedVersions(), want)
		}
	}
}

func TestUninstallRequiredElsewhere(t *testing.T) {
	t.Parallel()
	for _, global := range []bool{false, true} {
		w := appWorld(t)
		if _, err := w.open(global, nil).Install(t.Context(), InstallRequest{Args: []string{"app"}}); err != nil {
			t.Fatal(err)
		}
		before := w.lockedVersions()
		out, err := w.open(global, nil).Uninstall(t.Context(), UninstallRequest{Names: []string{"lib"}})
		if codeOf(err) != CodeSkillRequired || !slices.Equal(askerr.DetailOf(err), []string{"app@1.0.0 requires lib"}) {
			t.Errorf("Uninstall(lib, global=%v) = %v %v, want %s: app@1.0.0 requires lib", global, err, askerr.DetailOf(err), CodeSkillRequired)
		}
		if !slices.Contains(askerr.TryOf(err), "agent-skills uninstall lib app   to remove them together") {
			t.Errorf("Uninstall(lib, global=%v) try = %v, want the command that removes both", global, askerr.TryOf(err))
		}
		if len(out.Results) != 0 || w.lockedVersions() != before || w.installedVersion(global, "codex", "lib") != "1.1.0" {
			t.Errorf("a refused Uninstall(lib, global=%v) removed something: %v", global, results(out))
		}
	}
}

func TestUninstallNotInstalled(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"tool"}}); err != nil {
		t.Fatal(err)
	}
	_, err := w.open(false, nil).Uninstall(t.Context(), UninstallRequest{Names: []string{"app"}})
	if codeOf(err) != install.CodeNotInstalled || !strings.Contains(err.Error(), "app") {
		t.Errorf("Uninstall(app) when only tool is installed = %v, want %s naming app", err, install.CodeNotInstalled)
	}
	if got := w.lockedVersions(); got != "tool@1.0.0[claude-code codex]" {
		t.Errorf("skills.lock after a refused uninstall = %q", got)
	}
}

func TestUninstallDryRun(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"app"}}); err != nil {
		t.Fatal(err)
	}
	lockBefore, _ := os.ReadFile(filepath.Join(w.proj, "skills.lock"))
	out, err := w.open(false, nil).Uninstall(t.Context(), UninstallRequest{Names: []string{"app"}, DryRun: true})
	if err != nil {
		t.Fatalf("Uninstall(app, dry run) = %v", err)
	}
	want := []string{"removed app 1.0.0 [codex]", "removed app 1.0.0 [claude-code]", "removed lib 1.1.0 [codex]", "removed lib 1.1.0 [claude-code]"}
	if got := results(out); !out.DryRun || !slices.Equal(got, want) {
		t.Errorf("Uninstall(app, dry run) = dryRun %v %v, want %v", out.DryRun, got, want)
	}
	if !slices.Contains(notices(out), "info: lib was installed as a dependency and nothing requires it any more: it would be removed too") {
		t.Errorf("Uninstall(app, dry run).Notices = %v", notices(out))
	}
	lockAfter, _ := os.ReadFile(filepath.Join(w.proj, "skills.lock"))
	if string(lockAfter) != string(lockBefore) || w.installedVersion(false, "codex", "app") != "1.0.0" {
		t.Errorf("Uninstall(app, dry run) changed skills.lock or removed app")
	}
}

func TestUninstallForce(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"tool"}}); err != nil {
		t.Fatal(err)
	}
	edited := filepath.Join(w.root(false, "codex"), "tool", "SKILL.md")
	writeFile(t, edited, "---\nname: tool\ndescription: mine\n---\n# mine\n")
	out, err := w.open(false, nil).Uninstall(t.Context(), UninstallRequest{Names: []string{"tool"}})
	if codeOf(err) != "ASK_MODIFIED_INSTALL" {
		t.Errorf("Uninstall(tool) over an edit = %v, want ASK_MODIFIED_INSTALL", err)
	}
	// Only the refusal is reported: nothing was removed.
	if got := results(out); len(got) != 1 || !strings.HasPrefix(got[0], "refused tool 1.0.0 [codex]") {
		t.Errorf("Uninstall(tool) over an edit = %v, want only the refusal", got)
	}
	if !exists(filepath.Join(w.root(false, "claude-code"), "tool")) || w.lockedVersions() != "tool@1.0.0[claude-code codex]" {
		t.Errorf("a refused Uninstall(tool) removed something")
	}
	out, err = w.open(false, nil).Uninstall(t.Context(), UninstallRequest{Names: []string{"tool"}, Force: true})
	if err != nil || !slices.Equal(results(out), []string{"removed tool 1.0.0 [codex]", "removed tool 1.0.0 [claude-code]"}) {
		t.Errorf("Uninstall(tool, force) = %v, %v; want removed from both roots", results(out), err)
	}
	if exists(edited) || w.lockedVersions() != "" {
		t.Errorf("Uninstall(tool, force) left %s or a lock entry: %q", edited, w.lockedVersions())
	}
}

func TestUninstallForOneAgent(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"tool"}}); err != nil {
		t.Fatal(err)
	}
	out, err := w.openFor(false, []string{"codex"}, nil).Uninstall(t.Context(), UninstallRequest{Names: []string{"tool"}})
	if err != nil || !slices.Equal(results(out), []string{"removed tool 1.0.0 [codex]"}) {
		t.Errorf("Uninstall(tool, codex) = %v, %v", results(out), err)
	}
	if got := w.lockedVersions(); got != "tool@1.0.0[claude-code]" {
		t.Errorf("skills.lock after Uninstall(tool, codex) = %q, want tool for claude-code only", got)
	}
}

func TestUninstallFreshClone(t *testing.T) {
	t.Parallel()
	// A skill locked but never installed here leaves skills.lock only.
	w := appWorld(t)
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"tool", "extra"}}); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(w.root(false, "claude-code"), "tool"))
	os.RemoveAll(filepath.Join(w.root(false, "claude-code"), ".agent-skills", "receipts", "tool.json"))
	os.RemoveAll(filepath.Join(w.root(false, "codex"), "tool"))
	os.RemoveAll(filepath.Join(w.root(false, "codex"), ".agent-skills", "receipts", "tool.json"))
	for _, dryRun := range []bool{true, false} {
		out, err := w.open(false, nil).Uninstall(t.Context(), UninstallRequest{Names: []string{"tool"}, DryRun: dryRun})
		if err != nil {
			t.Fatalf("Uninstall(tool, dry run %v) of a locked skill not installed = %v", dryRun, err)
		}
		verb := map[bool]string{true: "would leave", false: "left"}[dryRun]
		if want := "info: not installed here for claude-code, codex, " + verb + " skills.lock only: tool"; !slices.Contains(notices(out), want) {
			t.Errorf("Uninstall(tool, dry run %v).Notices = %v, want %q", dryRun, notices(out), want)
		}
		if _, locked := w.lock().Skills["tool"]; locked != dryRun {
			t.Errorf("Uninstall(tool, dry run %v): tool locked = %v, want %v", dryRun, locked, dryRun)
		}
	}
	if got := w.lockedVersions(); got != "extra@1.0.0[claude-code codex]" {
		t.Errorf("skills.lock after Uninstall(tool) = %q, want extra only", got)
	}
}
