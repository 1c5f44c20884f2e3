package skillset

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/resolve"
)

func TestLockDiff(t *testing.T) {
	a := lockOf(map[string]resolve.LockedSkill{
		"gone":  entry("1.0.0", sum1, both, nil),
		"moved": entry("1.0.0", sum1, both, nil),
		"same":  entry("1.0.0", sum1, both, map[string]string{"moved": "1.0.0"}),
		"fewer": entry("1.0.0", sum1, []string{"codex", "claude-code"}, nil),
	})
	b := lockOf(map[string]resolve.LockedSkill{
		"moved": entry("1.1.0", sum2, both, nil),
		"same":  entry("1.0.0", sum1, []string{"codex", "claude-code", "codex"}, map[string]string{"moved": "1.1.0"}),
		"fewer": entry("1.0.0", sum1, []string{"codex"}, nil),
		"new":   entry("1.0.0", sum1, both, nil),
	})
	tests := []struct {
		name string
		a, b *resolve.Lock
		want []string
	}{
		{"every kind of change", a, b, []string{
			"locked but removed: gone",
			"installed but not locked: new",
			"at another version: moved 1.0.0 → 1.1.0",
			"agents: fewer [claude-code, codex] → [codex]",
		}},
		{"no lock before", nil, b, []string{"installed but not locked: fewer moved new same"}},
		{"no lock after", a, nil, []string{"locked but removed: fewer gone moved same"}},
		{"only dependency versions", lockOf(map[string]resolve.LockedSkill{"same": a.Skills["same"]}),
			lockOf(map[string]resolve.LockedSkill{"same": b.Skills["same"]}), []string{"dependency versions differ"}},
	}
	for _, tt := range tests {
		if got := lockDiff(tt.a, tt.b); !slices.Equal(got, tt.want) {
			t.Errorf("lockDiff(%s) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestFilterChange(t *testing.T) {
	j := &journal{Skills: map[string]journalSkill{
		"a": {Change: changeInstall}, "b": {Change: changeRemove}, "c": {Change: changeInstall},
	}}
	tests := []struct {
		names  []string
		change string
		want   []string
	}{
		{[]string{"c", "b", "a"}, changeInstall, []string{"c", "a"}},
		{[]string{"c", "b", "a"}, changeRemove, []string{"b"}},
		{[]string{"x", "a"}, changeRemove, nil},
		{nil, changeInstall, nil},
	}
	for _, tt := range tests {
		if got := filterChange(j, tt.names, tt.change); !slices.Equal(got, tt.want) {
			t.Errorf("filterChange(%q, %q) = %q, want %q", tt.names, tt.change, got, tt.want)
		}
	}
}

func TestNameList(t *testing.T) {
	tests := []struct {
		names []string
		want  string
	}{
		{nil, ""},
		{[]string{"a"}, "a"},
		{strings.Fields("a b c d e f g"), "a b c d e f g"},
		{strings.Fields("a b c d e f g h"), "a b c d e … h (8 skills)"},
	}
	for _, tt := range tests {
		if got := nameList(tt.names); got != tt.want {
			t.Errorf("nameList(%q) = %q, want %q", tt.names, got, tt.want)
		}
	}
}

var errInjected = errors.New("injected fault")

// interrupted runs install app with the journal left behind as a kill
// after the journal was written leaves it: nothing in the roots changed.
func interrupted(t *testing.T, w *world) {
	t.Helper()
	s := w.open(false, failAt(errInjected, PointJournalWritten, PointLockWritten))
	if _, err := s.Install(t.Context(), InstallRequest{Args: []string{"app"}, Force: true}); !errors.Is(err, errInjected) {
		t.Fatalf("Install(app) failing at %s = %v, want the injected fault", PointJournalWritten, err)
	}
	if !exists(JournalPath(w.machine(), s.Scope)) {
		t.Fatalf("Install(app) failing at %s and %s left no journal", PointJournalWritten, PointLockWritten)
	}
	if w.installedVersion(false, "codex", "app") != "" {
		t.Fatalf("Install(app) failing at %s installed app", PointJournalWritten)
	}
}

func TestInterruptedInstallRunAgain(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	interrupted(t, w)
	s := w.open(false, nil)
	run, err := PendingRun(t.Context(), w.machine(), s.Scope, s.Env)
	if err != nil || run == nil {
		t.Fatalf("PendingRun() = %+v, %v; want the interrupted install", run, err)
	}
	if run.Command != "agent-skills install app" || run.Rerun != "agent-skills install app --force --agent claude-code,codex" ||
		run.Changed || run.Lock != nil || !slices.Equal(run.Partial, []string{"app", "lib"}) || run.Started == "" {
		t.Errorf("PendingRun() = %+v, want install app, rerun with --force for both agents, nothing changed, app and lib partial", run)
	}
	// The same command again finishes it.
	out, err := s.Install(t.Context(), InstallRequest{Args: []string{"app"}, Force: true})
	if err != nil {
		t.Fatalf("Install(app) again = %v", err)
	}
	if !hasLine(notices(out), `note: finishing the interrupted "agent-skills install app" (started `) {
		t.Errorf("Install(app) again: notices %v, want the interrupted run named", notices(out))
	}
	if got, want := w.lockedVersions(), "app@1.0.0[claude-code codex] lib@1.1.0[claude-code codex]"; got != want {
		t.Errorf("skills.lock = %q, want %q", got, want)
	}
	if run, err := PendingRun(t.Context(), w.machine(), s.Scope, s.Env); run != nil || err != nil || exists(JournalPath(w.machine(), s.Scope)) {
		t.Errorf("PendingRun() after finishing = %+v, %v; want no journal", run, err)
	}
}

func TestInterruptedInstallOtherCommand(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	interrupted(t, w)
	// Another command settles the journal first and says what is left.
	out, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"tool"}})
	if err != nil {
		t.Fatalf("Install(tool) = %v", err)
	}
	want := `the interrupted "agent-skills install app" (started `
	rest := `was done only in part (not moved everywhere: app lib); skills.lock now records what the agent folders hold. To finish it: agent-skills install app --force --agent claude-code,codex`
	if !hasLine(notices(out), want) || !hasLine(notices(out), rest) || out.Notices[0].Level != LevelWarn {
		t.Errorf("Install(tool).Notices = %v, want a warning that %s %s", notices(out), want, rest)
	}
	if got := w.lockedVersions(); got != "tool@1.0.0[claude-code codex]" {
		t.Errorf("skills.lock = %q, want tool only", got)
	}
	if exists(JournalPath(w.machine(), w.open(false, nil).Scope)) {
		t.Errorf("the settled journal is still there")
	}
}

// killedBeforeLock runs fn with a fault after skills.lock is written and
// puts the old lock back: what a kill after the roots changed and before
// skills.lock was written leaves.
func killedBeforeLock(t *testing.T, w *world, fn func(*Session) error) {
	t.Helper()
	path := filepath.Join(w.proj, "skills.lock")
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := fn(w.open(false, failAt(errInjected, PointLockWritten))); !errors.Is(err, errInjected) {
		t.Fatalf("a run failing at %s = %v, want the injected fault", PointLockWritten, err)
	}
	writeFile(t, path, string(before))
}

func TestInterruptedAfterTheRootsChanged(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"tool"}}); err != nil {
		t.Fatal(err)
	}
	killedBeforeLock(t, w, func(s *Session) error {
		_, err := s.Install(t.Context(), InstallRequest{Args: []string{"app"}})
		return err
	})
	s := w.open(false, nil)
	run, err := PendingRun(t.Context(), w.machine(), s.Scope, s.Env)
	if err != nil || run == nil || !run.Changed || !slices.Equal(run.Diff, []string{"installed but not locked: app lib"}) || len(run.Partial) != 0 {
		t.Fatalf("PendingRun() = %+v, %v; want app and lib to be recorded, nothing partial", run, err)
	}
	if _, ok := run.Lock.Skills["app"]; !ok {
		t.Errorf("PendingRun().Lock = %v, want app in it", run.Lock.Skills)
	}
	// A dry run tells, and writes nothing.
	out, err := w.open(false, nil).Update(t.Context(), UpdateRequest{DryRun: true})
	if err != nil || !hasLine(notices(out), "is not recorded in skills.lock yet") {
		t.Errorf("Update(dry run) = %v, %v; want the pending run named", notices(out), err)
	}
	if got := w.lockedVersions(); got != "tool@1.0.0[claude-code codex]" || !exists(JournalPath(w.machine(), s.Scope)) {
		t.Errorf("Update(dry run) settled the journal: lock %q", got)
	}
	// The next command records it.
	out, err = w.open(false, nil).Uninstall(t.Context(), UninstallRequest{Names: []string{"tool"}})
	if err != nil {
		t.Fatalf("Uninstall(tool) = %v", err)
	}
	if !hasLine(notices(out), `note: recorded in skills.lock what the interrupted "agent-skills install app" (started `) {
		t.Errorf("Uninstall(tool).Notices = %v, want the interrupted install recorded", notices(out))
	}
	if got, want := w.lockedVersions(), "app@1.0.0[claude-code codex] lib@1.1.0[claude-code codex]"; got != want {
		t.Errorf("skills.lock = %q, want %q", got, want)
	}
}

func TestInterruptedUninstall(t *testing.T) {
	t.Parallel()
	for _, next := range []string{"same", "other"} {
		t.Run(next, func(t *testing.T) {
			t.Parallel()
			w := appWorld(t)
			if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"tool", "extra"}}); err != nil {
				t.Fatal(err)
			}
			killedBeforeLock(t, w, func(s *Session) error {
				_, err := s.Uninstall(t.Context(), UninstallRequest{Names: []string{"tool"}})
				return err
			})
			s := w.open(false, nil)
			run, err := PendingRun(t.Context(), w.machine(), s.Scope, s.Env)
			if err != nil || run == nil || !run.Changed || !slices.Equal(run.Diff, []string{"locked but removed: tool"}) {
				t.Fatalf("PendingRun() = %+v, %v; want tool locked but removed", run, err)
			}
			done := JournalPath(w.machine(), s.Scope) + ".done"
			if next == "other" {
				// Another command records the removal and keeps the
				// journal as the record of what was removed.
				if _, err := s.Install(t.Context(), InstallRequest{Args: []string{"lib"}}); err != nil {
					t.Fatalf("Install(lib) = %v", err)
				}
				if !exists(done) || exists(JournalPath(w.machine(), s.Scope)) {
					t.Fatalf("the settled uninstall journal was not kept as %s", done)
				}
				s = w.open(false, nil)
			}
			out, err := s.Uninstall(t.Context(), UninstallRequest{Names: []string{"tool"}})
			if err != nil {
				t.Fatalf("Uninstall(tool) again = %v", err)
			}
			if !slices.Contains(notices(out), `info: already removed by the interrupted "agent-skills uninstall tool": tool`) {
				t.Errorf("Uninstall(tool) again: notices %v, want tool already removed", notices(out))
			}
			if _, ok := w.lock().Skills["tool"]; ok || exists(done) {
				t.Errorf("after Uninstall(tool) again: tool still locked or %s left", done)
			}
		})
	}
}

func TestInterruptedUninstallInPart(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"tool", "extra"}}); err != nil {
		t.Fatal(err)
	}
	s := w.open(false, failAt(errInjected, PointJournalWritten, PointLockWritten))
	if _, err := s.Uninstall(t.Context(), UninstallRequest{Names: []string{"tool", "extra"}}); !errors.Is(err, errInjected) {
		t.Fatalf("Uninstall(tool extra) failing at %s = %v", PointJournalWritten, err)
	}
	out, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"lib"}})
	if err != nil {
		t.Fatalf("Install(lib) = %v", err)
	}
	if !hasLine(notices(out), "(still installed: extra tool); skills.lock now records what the agent folders hold. To finish it: agent-skills uninstall tool extra --agent claude-code,codex") {
		t.Errorf("Install(lib).Notices = %v, want the uninstall left to finish", notices(out))
	}
	// Finished: both go, and the record of the interrupted run with them.
	if _, err := w.open(false, nil).Uninstall(t.Context(), UninstallRequest{Names: []string{"tool", "extra"}}); err != nil {
		t.Fatalf("Uninstall(tool extra) = %v", err)
	}
	if got := w.lockedVersions(); got != "lib@1.1.0[claude-code codex]" || exists(JournalPath(w.machine(), s.Scope)+".done") {
		t.Errorf("skills.lock = %q (want lib only), or the done record is left", got)
	}
}

func TestUpdateInterrupted(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"lib@1.0.0"}}); err != nil {
		t.Fatal(err)
	}
	s := w.open(false, failAt(errInjected, PointJournalWritten, PointLockWritten))
	if _, err := s.Update(t.Context(), UpdateRequest{Names: []string{"lib"}, Major: true}); !errors.Is(err, errInjected) {
		t.Fatalf("Update(lib) failing at %s = %v", PointJournalWritten, err)
	}
	run, err := PendingRun(t.Context(), w.machine(), s.Scope, s.Env)
	if err != nil || run == nil || run.Rerun != "agent-skills update lib --major --agent claude-code,codex" || !slices.Equal(run.Partial, []string{"lib"}) {
		t.Fatalf("PendingRun() = %+v, %v; want update lib --major, lib partial", run, err)
	}
	out, err := w.open(false, nil).Update(t.Context(), UpdateRequest{Names: []string{"lib"}, Major: true})
	if err != nil || !hasLine(notices(out), `finishing the interrupted "agent-skills update lib"`) {
		t.Errorf("Update(lib) again = %v, %v; want it to finish the interrupted update", notices(out), err)
	}
	if got := w.lockedVersions(); got != "lib@1.1.0[claude-code codex]" {
		t.Errorf("skills.lock = %q, want lib 1.1.0", got)
	}
}

func TestUnusableJournal(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	s := w.open(false, nil)
	path := JournalPath(w.machine(), s.Scope)
	writeFile(t, path, "{not json")
	if _, err := PendingRun(t.Context(), w.machine(), s.Scope, s.Env); codeOf(err) != CodeJournalInvalid {
		t.Errorf("PendingRun() over a broken journal = %v, want %s", err, CodeJournalInvalid)
	}
	for name, run := range map[string]func() error{
		"install":   func() error { _, err := s.Install(t.Context(), InstallRequest{Args: []string{"lib"}}); return err },
		"update":    func() error { _, err := s.Update(t.Context(), UpdateRequest{}); return err },
		"uninstall": func() error { _, err := s.Uninstall(t.Context(), UninstallRequest{Names: []string{"lib"}}); return err },
		"restore":   func() error { _, err := s.Restore(t.Context(), RestoreRequest{}); return err },
	} {
		if err := run(); codeOf(err) != CodeJournalInvalid {
			t.Errorf("%s over a broken journal = %v, want %s", name, err, CodeJournalInvalid)
		}
	}
	if exists(filepath.Join(w.proj, "skills.lock")) || exists(w.root(false, "codex")) {
		t.Errorf("a command over a broken journal wrote something")
	}
	// Global scope has no journal.
	if run, err := PendingRun(t.Context(), w.machine(), w.open(true, nil).Scope, s.Env); run != nil || err != nil {
		t.Errorf("PendingRun(global) = %+v, %v; want nothing", run, err)
	}
}

// A run that changed nothing (refused, or killed before it acted, on a
// skill already in place) leaves a journal that the next command settles
// without claiming to have recorded anything.
func TestInterruptedRunThatChangedNothing(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"tool"}}); err != nil {
		t.Fatal(err)
	}
	s := w.open(false, failAt(errInjected, PointJournalWritten, PointLockWritten))
	if _, err := s.Install(t.Context(), InstallRequest{Args: []string{"tool"}}); !errors.Is(err, errInjected) {
		t.Fatalf("Install(tool) failing at %s = %v, want the injected fault", PointJournalWritten, err)
	}
	if !exists(JournalPath(w.machine(), s.Scope)) {
		t.Fatal("the failed Install(tool) left no journal")
	}
	out, err := w.open(false, nil).Uninstall(t.Context(), UninstallRequest{Names: []string{"tool"}})
	if err != nil {
		t.Fatalf("Uninstall(tool) = %v", err)
	}
	if !hasLine(notices(out), `note: skills.lock already records what the interrupted "agent-skills install tool" (started `) {
		t.Errorf("Uninstall(tool).Notices = %v, want the interrupted install named as already recorded", notices(out))
	}
	if hasLine(notices(out), "note: recorded in skills.lock") {
		t.Errorf("Uninstall(tool).Notices = %v claim a record that was not made", notices(out))
	}
}
