package skillset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/source"
	"github.com/agent-skills/agent-skills/registry"
)

// A folder source is read in place (issue 15, item 3): a file of it that
// changes after the skill was verified, before the install writes it,
// never gets installed. Within the budget of verified bytes held in
// memory, the install writes the bytes verified, which it holds, whatever
// file changed (before issue 15's read diet a file copied from the source
// was read again and the install failed; see
// TestSourceChangedDuringInstallPastBudget for that path).
func TestSourceChangedDuringInstall(t *testing.T) {
	t.Parallel()
	for _, file := range []string{"SKILL.md", "references/notes.md"} {
		t.Run(file, func(t *testing.T) {
			t.Parallel()
			changedDuringInstall(t, file, false)
		})
	}
}

// Past the budget of verified bytes held in memory, the install reads a
// file copied from the source again, and one that changed after it was
// verified fails the install with ASK_INTEGRITY_MISMATCH, changing
// nothing; a file the layout renders from the loaded package (SKILL.md)
// is still written as verified. Not parallel: the budget is process-wide.
func TestSourceChangedDuringInstallPastBudget(t *testing.T) {
	defer source.SetPinnedBudget(0)()
	for _, file := range []string{"SKILL.md", "references/notes.md"} {
		t.Run(file, func(t *testing.T) { changedDuringInstall(t, file, true) })
	}
}

// changedDuringInstall installs a folder source whose file changes once
// the run's journal is written, and checks that the changed bytes were
// not installed: the verified ones were, or — past the budget, for a file
// copied from the source — the install failed with ASK_INTEGRITY_MISMATCH.
func changedDuringInstall(t *testing.T, file string, pastBudget bool) {
	w := appWorld(t)
	src := filepath.Join(w.base, "src", "mine")
	writePackage(t, src, pkgSpec{name: "mine", version: "1.0.0", files: map[string]string{"references/notes.md": "notes\n"}})
	changed := false
	fault := func(point string) error {
		if point == PointJournalWritten && !changed {
			changed = true
			writeFile(t, filepath.Join(src, filepath.FromSlash(file)), "changed after it was verified\n")
		}
		return nil
	}
	_, err := w.open(false, fault).Install(t.Context(), InstallRequest{Args: []string{src}})
	if !changed {
		t.Fatalf("Install(%s) never reached %s", src, PointJournalWritten)
	}
	for _, id := range bothAgents {
		dest := filepath.Join(w.root(false, id), "mine")
		filepath.WalkDir(dest, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			if data, _ := os.ReadFile(p); strings.Contains(string(data), "changed after") {
				t.Errorf("the install wrote the bytes changed after verification to %s", p)
			}
			return nil
		})
	}
	if file == "SKILL.md" || !pastBudget {
		if err != nil || w.installedVersion(false, "codex", "mine") != "1.0.0" {
			t.Errorf("Install(folder whose %s changed during the install) = %v, want mine 1.0.0 installed as verified", file, err)
		}
		if got, _ := os.ReadFile(filepath.Join(w.root(false, "codex"), "mine", "references", "notes.md")); string(got) != "notes\n" {
			t.Errorf("installed references/notes.md = %q, want the verified %q", got, "notes\n")
		}
		return
	}
	if codeOf(err) != registry.CodeIntegrityMismatch {
		t.Fatalf("Install(folder whose %s changed during the install) = %v, want %s", file, err, registry.CodeIntegrityMismatch)
	}
	for _, id := range bothAgents {
		if v := w.installedVersion(false, id, "mine"); v != "" {
			t.Errorf("after the refused install, %s has mine %s, want nothing", id, v)
		}
	}
	if _, err := os.Stat(filepath.Join(w.proj, "skills.lock")); err == nil {
		t.Errorf("the refused install wrote skills.lock")
	}
}

// A folder source is installed without a copy of it under the cache: the
// cache's staging folder holds nothing, not even an empty folder, while
// the install runs.
func TestSourceInstalledWithoutCopy(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	src := filepath.Join(w.base, "src", "mine")
	writePackage(t, src, pkgSpec{name: "mine", version: "1.0.0", files: map[string]string{"references/notes.md": "notes\n"}})
	staging := filepath.Join(w.env["AGENT_SKILLS_HOME"], "cache", "staging")
	var copied []string
	fault := func(point string) error {
		if point == PointJournalWritten {
			filepath.WalkDir(staging, func(p string, d os.DirEntry, err error) error {
				if err == nil && p != staging {
					copied = append(copied, p)
				}
				return nil
			})
		}
		return nil
	}
	if _, err := w.open(false, fault).Install(t.Context(), InstallRequest{Args: []string{src}}); err != nil {
		t.Fatalf("Install(%s) = %v", src, err)
	}
	if len(copied) != 0 {
		t.Errorf("while installing %s the cache's staging held %v, want no copy", src, copied)
	}
	if got := w.installedVersion(false, "codex", "mine"); got != "1.0.0" {
		t.Errorf("installed mine = %q, want 1.0.0", got)
	}
}
