package skillset

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/resolve"
)

func TestRestoreFreshClone(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"app", "lib@1.0.0"}}); err != nil {
		t.Fatal(err)
	}
	// A newer lib is published; a clone restores what the lock records.
	w.publish(pkgSpec{name: "lib", version: "1.2.0"})
	lockBytes, _ := os.ReadFile(filepath.Join(w.proj, "skills.lock"))
	for _, d := range []string{".claude", ".agents"} {
		if err := os.RemoveAll(filepath.Join(w.proj, d)); err != nil {
			t.Fatal(err)
		}
	}
	s := w.open(false, nil)
	out, err := s.Restore(t.Context(), RestoreRequest{})
	if err != nil {
		t.Fatalf("Restore() = %v", err)
	}
	want := []string{"installed app 1.0.0 [codex]", "installed app 1.0.0 [claude-code]", "installed lib 1.0.0 [codex]", "installed lib 1.0.0 [claude-code]"}
	if got := results(out); !slices.Equal(got, want) {
		t.Errorf("Restore().Results = %v, want %v", got, want)
	}
	if len(out.Plan) != 0 {
		t.Errorf("Restore().Plan = %v, want none: a restore resolves nothing", plan(out))
	}
	after, _ := os.ReadFile(filepath.Join(w.proj, "skills.lock"))
	if string(after) != string(lockBytes) {
		t.Errorf("Restore() rewrote skills.lock:\n%s\nwant\n%s", after, lockBytes)
	}
	for _, id := range bothAgents {
		if got := w.installedVersion(false, id, "lib"); got != "1.0.0" {
			t.Errorf("restored lib for %s = %q, want 1.0.0", id, got)
		}
	}
	// Restored again: everything is in place.
	out, err = w.open(false, nil).Restore(t.Context(), RestoreRequest{})
	if err != nil || !slices.Equal(results(out), []string{"unchanged app 1.0.0 [codex]", "unchanged app 1.0.0 [claude-code]", "unchanged lib 1.0.0 [codex]", "unchanged lib 1.0.0 [claude-code]"}) {
		t.Errorf("Restore() again = %v, %v; want everything unchanged", results(out), err)
	}
}

func TestRestoreKeepsRoles(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	if _, err := w.openFor(false, []string{"claude-code"}, nil).Install(t.Context(), InstallRequest{Args: []string{"app"}}); err != nil {
		t.Fatal(err)
	}
	// Restored for both agents, lib stays a dependency for codex too: the
	// lock records no roles, the receipts do.
	s := w.open(false, nil)
	if _, err := s.Restore(t.Context(), RestoreRequest{}); err != nil {
		t.Fatalf("Restore() = %v", err)
	}
	if got := roleOf(w, s, "lib", "codex"); got != resolve.RoleDependency {
		t.Errorf("lib restored for codex has role %q, want %q", got, resolve.RoleDependency)
	}
	if got := roleOf(w, s, "app", "codex"); got != resolve.RoleRequested {
		t.Errorf("app restored for codex has role %q, want %q", got, resolve.RoleRequested)
	}
	// The lock names the agents it now has.
	if got, want := w.lockedVersions(), "app@1.0.0[claude-code codex] lib@1.1.0[claude-code codex]"; got != want {
		t.Errorf("skills.lock after Restore() = %q, want %q", got, want)
	}
}

func TestRestoreNeedsALock(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	for _, global := range []bool{false, true} {
		out, err := w.open(global, nil).Restore(t.Context(), RestoreRequest{})
		if codeOf(err) != askerr.CodeUsage || out != nil {
			t.Errorf("Restore(global=%v) without skills.lock = %v, %v; want %s", global, out, err, askerr.CodeUsage)
		}
	}
}

func TestRestoreUnknownRegistry(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"lib"}}); err != nil {
		t.Fatal(err)
	}
	l := w.lock()
	e := l.Skills["lib"]
	e.Registry = "gone"
	l.Skills["lib"] = e
	writeFile(t, filepath.Join(w.proj, "skills.lock"), string(l.Encode()))
	_, err := w.open(false, nil).Restore(t.Context(), RestoreRequest{})
	if codeOf(err) != registry.CodeRegistryUnknown || !slices.Contains(askerr.TryOf(err), "agent-skills registry add gone <url>") {
		t.Errorf("Restore() of a skill from an unconfigured registry = %v %v, want %s", err, askerr.TryOf(err), registry.CodeRegistryUnknown)
	}
}
