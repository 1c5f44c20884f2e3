package skillset

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/install"
)

// cancelAt returns a fault hook that cancels the run's context at the
// first occurrence of point and lets the run carry on, as a SIGINT
// arriving there does.
func cancelAt(cancel context.CancelFunc, point string) func(string) error {
	return func(p string) error {
		if p == point {
			cancel()
		}
		return nil
	}
}

// stagedLeft lists what is left in the staging folders of the project's
// roots.
func stagedLeft(t *testing.T, w *world) []string {
	t.Helper()
	var left []string
	for _, id := range bothAgents {
		dir := filepath.Join(w.root(false, id), ".agent-skills", "staging")
		es, err := os.ReadDir(dir)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
		for _, e := range es {
			left = append(left, filepath.Join(dir, e.Name()))
		}
	}
	return left
}

// An interrupt that comes while the packages are staged stops the
// install before anything is in place: nothing installed, skills.lock
// and the receipts as they were, the staged copies removed, and the
// error is the interruption.
func TestInstallInterruptedWhileStaging(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"lib@1.0.0"}}); err != nil {
		t.Fatal(err)
	}
	before := w.lockedVersions()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	s := w.open(false, cancelAt(cancel, install.PointStaged))
	out, err := s.Install(ctx, InstallRequest{Args: []string{"app"}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Install(app) cancelled while staging = %v, want context.Canceled", err)
	}
	if got := w.lockedVersions(); got != before {
		t.Errorf("skills.lock after a cancel while staging = %q, want %q", got, before)
	}
	for _, id := range bothAgents {
		if got := w.installedVersion(false, id, "app"); got != "" {
			t.Errorf("app for %s after a cancel while staging = %q, want not installed", id, got)
		}
		if got := w.installedVersion(false, id, "lib"); got != "1.0.0" {
			t.Errorf("lib for %s after a cancel while staging = %q, want 1.0.0", id, got)
		}
	}
	for _, in := range w.scan(s) {
		if in.Name != "lib" || in.Version != "1.0.0" || in.State != install.StateOK {
			t.Errorf("after a cancel while staging the scan finds %s %s %s, want only lib 1.0.0 ok", in.Name, in.Version, in.State)
		}
	}
	if left := stagedLeft(t, w); len(left) > 0 {
		t.Errorf("a cancel while staging left staged copies %v", left)
	}
	if exists(JournalPath(w.machine(), s.Scope)) {
		t.Errorf("a cancel while staging left the run journal")
	}
	for _, r := range results(out) {
		t.Errorf("a cancel while staging reports %q, want no result", r)
	}
}

// An interrupt that comes once the install is committed is too late to
// stop it: the bookkeeping finishes (skills.lock follows the roots) and
// the install succeeds, saying that the interrupt came too late.
func TestInstallInterruptedAfterCommit(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	s := w.open(false, cancelAt(cancel, install.PointAfterReceipt))
	out, err := s.Install(ctx, InstallRequest{Args: []string{"app"}})
	if err != nil {
		t.Fatalf("Install(app) cancelled after its commit = %v, want success", err)
	}
	// app needs lib ^1.0.0: the newest is taken, as without the cancel.
	if got, want := w.lockedVersions(), "app@1.0.0[claude-code codex] lib@1.1.0[claude-code codex]"; got != want {
		t.Errorf("skills.lock after a cancel after the commit = %q, want %q", got, want)
	}
	for _, id := range bothAgents {
		if got := w.installedVersion(false, id, "app") + " " + w.installedVersion(false, id, "lib"); got != "1.0.0 1.1.0" {
			t.Errorf("app and lib for %s after a cancel after the commit = %q, want 1.0.0 1.1.0", id, got)
		}
	}
	for _, in := range w.scan(s) {
		if in.State != install.StateOK {
			t.Errorf("after a cancel after the commit the scan finds %s %s %s, want ok", in.Name, in.Version, in.State)
		}
	}
	if got, want := results(out), []string{"installed app 1.0.0 [codex]", "installed app 1.0.0 [claude-code]", "installed lib 1.1.0 [codex]", "installed lib 1.1.0 [claude-code]"}; !slices.Equal(got, want) {
		t.Errorf("Install(app) cancelled after its commit reports %q, want %q", got, want)
	}
	if exists(JournalPath(w.machine(), s.Scope)) {
		t.Errorf("a cancel after the commit left the run journal")
	}
	if left := stagedLeft(t, w); len(left) > 0 {
		t.Errorf("a cancel after the commit left staged copies %v", left)
	}
	if !hasLine(notices(out), "note: the interrupt came after the packages were in place: the install finished") {
		t.Errorf("Install(app) cancelled after its commit: notices %v, want the note that the interrupt came too late", notices(out))
	}
}
