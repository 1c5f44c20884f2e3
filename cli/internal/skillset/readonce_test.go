package skillset

import (
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/source"
)

// readOnceCollection writes a collection of skills under dir: packages
// with skill.yaml and bare skills, with references, scripts, a nested
// example skill and a skill linking to its sibling, as a source offers
// them.
func readOnceCollection(t *testing.T, dir string) {
	t.Helper()
	for i := range 6 {
		name := fmt.Sprintf("once-%d", i)
		files := map[string]string{"references/guide.md": "guide " + name + "\n"}
		if i%2 == 0 {
			files["scripts/check.sh"] = "#!/bin/sh\necho " + name + "\n"
		}
		writePackage(t, filepath.Join(dir, "skills", name), pkgSpec{name: name, version: "1.0.0", files: files})
	}
	for i := range 4 {
		name := fmt.Sprintf("bare-%d", i)
		d := filepath.Join(dir, "skills", name)
		body := "# " + name + "\n\nUse the guide.\n"
		if i == 1 {
			body += "\nSee [zero](../bare-0/SKILL.md).\n"
		}
		writeFile(t, filepath.Join(d, "SKILL.md"), "---\nname: "+name+"\ndescription: Bare skill "+name+". Use when testing.\n---\n\n"+body)
		writeFile(t, filepath.Join(d, "references", "notes.md"), "notes "+name+"\n")
		if i == 2 {
			writeFile(t, filepath.Join(d, "examples", "inner", "SKILL.md"), "---\nname: inner\ndescription: An example. Use never.\n---\n\n# inner\n")
		}
	}
}

// countOpens counts, through source.SetReadHook, the opens of each file
// and folder under root until the returned function is called.
func countOpens(root string) (opens map[string]int, stop func()) {
	var mu sync.Mutex
	opens = map[string]int{}
	restore := source.SetReadHook(func(op, name string) {
		if rel, err := filepath.Rel(root, name); err == nil && !strings.HasPrefix(rel, "..") {
			mu.Lock()
			opens[filepath.ToSlash(rel)]++
			mu.Unlock()
		}
	})
	return opens, restore
}

// checkOpenedOnce fails unless every file of the tree at root (.git
// aside) was opened exactly once, and no folder more than once.
func checkOpenedOnce(t *testing.T, root string, opens map[string]int) {
	t.Helper()
	files := 0
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if n := opens[rel]; n > 1 {
				t.Errorf("folder %s of the source was listed %d times, want once", rel, n)
			}
			return nil
		}
		files++
		if n := opens[rel]; n != 1 {
			t.Errorf("file %s of the source was opened %d times, want once", rel, n)
		}
		return nil
	})
	for _, rel := range slices.Sorted(maps.Keys(opens)) {
		if _, err := os.Lstat(filepath.Join(root, rel)); err != nil {
			t.Errorf("opened %s, which the source does not hold", rel)
		}
	}
	if files < 20 {
		t.Fatalf("the collection has %d files; the test means nothing", files)
	}
}

// TestSourceOpenedOncePerInstall: installing every skill of a folder into
// two agents opens each file of the source once and lists each folder at
// most once — discovery, validation, digests, the install into both
// agents and the receipts all use what was read (issue 15). Not parallel:
// the hook is process-wide.
func TestSourceOpenedOncePerInstall(t *testing.T) {
	w := appWorld(t)
	src := filepath.Join(w.base, "src", "coll")
	readOnceCollection(t, src)
	opens, stop := countOpens(src)
	out, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{src}, Skills: []string{"*"}})
	stop()
	if err != nil {
		t.Fatalf("Install(%s, *) = %v", src, err)
	}
	if len(out.Results) != 2*10 {
		t.Fatalf("Install(%s, *) = %d results, want 10 skills × 2 agents", src, len(out.Results))
	}
	checkOpenedOnce(t, src, opens)
	for _, id := range bothAgents {
		if v := w.installedVersion(false, id, "bare-2"); v == "" {
			t.Errorf("bare-2 is not installed for %s", id)
		}
	}
}

// The same for a git source: its checkout is read as a folder is.
func TestGitSourceOpenedOncePerInstall(t *testing.T) {
	w := appWorld(t)
	g := newGitRepo(t, w)
	readOnceCollection(t, g.work)
	g.git(g.work, "add", "-A")
	g.git(g.work, "commit", "-q", "-m", "collection")
	g.git(g.work, "push", "-q", g.bare, "HEAD:refs/heads/main")
	checkouts := filepath.Join(w.env["AGENT_SKILLS_HOME"], "cache", "sources")
	var mu sync.Mutex
	opens := map[string]int{}
	defer source.SetReadHook(func(op, name string) {
		if rel, err := filepath.Rel(checkouts, name); err == nil && !strings.HasPrefix(rel, "..") {
			// <kind>-<random>/<path in the checkout>
			if _, inside, ok := strings.Cut(filepath.ToSlash(rel), "/"); ok {
				mu.Lock()
				opens[inside]++
				mu.Unlock()
			}
		}
	})()
	out, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"acme/skills"}, Skills: []string{"*"}})
	if err != nil {
		t.Fatalf("Install(acme/skills, *) = %v", err)
	}
	if len(out.Results) != 2*10 {
		t.Fatalf("Install(acme/skills, *) = %d results, want 10 skills × 2 agents", len(out.Results))
	}
	mu.Lock()
	defer mu.Unlock()
	checkOpenedOnce(t, g.work, opens)
}

// A restore of the lock (a fresh clone: no agent folder yet) reads each
// skill through a tree of its own, and still opens each file of the
// source once and lists each folder once; the folder holding the skills
// is listed once, for the one skill that links to a sibling, not for
// each skill (a Stat of a skill's folder does not list the folders
// beside it).
func TestSourceOpenedOncePerRestore(t *testing.T) {
	w := appWorld(t)
	src := filepath.Join(w.base, "src", "coll")
	readOnceCollection(t, src)
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{src}, Skills: []string{"*"}}); err != nil {
		t.Fatalf("Install(%s, *) = %v", src, err)
	}
	for _, id := range bothAgents {
		if err := os.RemoveAll(w.root(false, id)); err != nil {
			t.Fatal(err)
		}
	}
	opens, stop := countOpens(src)
	out, err := w.open(false, nil).Restore(t.Context(), RestoreRequest{})
	stop()
	if err != nil {
		t.Fatalf("Restore() = %v", err)
	}
	if len(out.Results) != 2*10 {
		t.Fatalf("Restore() = %d results, want 10 skills × 2 agents", len(out.Results))
	}
	checkOpenedOnce(t, src, opens)
	if n := opens["skills"]; n != 1 {
		t.Errorf("the restore listed skills/ %d times, want once (for bare-1's link to its sibling)", n)
	}
}
