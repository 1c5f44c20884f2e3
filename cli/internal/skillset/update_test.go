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

func TestUpdateVersions(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"app", "lib@1.0.0"}}); err != nil {
		t.Fatal(err)
	}
	w.publish(pkgSpec{name: "lib", version: "2.0.0"}, pkgSpec{name: "lib", version: "2.1.0-rc.1"})
	steps := []struct {
		name   string
		req    UpdateRequest
		lock   string
		result []string
	}{
		{"within ^installed", UpdateRequest{Names: []string{"lib"}},
			"app@1.0.0[claude-code codex] lib@1.1.0[claude-code codex]",
			[]string{"upgraded lib 1.1.0 [codex]", "upgraded lib 1.1.0 [claude-code]"}},
		{"nothing newer within ^installed", UpdateRequest{},
			"app@1.0.0[claude-code codex] lib@1.1.0[claude-code codex]", nil},
		// app requires lib ^1.0.0: --major does not break it.
		{"a major app does not allow", UpdateRequest{Names: []string{"lib"}, Major: true},
			"app@1.0.0[claude-code codex] lib@1.1.0[claude-code codex]", nil},
	}
	for _, st := range steps {
		out, err := w.open(false, nil).Update(t.Context(), st.req)
		if err != nil {
			t.Fatalf("Update(%s) = %v", st.name, err)
		}
		if got := results(out); !slices.Equal(got, st.result) {
			t.Errorf("Update(%s).Results = %v, want %v", st.name, got, st.result)
		}
		if st.result == nil && !slices.Contains(notices(out), "info: everything is up to date") {
			t.Errorf("Update(%s).Notices = %v, want everything up to date", st.name, notices(out))
		}
		if got := w.lockedVersions(); got != st.lock {
			t.Errorf("skills.lock after Update(%s) = %q, want %q", st.name, got, st.lock)
		}
	}
	// Without app, --major moves lib to 2.0.0, never to a prerelease.
	if _, err := w.open(false, nil).Uninstall(t.Context(), UninstallRequest{Names: []string{"app"}}); err != nil {
		t.Fatal(err)
	}
	out, err := w.open(false, nil).Update(t.Context(), UpdateRequest{Major: true})
	if err != nil || !slices.Equal(results(out), []string{"upgraded lib 2.0.0 [codex]", "upgraded lib 2.0.0 [claude-code]"}) {
		t.Errorf("Update(major) = %v, %v; want lib upgraded to 2.0.0", results(out), err)
	}
	if got, want := w.lockedVersions(), "lib@2.0.0[claude-code codex]"; got != want {
		t.Errorf("skills.lock after Update(major) = %q, want %q", got, want)
	}
}

func TestUpdateMovesTogether(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"app", "lib@1.0.0"}}); err != nil {
		t.Fatal(err)
	}
	// app 1.1.0 needs lib ^1.1.0: both move, and lib stays a skill the
	// user asked for.
	w.publish(pkgSpec{name: "app", version: "1.1.0", deps: map[string]string{"lib": "^1.1.0"}})
	s := w.open(false, nil)
	out, err := s.Update(t.Context(), UpdateRequest{})
	if err != nil {
		t.Fatalf("Update() = %v", err)
	}
	want := []string{"upgraded app 1.1.0 [codex]", "upgraded app 1.1.0 [claude-code]", "upgraded lib 1.1.0 [codex]", "upgraded lib 1.1.0 [claude-code]"}
	if got := results(out); !slices.Equal(got, want) {
		t.Errorf("Update().Results = %v, want %v", got, want)
	}
	if got := w.lock().Skills["app"].Dependencies["lib"]; got != "1.1.0" {
		t.Errorf("skills.lock app → lib = %q, want 1.1.0", got)
	}
	if got := roleOf(w, s, "lib", "codex"); got != "requested" {
		t.Errorf("lib moved with app has role %q, want requested (kept)", got)
	}
}

func TestUpdatePrunesOrphans(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	w.publish(pkgSpec{name: "helper", version: "1.0.0"},
		pkgSpec{name: "app", version: "1.0.0", deps: map[string]string{"lib": "^1.0.0", "helper": "^1.0.0"}})
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"app@1.0.0"}}); err != nil {
		t.Fatal(err)
	}
	w.publish(pkgSpec{name: "app", version: "1.1.0", deps: map[string]string{"lib": "^1.0.0"}})
	before := w.lockedVersions()

	out, err := w.open(false, nil).Update(t.Context(), UpdateRequest{DryRun: true})
	if err != nil {
		t.Fatalf("Update(dry run) = %v", err)
	}
	want := []string{"upgraded app 1.1.0 [codex]", "upgraded app 1.1.0 [claude-code]", "removed helper 1.0.0 [codex]", "removed helper 1.0.0 [claude-code]"}
	if got := results(out); !slices.Equal(got, want) {
		t.Errorf("Update(dry run).Results = %v, want %v", got, want)
	}
	if !slices.Contains(notices(out), "info: helper was installed as a dependency and nothing requires it any more: it would be removed too") {
		t.Errorf("Update(dry run).Notices = %v, want helper to be pruned", notices(out))
	}
	if got := w.lockedVersions(); got != before || w.installedVersion(false, "codex", "helper") != "1.0.0" {
		t.Errorf("Update(dry run) wrote: lock %q, want %q", got, before)
	}

	out, err = w.open(false, nil).Update(t.Context(), UpdateRequest{})
	if err != nil {
		t.Fatalf("Update() = %v", err)
	}
	if got := results(out); !slices.Equal(got, want) {
		t.Errorf("Update().Results = %v, want %v", got, want)
	}
	if !slices.Contains(notices(out), "info: helper was installed as a dependency and nothing requires it any more: removing it too") {
		t.Errorf("Update().Notices = %v, want helper to be pruned", notices(out))
	}
	if got, want := w.lockedVersions(), "app@1.1.0[claude-code codex] lib@1.1.0[claude-code codex]"; got != want {
		t.Errorf("skills.lock after Update() = %q, want %q", got, want)
	}
	for _, id := range bothAgents {
		if exists(filepath.Join(w.root(false, id), "helper")) {
			t.Errorf("Update() left helper in the %s root", id)
		}
	}
}

func TestUpdatePrunesLeftoverOrphans(t *testing.T) {
	t.Parallel()
	// With nothing to move, update still removes a dependency that
	// nothing requires: here the lock says app no longer needs lib, as an
	// interrupted run may leave it.
	for _, dryRun := range []bool{true, false} {
		w := appWorld(t)
		if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"app"}}); err != nil {
			t.Fatal(err)
		}
		l := w.lock()
		app := l.Skills["app"]
		app.Dependencies = map[string]string{}
		l.Skills["app"] = app
		writeFile(t, filepath.Join(w.proj, "skills.lock"), string(l.Encode()))
		out, err := w.open(false, nil).Update(t.Context(), UpdateRequest{DryRun: dryRun})
		if err != nil {
			t.Fatalf("Update(dryRun=%v) = %v", dryRun, err)
		}
		want := []string{"removed lib 1.1.0 [codex]", "removed lib 1.1.0 [claude-code]"}
		if got := results(out); !slices.Equal(got, want) || !slices.Contains(notices(out), "info: everything is up to date") {
			t.Errorf("Update(dryRun=%v) = %v %v, want %v and up to date", dryRun, got, notices(out), want)
		}
		if got, want := w.installedVersion(false, "codex", "lib") != "", dryRun; got != want {
			t.Errorf("Update(dryRun=%v): lib still installed = %v, want %v", dryRun, got, want)
		}
	}
}

func TestUpdateKeepLocal(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"app"}}); err != nil {
		t.Fatal(err)
	}
	notes := filepath.Join(w.root(false, "claude-code"), "app", "references", "notes.md")
	writeFile(t, notes, "my own notes\n")
	w.publish(pkgSpec{name: "app", version: "1.1.0", deps: map[string]string{"lib": "^1.0.0"}, files: map[string]string{"references/notes.md": "app notes 1.1\n"}})

	// Without --keep-local the edited install is refused.
	out, err := w.open(false, nil).Update(t.Context(), UpdateRequest{Names: []string{"app"}})
	if codeOf(err) != "ASK_MODIFIED_INSTALL" || !hasLine(results(out), "refused app") {
		t.Errorf("Update(app) over an edit = %v, %v; want ASK_MODIFIED_INSTALL and a refusal", results(out), err)
	}
	if got, want := w.lockedVersions(), "app@1.0.0[claude-code codex] lib@1.1.0[claude-code codex]"; got != want {
		t.Errorf("skills.lock after a refused update = %q, want %q", got, want)
	}

	out, err = w.open(false, nil).Update(t.Context(), UpdateRequest{Names: []string{"app"}, KeepLocal: true})
	if err != nil {
		t.Fatalf("Update(app, keep local) = %v", err)
	}
	if !slices.Contains(notices(out), "info: app: keeping your version of references/notes.md") {
		t.Errorf("Update(app, keep local).Notices = %v, want the kept file named", notices(out))
	}
	if data, _ := os.ReadFile(notes); string(data) != "my own notes\n" {
		t.Errorf("notes.md after Update(keep local) = %q, want the user's edit", data)
	}
	if got := w.installedVersion(false, "claude-code", "app"); got != "1.1.0" {
		t.Errorf("app after Update(keep local) = %q, want 1.1.0", got)
	}
	if got := w.lock().Skills["app"].Version; got != "1.1.0" {
		t.Errorf("skills.lock app after Update(keep local) = %q, want 1.1.0", got)
	}
}

func TestUpdateRefusesBadRequests(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	out, err := w.open(false, nil).Update(t.Context(), UpdateRequest{})
	if err != nil || len(out.Results) != 0 || !slices.Contains(notices(out), "info: nothing to update: no skills installed in project scope") {
		t.Errorf("Update() with nothing installed = %v, %v; want the notice only", notices(out), err)
	}
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"lib"}}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		req  UpdateRequest
		code string
		want string
	}{
		{"suggests without names", UpdateRequest{WithSuggests: true}, askerr.CodeUsage, "--with-suggests needs skill names"},
		{"keep local and force", UpdateRequest{KeepLocal: true, Force: true}, askerr.CodeUsage, "contradict"},
		{"not installed", UpdateRequest{Names: []string{"app"}}, install.CodeNotInstalled, "app is not installed in project scope"},
		{"bad name", UpdateRequest{Names: []string{"Lib!"}}, "ASK_REFERENCE_INVALID", ""},
	}
	for _, tt := range tests {
		_, err := w.open(false, nil).Update(t.Context(), tt.req)
		if codeOf(err) != tt.code || !strings.Contains(errText(err), tt.want) {
			t.Errorf("Update(%s) = %v, want %s saying %q", tt.name, err, tt.code, tt.want)
		}
	}
}

func TestUpdateGlobal(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	if _, err := w.open(true, nil).Install(t.Context(), InstallRequest{Args: []string{"lib@1.0.0"}}); err != nil {
		t.Fatal(err)
	}
	out, err := w.open(true, nil).Update(t.Context(), UpdateRequest{})
	if err != nil || !slices.Equal(results(out), []string{"upgraded lib 1.1.0 [codex]", "upgraded lib 1.1.0 [claude-code]"}) {
		t.Errorf("Update(global) = %v, %v; want lib upgraded from its receipts", results(out), err)
	}
	if got := w.installedVersion(true, "claude-code", "lib"); got != "1.1.0" {
		t.Errorf("global lib after Update = %q, want 1.1.0", got)
	}
}

// TestUpdateKeepsRoles: update moves versions; it does not change why a
// skill is installed. A dependency it moves stays a dependency, so that
// uninstalling what required it still removes it.
func TestUpdateKeepsRoles(t *testing.T) {
	t.Parallel()
	for _, names := range [][]string{nil, {"lib"}} {
		w := appWorld(t)
		if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"app"}}); err != nil {
			t.Fatal(err)
		}
		w.publish(pkgSpec{name: "lib", version: "1.2.0"})
		s := w.open(false, nil)
		out, err := s.Update(t.Context(), UpdateRequest{Names: names})
		if err != nil || !slices.Equal(results(out), []string{"upgraded lib 1.2.0 [codex]", "upgraded lib 1.2.0 [claude-code]"}) {
			t.Fatalf("Update(%q) = %v, %v; want lib upgraded", names, results(out), err)
		}
		for _, id := range bothAgents {
			if got := roleOf(w, s, "lib", id); got != "dependency" {
				t.Errorf("Update(%q): lib for %s has role %q, want dependency", names, id, got)
			}
		}
		out, err = w.open(false, nil).Uninstall(t.Context(), UninstallRequest{Names: []string{"app"}})
		if err != nil || !hasLine(results(out), "removed lib 1.2.0") {
			t.Errorf("Uninstall(app) after Update(%q) = %v, %v; want lib removed with app", names, results(out), err)
		}
	}
}
