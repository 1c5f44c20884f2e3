package install

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/agent-skills/agent-skills/agents"
)

// An install lists each root's receipts folder once and opens a receipt
// only where there is one, once, however many times the run looks it up;
// a Memo then answers the scans that follow from what the run wrote.
func TestReceiptsReadOncePerRun(t *testing.T) {
	w := newWorld(t)
	opts := w.opts(t, agents.ScopeProject)
	v1 := []Item{
		writePkg(t, w.base, pkgSpec{name: "a", version: "1.0.0"}),
		writePkg(t, w.base, pkgSpec{name: "b", version: "1.0.0"}),
		writePkg(t, w.base, pkgSpec{name: "c", version: "1.0.0", kind: "command"}),
	}
	v2 := []Item{
		writePkg(t, w.base, pkgSpec{name: "a", version: "2.0.0"}),
		writePkg(t, w.base, pkgSpec{name: "b", version: "2.0.0"}),
		writePkg(t, w.base, pkgSpec{name: "c", version: "2.0.0", kind: "command"}),
	}
	roots := len(scanRoots(&opts))

	// Nothing installed: no receipts folder, nothing opened.
	m := NewMemo()
	opts.Memo = m
	if _, err := Install(t.Context(), v1, opts); err != nil {
		t.Fatal(err)
	}
	if m.v.opened != 0 || m.v.listed > roots {
		t.Errorf("first install: opened %d receipt files and listed %d folders, want 0 and at most %d (once per root)", m.v.opened, m.v.listed, roots)
	}

	// An upgrade opens each of the 5 receipts (a, b in two roots, c in
	// one) once, though it looks each up twice.
	m = NewMemo()
	opts.Memo = m
	if _, err := Install(t.Context(), v2, opts); err != nil {
		t.Fatal(err)
	}
	if m.v.opened != 5 || m.v.listed > roots {
		t.Errorf("upgrade: opened %d receipt files and listed %d folders, want 5 and at most %d", m.v.opened, m.v.listed, roots)
	}

	// The scans that settle skills.lock read nothing back.
	opened := m.v.opened
	scan := opts
	scan.ReceiptsOnly = true
	list, err := Scan(t.Context(), scan)
	if err != nil {
		t.Fatal(err)
	}
	if m.v.opened != opened || m.v.listed > roots {
		t.Errorf("Scan after the install read %d receipt files, want none, and the Memo listed %d folders, want at most %d", m.v.opened-opened, m.v.listed, roots)
	}
	if got := versions(list); !slices.Equal(got, []string{"a 2.0.0", "a 2.0.0", "b 2.0.0", "b 2.0.0", "c 2.0.0"}) {
		t.Errorf("Scan with the Memo = %v", got)
	}
	// And it tells the truth: what a fresh scan reads from the disk.
	scan.Memo = nil
	fresh, err := Scan(t.Context(), scan)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fresh, list) {
		t.Errorf("Scan from the disk =\n%+v\nwith the Memo\n%+v", fresh, list)
	}
	// What a Scan hands out is its own: changing it changes no later one.
	list[0].Agents[0], list[0].Dependencies = "changed", map[string]string{"x": "1"}
	scan.Memo = m
	again, _ := Scan(t.Context(), scan)
	if !reflect.DeepEqual(fresh, again) {
		t.Errorf("a change to one Scan's results reached the next one:\n%+v", again)
	}
}

// A Memo that missed a write — a call made without it — starts afresh
// rather than answer from what it saw before.
func TestMemoForgetsAfterAWriteWithoutIt(t *testing.T) {
	w := newWorld(t)
	opts := w.opts(t, agents.ScopeProject)
	items := []Item{writePkg(t, w.base, pkgSpec{name: "a", version: "1.0.0"}), writePkg(t, w.base, pkgSpec{name: "b", version: "1.0.0"})}
	opts.Memo = NewMemo()
	if _, err := Install(t.Context(), items, opts); err != nil {
		t.Fatal(err)
	}
	scan := opts
	scan.ReceiptsOnly = true
	if list, _ := Scan(t.Context(), scan); len(list) != 4 {
		t.Fatalf("Scan = %v, want a and b in two roots", versions(list))
	}
	plain := opts
	plain.Memo = nil
	if _, err := Uninstall(t.Context(), []string{"a"}, plain); err != nil {
		t.Fatal(err)
	}
	list, err := Scan(t.Context(), scan)
	if err != nil {
		t.Fatal(err)
	}
	if got := versions(list); !slices.Equal(got, []string{"b 1.0.0", "b 1.0.0"}) {
		t.Errorf("Scan with a Memo after an uninstall made without it = %v, want b only", got)
	}
	// A receipt planted as a link is refused through a view as it is
	// without one, and never opened.
	link := receiptPath(filepath.Join(w.project, ".agents/skills"), "b")
	os.Remove(link)
	os.Symlink(filepath.Join(w.base, "elsewhere.json"), link)
	scan.Memo = NewMemo()
	if _, err := Scan(t.Context(), scan); !isUnsafe(err) {
		t.Errorf("Scan with a link among the receipts = %v, want ASK_ROOT_UNSAFE", err)
	}
	if scan.Memo.v.opened != 0 {
		t.Errorf("Scan opened %d receipt files before refusing the link", scan.Memo.v.opened)
	}
}

func versions(list []Installed) []string {
	var out []string
	for _, in := range list {
		out = append(out, in.Name+" "+in.Version)
	}
	slices.Sort(out)
	return out
}

// countingFS counts the opens of each file.
type countingFS struct {
	fs.FS
	mu    sync.Mutex
	opens map[string]int
}

func (c *countingFS) Open(name string) (fs.File, error) {
	c.mu.Lock()
	c.opens[name]++
	c.mu.Unlock()
	return c.FS.Open(name)
}

// Stat is the inner file system's, not counted as an open.
func (c *countingFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(c.FS, name) }

// A package file copied into two roots is read from the package once to
// stage both copies (and once for its digest), not once per root.
func TestSmallFilesReadOnceForAllRoots(t *testing.T) {
	w := newWorld(t)
	opts := w.opts(t, agents.ScopeProject)
	it := writePkg(t, w.base, pkgSpec{name: "a", version: "1.0.0", extra: map[string]string{"r.md": "body"}})
	cfs := &countingFS{FS: it.Pkg.FS, opens: map[string]int{}}
	it.Pkg.FS = cfs
	mustInstall(t, opts, it)
	if n := cfs.opens["references/r.md"]; n != 2 {
		t.Errorf("references/r.md opened %d times to install it into two roots, want 2 (its digest, then both copies)", n)
	}
	for _, root := range []string{".claude/skills", ".agents/skills"} {
		if got := readFile(t, filepath.Join(w.project, root, "a/references/r.md")); got != "body" {
			t.Errorf("%s/a/references/r.md = %q", root, got)
		}
	}
	checkConsistent(t, opts, map[string]string{"a": "1.0.0"})
}

// A Memo told to forget holds nothing of the receipts it kept, and the
// next call through it lists and reads them afresh, telling the truth.
func TestMemoForget(t *testing.T) {
	w := newWorld(t)
	opts := w.opts(t, agents.ScopeProject)
	items := []Item{writePkg(t, w.base, pkgSpec{name: "a", version: "1.0.0"}), writePkg(t, w.base, pkgSpec{name: "b", version: "1.0.0"})}
	m := NewMemo()
	opts.Memo = m
	if _, err := Install(t.Context(), items, opts); err != nil {
		t.Fatal(err)
	}
	if m.v.kept == 0 || len(m.v.roots) == 0 {
		t.Fatalf("the Memo kept nothing of the install (kept %d, roots %d)", m.v.kept, len(m.v.roots))
	}
	m.Forget()
	if m.v.kept != 0 || m.v.roots != nil {
		t.Errorf("Forget left kept %d, roots %d", m.v.kept, len(m.v.roots))
	}
	scan := opts
	scan.ReceiptsOnly = true
	listed, opened := m.v.listed, m.v.opened
	list, err := Scan(t.Context(), scan)
	if err != nil {
		t.Fatal(err)
	}
	if got := versions(list); !slices.Equal(got, []string{"a 1.0.0", "a 1.0.0", "b 1.0.0", "b 1.0.0"}) {
		t.Errorf("Scan after Forget = %v", got)
	}
	if m.v.listed == listed || m.v.opened == opened {
		t.Errorf("Scan after Forget listed %d folders and opened %d receipts, want them read afresh", m.v.listed-listed, m.v.opened-opened)
	}
}
