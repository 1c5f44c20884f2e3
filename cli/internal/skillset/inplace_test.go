package skillset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/registry"
)

// A folder source is read in place (issue 15, item 3): a file of it that
// changes after the skill was verified, before the install writes it,
// never gets installed. Either the install writes the bytes verified (a
// file the layout renders from the loaded package, SKILL.md here) or it
// fails with ASK_INTEGRITY_MISMATCH and changes nothing (a file copied
// from the source).
func TestSourceChangedDuringInstall(t *testing.T) {
	t.Parallel()
	for _, file := range []string{"SKILL.md", "references/notes.md"} {
		t.Run(file, func(t *testing.T) {
			t.Parallel()
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
			if file == "SKILL.md" {
				if err != nil || w.installedVersion(false, "codex", "mine") != "1.0.0" {
					t.Errorf("Install(folder whose SKILL.md changed during the install) = %v, want mine 1.0.0 installed as verified", err)
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
		})
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
