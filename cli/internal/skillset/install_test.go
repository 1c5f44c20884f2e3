package skillset

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/resolve"
)

// appWorld is a world whose registry has app 1.0.0 (needs lib ^1.0.0),
// lib 1.0.0 and 1.1.0, tool 1.0.0 (suggests extra) and extra 1.0.0.
func appWorld(t *testing.T) *world {
	w := newWorld(t)
	w.publish(
		pkgSpec{name: "lib", version: "1.0.0"},
		pkgSpec{name: "lib", version: "1.1.0"},
		pkgSpec{name: "app", version: "1.0.0", deps: map[string]string{"lib": "^1.0.0"}, files: map[string]string{"references/notes.md": "app notes\n"}},
		pkgSpec{name: "tool", version: "1.0.0", suggests: []string{"extra"}},
		pkgSpec{name: "extra", version: "1.0.0"},
	)
	return w
}

// plan renders an outcome's plan as "name@version role" entries.
func plan(o *Outcome) []string {
	var out []string
	for _, s := range o.Plan {
		out = append(out, s.Name+"@"+s.Version+" "+string(s.Role))
	}
	return out
}

// roles returns the role each receipt of the session's agents records,
// as "name agent-readers role" lines, sorted.
func roles(w *world, s *Session) []string {
	var out []string
	for _, in := range w.scan(s) {
		out = append(out, in.Name+" "+strings.Join(in.Readers, ",")+" "+string(in.Role))
	}
	slices.Sort(out)
	return out
}

func TestInstallWithDependencies(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	s := w.open(false, nil)
	out, err := s.Install(t.Context(), InstallRequest{Args: []string{"app"}})
	if err != nil {
		t.Fatalf("Install(app) = %v", err)
	}
	if got, want := plan(out), []string{"app@1.0.0 requested", "lib@1.1.0 dependency"}; !slices.Equal(got, want) {
		t.Errorf("Install(app).Plan = %v, want %v", got, want)
	}
	want := []string{"installed app 1.0.0 [codex]", "installed app 1.0.0 [claude-code]", "installed lib 1.1.0 [codex]", "installed lib 1.1.0 [claude-code]"}
	if got := results(out); !slices.Equal(got, want) {
		t.Errorf("Install(app).Results = %v, want %v", got, want)
	}
	if out.Scope != "project" || out.Project != w.proj || !slices.Equal(out.Agents, bothAgents) || out.DryRun {
		t.Errorf("Install(app) = scope %q project %q agents %v dryRun %v, want project %s for %v", out.Scope, out.Project, out.Agents, out.DryRun, w.proj, bothAgents)
	}
	if got, want := w.lockedVersions(), "app@1.0.0[claude-code codex] lib@1.1.0[claude-code codex]"; got != want {
		t.Errorf("skills.lock after Install(app) = %q, want %q", got, want)
	}
	l := w.lock()
	if got := l.Skills["app"].Dependencies; got["lib"] != "1.1.0" || len(got) != 1 {
		t.Errorf("skills.lock app dependencies = %v, want lib: 1.1.0", got)
	}
	if l.GeneratedWith != "agent-skills@test" || l.Skills["lib"].Integrity != digestOf(t, w.pkgDir("lib", "1.1.0")) {
		t.Errorf("skills.lock = generatedWith %q, lib integrity %q; want the session's generator and the digest of lib 1.1.0", l.GeneratedWith, l.Skills["lib"].Integrity)
	}
	for _, id := range bothAgents {
		if got := w.installedVersion(false, id, "lib"); got != "1.1.0" {
			t.Errorf("lib in the %s root = %q, want 1.1.0", id, got)
		}
		if !exists(filepath.Join(w.root(false, id), "app", "references", "notes.md")) {
			t.Errorf("app/references/notes.md missing in the %s root", id)
		}
	}
	wantRoles := []string{"app claude-code requested", "app codex requested", "lib claude-code dependency", "lib codex dependency"}
	if got := roles(w, s); !slices.Equal(got, wantRoles) {
		t.Errorf("receipts after Install(app) = %v, want %v", got, wantRoles)
	}
	if exists(JournalPath(w.machine(), s.Scope)) {
		t.Errorf("Install(app) left its run journal behind")
	}

	// The same install again changes nothing and says so.
	out, err = w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"app"}})
	if err != nil || !slices.Equal(results(out), []string{"unchanged app 1.0.0 [codex]", "unchanged app 1.0.0 [claude-code]"}) {
		t.Errorf("Install(app) again = %v, %v; want app unchanged in both roots", results(out), err)
	}
}

func TestInstallNoDepsAndSuggests(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		req       InstallRequest
		plan      []string
		installed []string // in the claude-code root
		absent    []string
	}{
		{"no deps", InstallRequest{Args: []string{"app"}, NoDeps: true}, []string{"app@1.0.0 requested"}, []string{"app"}, []string{"lib"}},
		{"suggestions left out", InstallRequest{Args: []string{"tool"}}, []string{"tool@1.0.0 requested"}, []string{"tool"}, []string{"extra"}},
		{"with suggests", InstallRequest{Args: []string{"tool"}, WithSuggests: true}, []string{"extra@1.0.0 suggested", "tool@1.0.0 requested"}, []string{"tool", "extra"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := appWorld(t)
			out, err := w.openFor(false, []string{"claude-code"}, nil).Install(t.Context(), tt.req)
			if err != nil {
				t.Fatalf("Install(%q) = %v", tt.name, err)
			}
			if got := plan(out); !slices.Equal(got, tt.plan) {
				t.Errorf("Install(%q).Plan = %v, want %v", tt.name, got, tt.plan)
			}
			for _, n := range tt.installed {
				if w.installedVersion(false, "claude-code", n) != "1.0.0" {
					t.Errorf("Install(%q): %s not installed", tt.name, n)
				}
				if _, ok := w.lock().Skills[n]; !ok {
					t.Errorf("Install(%q): %s not in skills.lock", tt.name, n)
				}
			}
			for _, n := range tt.absent {
				if exists(filepath.Join(w.root(false, "claude-code"), n)) {
					t.Errorf("Install(%q) installed %s", tt.name, n)
				}
			}
		})
	}
}

func TestInstallRefusesBadRequests(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	s := w.open(false, nil)
	tests := []struct {
		name string
		req  InstallRequest
		code string
		want string
	}{
		{"no names", InstallRequest{}, askerr.CodeUsage, "name the skills"},
		{"suggests without deps", InstallRequest{Args: []string{"tool"}, WithSuggests: true, NoDeps: true}, askerr.CodeUsage, "--with-suggests cannot be combined"},
		{"negative cap", InstallRequest{Args: []string{"app"}, MaxSkills: -1}, askerr.CodeUsage, "--max-skills"},
		{"--skill without a source", InstallRequest{Args: []string{"app"}, Skills: []string{"x"}}, askerr.CodeUsage, "--skill picks skills from a source"},
		{"bad reference", InstallRequest{Args: []string{"App!"}}, "ASK_REFERENCE_INVALID", ""},
		{"unknown skill", InstallRequest{Args: []string{"nosuch"}}, "ASK_SKILL_NOT_FOUND", "nosuch"},
		{"no such version", InstallRequest{Args: []string{"app@9.0.0"}}, "ASK_VERSION_NOT_FOUND", ""},
		{"unknown registry", InstallRequest{Args: []string{"app"}, Registry: "elsewhere"}, registry.CodeRegistryUnknown, "elsewhere"},
	}
	for _, tt := range tests {
		_, err := s.Install(t.Context(), tt.req)
		if codeOf(err) != tt.code || !strings.Contains(errText(err), tt.want) {
			t.Errorf("Install(%q) = %v (%s), want %s saying %q", tt.name, err, codeOf(err), tt.code, tt.want)
		}
	}
	if exists(filepath.Join(w.proj, "skills.lock")) || exists(w.root(false, "codex")) {
		t.Errorf("a refused Install wrote skills.lock or an agent root")
	}
}

// errText is err's message, or "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestInstallDryRunWritesNothing(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	s := w.open(false, nil)
	out, err := s.Install(t.Context(), InstallRequest{Args: []string{"app"}, DryRun: true})
	if err != nil {
		t.Fatalf("Install(app, dry run) = %v", err)
	}
	want := []string{"installed app 1.0.0 [codex]", "installed app 1.0.0 [claude-code]", "installed lib 1.1.0 [codex]", "installed lib 1.1.0 [claude-code]"}
	if got := results(out); !out.DryRun || !slices.Equal(got, want) {
		t.Errorf("Install(app, dry run) = dryRun %v, %v; want dryRun true, %v", out.DryRun, got, want)
	}
	for _, p := range []string{filepath.Join(w.proj, "skills.lock"), filepath.Join(w.proj, ".claude"), filepath.Join(w.proj, ".agents"), JournalPath(w.machine(), s.Scope)} {
		if exists(p) {
			t.Errorf("Install(app, dry run) wrote %s", p)
		}
	}
}

func TestInstallFrozenLockfile(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"app"}}); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(w.proj, "skills.lock"))

	// What the lock records passes.
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"app"}, FrozenLockfile: true}); err != nil {
		t.Errorf("Install(app, frozen) of a locked skill = %v, want success", err)
	}
	// A new skill would change the lock: refused, nothing written.
	out, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"tool"}, FrozenLockfile: true})
	if codeOf(err) != CodeLockFrozen || !slices.Contains(askerr.DetailOf(err), "tool@1.0.0 is not in skills.lock") {
		t.Errorf("Install(tool, frozen) = %v %v, want %s with detail %q", err, askerr.DetailOf(err), CodeLockFrozen, "tool@1.0.0 is not in skills.lock")
	}
	if out == nil || len(out.Results) != 0 {
		t.Errorf("Install(tool, frozen).Results = %v, want none", results(out))
	}
	after, _ := os.ReadFile(filepath.Join(w.proj, "skills.lock"))
	if string(after) != string(before) || exists(filepath.Join(w.root(false, "codex"), "tool")) {
		t.Errorf("Install(tool, frozen) changed skills.lock or installed tool")
	}
}

func TestInstallIntegrityMismatch(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"lib@1.0.0"}}); err != nil {
		t.Fatal(err)
	}
	locked := w.lock().Skills["lib"].Integrity
	// The registry now serves other bytes as lib 1.0.0.
	w.publish(pkgSpec{name: "lib", version: "1.0.0", body: "# lib 1.0.0\n\nRepublished.\n"})
	for _, req := range []struct {
		name string
		run  func(*Session) (*Outcome, error)
	}{
		{"install", func(s *Session) (*Outcome, error) {
			return s.Install(t.Context(), InstallRequest{Args: []string{"lib@1.0.0"}, Force: true})
		}},
		{"restore", func(s *Session) (*Outcome, error) { return s.Restore(t.Context(), RestoreRequest{Force: true}) }},
	} {
		out, err := req.run(w.open(false, nil))
		if codeOf(err) != registry.CodeIntegrityMismatch || !slices.Contains(askerr.DetailOf(err), "expected (skills.lock): "+locked) {
			t.Errorf("%s of a republished lib = %v %v, want %s expecting %s", req.name, err, askerr.DetailOf(err), registry.CodeIntegrityMismatch, locked)
		}
		if out == nil || len(out.Results) != 0 {
			t.Errorf("%s of a republished lib: results %v, want none", req.name, results(out))
		}
	}
	data, _ := os.ReadFile(filepath.Join(w.root(false, "codex"), "lib", "SKILL.md"))
	if strings.Contains(string(data), "Republished") || w.lock().Skills["lib"].Integrity != locked {
		t.Errorf("a refused install changed lib or its lock entry")
	}
}

func TestInstallValidationProblems(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	w.publish(pkgSpec{name: "broken", version: "1.0.0", body: "# broken 1.0.0\n\nSee [the notes](../../notes.md).\n"})
	out, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"broken"}})
	if codeOf(err) != askerr.CodeValidationFailed {
		t.Fatalf("Install(broken) = %v, want %s", err, askerr.CodeValidationFailed)
	}
	if len(out.Problems) != 1 || out.Problems[0].Package != "broken@1.0.0" || len(out.Problems[0].Diagnostics) == 0 {
		t.Fatalf("Install(broken).Problems = %+v, want the diagnostics of broken@1.0.0", out.Problems)
	}
	for _, d := range out.Problems[0].Diagnostics {
		if d.Code != "ASK_LINK_OUTSIDE_PACKAGE" {
			t.Errorf("Install(broken) problem %s, want only ASK_LINK_OUTSIDE_PACKAGE errors", d)
		}
	}
	if exists(filepath.Join(w.proj, "skills.lock")) || exists(filepath.Join(w.root(false, "claude-code"), "broken")) {
		t.Errorf("Install(broken) wrote skills.lock or the package")
	}
}

func TestInstallGlobal(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	s := w.open(true, nil)
	out, err := s.Install(t.Context(), InstallRequest{Args: []string{"app"}})
	if err != nil {
		t.Fatalf("Install(app, global) = %v", err)
	}
	if out.Scope != "global" || out.Project != "" || len(out.Results) != 4 {
		t.Errorf("Install(app, global) = scope %q project %q results %v", out.Scope, out.Project, results(out))
	}
	for _, id := range bothAgents {
		if got := w.installedVersion(true, id, "lib"); got != "1.1.0" {
			t.Errorf("global lib for %s = %q, want 1.1.0", id, got)
		}
	}
	if exists(filepath.Join(w.proj, "skills.lock")) || exists(JournalPath(w.machine(), s.Scope)) {
		t.Errorf("Install(app, global) wrote a project lock or a journal")
	}
	// A second install resolves with what the receipts record pinned:
	// lib stays at 1.0.0 although 1.1.0 satisfies app.
	w.publish(pkgSpec{name: "lib", version: "1.2.0"})
	out, err = w.open(true, nil).Install(t.Context(), InstallRequest{Args: []string{"tool"}})
	if err != nil || !hasLine(plan(out), "lib@1.1.0") || !slices.Equal(results(out), []string{"installed tool 1.0.0 [codex]", "installed tool 1.0.0 [claude-code]"}) {
		t.Errorf("Install(tool, global) = %v %v, %v; want a plan keeping lib@1.1.0 and tool installed", plan(out), results(out), err)
	}
}

func TestInstallFaults(t *testing.T) {
	t.Parallel()
	for _, point := range []string{PointJournalWritten, install.PointStaged, install.PointBeforeSwap, install.PointAfterSwap, install.PointBeforeReceipt, install.PointAfterReceipt} {
		// With left, the run also fails after writing skills.lock, as a
		// kill there would: the journal stays for the next command.
		for _, left := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/journal-left=%v", point, left), func(t *testing.T) {
				t.Parallel()
				w := appWorld(t)
				if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"lib@1.0.0"}}); err != nil {
					t.Fatal(err)
				}
				before := w.lockedVersions()
				points := []string{point}
				if left {
					points = append(points, PointLockWritten)
				}
				s := w.open(false, failAt(errInjected, points...))
				_, err := s.Install(t.Context(), InstallRequest{Args: []string{"app"}})
				if !errors.Is(err, errInjected) {
					t.Fatalf("Install(app) failing at %v = %v, want the injected fault", points, err)
				}
				// Every root is as it was, and so is the lock.
				if got := w.lockedVersions(); got != before {
					t.Errorf("skills.lock after a fault at %v = %q, want %q", points, got, before)
				}
				if w.installedVersion(false, "codex", "app") != "" || w.installedVersion(false, "claude-code", "lib") != "1.0.0" {
					t.Errorf("a fault at %v left app installed or lib moved", points)
				}
				if exists(JournalPath(w.machine(), s.Scope)) != left {
					t.Errorf("after a fault at %v the run journal is there = %v, want %v", points, !left, left)
				}
				pending, err := PendingRun(t.Context(), w.machine(), s.Scope, s.Env)
				switch {
				case err != nil:
					t.Errorf("PendingRun after a fault at %v = %v", points, err)
				case !left && pending != nil:
					t.Errorf("PendingRun after a fault at %v = %+v, want nothing: the run settled its journal", points, pending)
				case left && (pending == nil || pending.Command != "agent-skills install app" || pending.Changed || !slices.Equal(pending.Partial, []string{"app"})):
					t.Errorf("PendingRun after a fault at %v = %+v, want install app, unchanged, app partial", points, pending)
				}
				out, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"app"}})
				if err != nil {
					t.Fatalf("Install(app) after a fault = %v", err)
				}
				if finishing := hasLine(notices(out), `note: finishing the interrupted "agent-skills install app"`); finishing != left || len(out.Notices) != map[bool]int{false: 0, true: 1}[left] {
					t.Errorf("Install(app) after a fault at %v: notices %v, want the interrupted run finished = %v", points, notices(out), left)
				}
				if got, want := w.lockedVersions(), "app@1.0.0[claude-code codex] lib@1.0.0[claude-code codex]"; got != want {
					t.Errorf("skills.lock after Install(app) = %q, want %q", got, want)
				}
				if exists(JournalPath(w.machine(), s.Scope)) {
					t.Errorf("Install(app) after a fault left the run journal")
				}
			})
		}
	}
}

// failAt returns a fault hook that returns err at the points named.
func failAt(err error, points ...string) func(string) error {
	return func(p string) error {
		if slices.Contains(points, p) {
			return err
		}
		return nil
	}
}

// roleOf is the role the session's receipts give name for agent id.
func roleOf(w *world, s *Session, name, id string) resolve.Role {
	for _, in := range w.scan(s) {
		if in.Name == name && slices.Contains(in.Readers, id) {
			return in.Role
		}
	}
	return ""
}
