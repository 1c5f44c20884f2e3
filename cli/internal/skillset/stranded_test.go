package skillset

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/resolve"
)

// warnings are an outcome's warnings.
func warnings(o *Outcome) []string {
	var out []string
	for _, n := range notices(o) {
		if strings.HasPrefix(n, "warning: ") {
			out = append(out, n)
		}
	}
	return out
}

// The registry case: a skill installed from a registry that the
// configuration no longer names (here: renamed) stays at its installed
// version while other skills are installed, updated and removed, with one
// warning per run.
func TestStrandedRegistryRenamed(t *testing.T) {
	t.Parallel()
	for _, global := range []bool{false, true} {
		t.Run(fmt.Sprintf("global=%v", global), func(t *testing.T) {
			t.Parallel()
			w := appWorld(t)
			if _, err := w.open(global, nil).Install(t.Context(), InstallRequest{Args: []string{"lib@1.0.0"}}); err != nil {
				t.Fatal(err)
			}
			// The lock does not record where team is (a lock written before
			// lockfileVersion 2): with team gone from the configuration,
			// nothing says where lib's registry is.
			if !global {
				w.recordRegistries(nil)
			}
			before := w.lockedVersions()
			w.configure("company=" + w.reg)
			const warned = `warning: registry "team" is not configured: lib 1.0.0 stays at its installed version (agent-skills registry add team <url> lets update move it)`

			// Another skill installs; lib is neither fetched nor moved.
			out, err := w.open(global, nil).Install(t.Context(), InstallRequest{Args: []string{"tool"}})
			if err != nil {
				t.Fatalf("Install(tool) with lib's registry gone = %v", err)
			}
			if got, want := results(out), []string{"installed tool 1.0.0 [codex]", "installed tool 1.0.0 [claude-code]"}; !slices.Equal(got, want) {
				t.Errorf("Install(tool).Results = %v, want %v", got, want)
			}
			if got := warnings(out); !slices.Equal(got, []string{warned}) {
				t.Errorf("Install(tool) warnings = %q, want exactly %q", got, warned)
			}
			if !global {
				if got := w.lock().Skills["lib"]; got.Registry != "team" || got.Version != "1.0.0" {
					t.Errorf("skills.lock lib = %+v, want 1.0.0 from team still", got)
				}
			}
			if got := w.installedVersion(global, "codex", "lib"); got != "1.0.0" {
				t.Errorf("lib for codex = %q, want 1.0.0", got)
			}

			// Naming it: nothing to do, the same warning, no error.
			out, err = w.open(global, nil).Install(t.Context(), InstallRequest{Args: []string{"lib"}})
			if err != nil || len(out.Results) != 0 || !slices.Equal(warnings(out), []string{warned}) {
				t.Errorf("Install(lib) = %v %v %q, want no results and the warning", err, results(out), warnings(out))
			}

			// update skips it, with all names and with its name.
			for _, names := range [][]string{nil, {"lib"}} {
				out, err = w.open(global, nil).Update(t.Context(), UpdateRequest{Names: names})
				if err != nil || len(out.Results) != 0 || !slices.Equal(warnings(out), []string{warned}) {
					t.Errorf("Update(%v) = %v %v %q, want lib skipped with the warning", names, err, results(out), warnings(out))
				}
			}

			// Removing the other skill does not need any registry.
			if _, err := w.open(global, nil).Uninstall(t.Context(), UninstallRequest{Names: []string{"tool"}}); err != nil {
				t.Errorf("Uninstall(tool) = %v", err)
			}
			if !global && w.lockedVersions() != before {
				t.Errorf("skills.lock = %s, want %s", w.lockedVersions(), before)
			}

			// Added back under its old name, update moves it again.
			w.configure("team=" + w.reg)
			out, err = w.open(global, nil).Update(t.Context(), UpdateRequest{Names: []string{"lib"}})
			if err != nil || !hasLine(results(out), "upgraded lib 1.1.0") || len(warnings(out)) != 0 {
				t.Errorf("Update(lib) with team back = %v %v %q, want an upgrade to 1.1.0", err, results(out), warnings(out))
			}
		})
	}
}

// A new skill that depends on a stranded one is resolved against its
// installed version: it fits, or the conflict says why only that version
// was seen.
func TestStrandedDependency(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	w.publish(pkgSpec{name: "newer", version: "1.0.0", deps: map[string]string{"lib": "^1.1.0"}})
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"lib@1.0.0"}}); err != nil {
		t.Fatal(err)
	}
	w.recordRegistries(nil) // as a lock of version 1, which does not say where team is
	w.configure("company=" + w.reg)
	out, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"app"}})
	if err != nil {
		t.Fatalf("Install(app) = %v", err)
	}
	// (The plan resolves every installed skill as a request.)
	if got, want := plan(out), []string{"app@1.0.0 requested", "lib@1.0.0 requested"}; !slices.Equal(got, want) {
		t.Errorf("Install(app).Plan = %v, want %v", got, want)
	}
	if got := w.lock().Skills["app"]; got.Registry != "company" || got.Dependencies["lib"] != "1.0.0" {
		t.Errorf("skills.lock app = %+v, want from company, requiring lib 1.0.0", got)
	}
	if got := w.lock().Skills["lib"]; got.Registry != "team" || got.Version != "1.0.0" {
		t.Errorf("skills.lock lib = %+v, want 1.0.0 from team", got)
	}

	_, err = w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"newer"}})
	want := `Held at their installed versions, since their registries cannot answer for them: lib 1.0.0 (registry "team" is not configured)`
	if !askerr.Is(err, resolve.CodeDependencyConflict) && !askerr.Is(err, resolve.CodeVersionNotFound) || !slices.Contains(askerr.DetailOf(err), want) {
		t.Errorf("Install(newer) = %v %q, want a resolution failure with %q", err, askerr.DetailOf(err), want)
	}
}

// A registry that is configured but cannot be read strands its skills
// as a removed one does; one whose index no longer lists the installed
// version keeps it too, and update moves it to one the index lists.
func TestStrandedUnreachableAndUnlisted(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"lib@1.0.0"}}); err != nil {
		t.Fatal(err)
	}
	// team moves away: the configuration and the lock both say where it
	// went (a lock naming it elsewhere than the configuration is refused,
	// see TestLockRegistryMismatch).
	w.configure("company="+w.reg, "team="+filepath.Join(w.base, "gone"))
	w.recordRegistries(map[string]string{"team": filepath.Join(w.base, "gone"), "company": w.reg})
	out, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"tool"}})
	if err != nil || len(warnings(out)) != 1 || !strings.HasPrefix(warnings(out)[0], `warning: registry "team" cannot be reached (`) ||
		!strings.HasSuffix(warnings(out)[0], "lib 1.0.0 stays at its installed version (update moves it once team can be reached)") {
		t.Errorf("Install(tool) with team unreachable = %v %q, want one warning that lib stays", err, warnings(out))
	}

	w.configure("team="+w.reg, "company="+w.reg)
	w.recordRegistries(map[string]string{"team": w.reg, "company": w.reg})
	w.published["lib"] = slices.DeleteFunc(w.published["lib"], func(p pkgSpec) bool { return p.version == "1.0.0" })
	w.writeIndex()
	out, err = w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"extra"}})
	if want := `warning: registry "team" no longer lists lib 1.0.0: lib 1.0.0 stays at its installed version (agent-skills update lib moves it to a version team lists)`; err != nil || !slices.Equal(warnings(out), []string{want}) {
		t.Errorf("Install(extra) with lib 1.0.0 unlisted = %v %q, want %q", err, warnings(out), want)
	}
	out, err = w.open(false, nil).Update(t.Context(), UpdateRequest{Names: []string{"lib"}})
	if err != nil || !hasLine(results(out), "upgraded lib 1.1.0") {
		t.Errorf("Update(lib) = %v %v, want an upgrade to 1.1.0", err, results(out))
	}

	// A skill its registry dropped altogether stays too.
	w.published["extra"] = nil
	delete(w.published, "extra")
	w.writeIndex()
	out, err = w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"app"}})
	if want := `warning: registry "team" no longer lists extra: extra 1.0.0 stays at its installed version (install it from another registry or source with --force to replace it)`; err != nil || !slices.Equal(warnings(out), []string{want}) {
		t.Errorf("Install(app) with extra unlisted = %v %q, want %q", err, warnings(out), want)
	}
}

// What a stranded skill requires comes from its installed skill.yaml;
// without an installed copy, from the versions skills.lock recorded.
func TestStrandedRequirements(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"app"}}); err != nil {
		t.Fatal(err)
	}
	w.recordRegistries(nil) // as a lock of version 1, which does not say where team is
	w.configure("company=" + w.reg)
	requires := func() string {
		s := w.open(false, nil)
		p := s.begin(t.Context(), "install", nil, nil, false, nil)
		kept, err := p.strandedSkills()
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, n := range []string{"app", "lib"} {
			if k, ok := kept[n]; ok {
				out = append(out, fmt.Sprintf("%s@%s %v", n, k.Version, k.requires.Dependencies))
			}
		}
		return strings.Join(out, "; ")
	}
	if got, want := requires(), "app@1.0.0 [{lib ^1.0.0}]; lib@1.1.0 []"; got != want {
		t.Errorf("stranded requirements = %q, want %q (the installed skill.yaml)", got, want)
	}
	// A copy the user edited is not what was published.
	for _, id := range bothAgents {
		p := filepath.Join(w.root(false, id), "app", "skill.yaml")
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, p, strings.Replace(string(data), "^1.0.0", "^1.1.0", 1))
	}
	if got, want := requires(), "app@1.0.0 [{lib =1.1.0}]; lib@1.1.0 []"; got != want {
		t.Errorf("stranded requirements with edited copies = %q, want %q (the lock's versions)", got, want)
	}
	for _, d := range []string{".claude", ".agents"} {
		os.RemoveAll(filepath.Join(w.proj, d))
	}
	if got, want := requires(), "app@1.0.0 [{lib =1.1.0}]; lib@1.1.0 []"; got != want {
		t.Errorf("stranded requirements on a fresh clone = %q, want %q (the lock's versions)", got, want)
	}
}

// A restore installs what is not in place; a locked skill in place whose
// registry is gone stays with a warning, and one that is not in place
// stops the restore before anything is fetched, naming every registry.
func TestRestoreStranded(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"lib", "tool"}}); err != nil {
		t.Fatal(err)
	}
	// tool's copies go; lib's registry is renamed; the lock keeps "team".
	for _, id := range bothAgents {
		os.RemoveAll(filepath.Join(w.root(false, id), "tool"))
		os.Remove(filepath.Join(w.root(false, id), ".agent-skills", "receipts", "tool.json"))
	}
	// The lock does not say where team is (as a lock of version 1).
	l := w.lock()
	e := l.Skills["tool"]
	e.Registry = "company"
	l.Skills["tool"] = e
	l.Registries = nil
	writeFile(t, filepath.Join(w.proj, "skills.lock"), string(l.Encode()))
	w.configure("company=" + w.reg)
	out, err := w.open(false, nil).Restore(t.Context(), RestoreRequest{})
	if err != nil {
		t.Fatalf("Restore() = %v", err)
	}
	if got, want := results(out), []string{"installed tool 1.0.0 [codex]", "installed tool 1.0.0 [claude-code]"}; !slices.Equal(got, want) {
		t.Errorf("Restore().Results = %v, want %v", got, want)
	}
	if want := `warning: registry "team" is not configured: lib 1.1.0 stays at its installed version (agent-skills registry add team <url> lets update move it)`; !slices.Equal(warnings(out), []string{want}) {
		t.Errorf("Restore() warnings = %q, want %q", warnings(out), want)
	}

	// A fresh clone: nothing is in place, and nothing is installed.
	for _, d := range []string{".claude", ".agents"} {
		os.RemoveAll(filepath.Join(w.proj, d))
	}
	l = w.lock()
	e = l.Skills["tool"]
	e.Registry = "other"
	l.Skills["tool"] = e
	l.Registries = nil
	writeFile(t, filepath.Join(w.proj, "skills.lock"), string(l.Encode()))
	_, err = w.open(false, nil).Restore(t.Context(), RestoreRequest{})
	wantDetail := []string{
		`tool 1.0.0 comes from registry "other", fetched from ` + w.reg + ":pkgs/tool/1.0.0",
		`lib 1.1.0 comes from registry "team", fetched from ` + w.reg + ":pkgs/lib/1.1.0",
		"Nothing was installed.",
	}
	if codeOf(err) != registry.CodeRegistryUnknown || err.Error() != `skills.lock needs registries that are not configured: "other", "team"` ||
		!slices.Equal(askerr.DetailOf(err), wantDetail) ||
		!slices.Equal(askerr.TryOf(err)[:2], []string{"agent-skills registry add other <url>", "agent-skills registry add team <url>"}) {
		t.Errorf("Restore() on a fresh clone = %v\n%q\n%q", err, askerr.DetailOf(err), askerr.TryOf(err))
	}
	if exists(filepath.Join(w.proj, ".claude")) || exists(filepath.Join(w.proj, ".agents")) {
		t.Error("Restore() refused, but wrote agent folders")
	}
}
