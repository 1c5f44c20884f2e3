//go:build unix

package install

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/agent-skills/agent-skills/agents"
)

// Staged files are created with their mode; under a umask that takes
// bits of it, the mode is still exactly the one the receipt records. Run
// in a child process, since the umask is the whole process's.
func TestStagedModesUnderAStrictUmask(t *testing.T) {
	if os.Getenv("INSTALL_UMASK_HELPER") != "1" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestStagedModesUnderAStrictUmask$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), "INSTALL_UMASK_HELPER=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("child: %v\n%s", err, out)
		}
		return
	}
	syscall.Umask(0o077)
	if got := umask(); got != 0o077 && got != 0o777 {
		t.Errorf("umask() = %04o, want 0077 (or 0777 where it cannot be read)", got)
	}
	w := newWorld(t)
	opts := w.opts(t, agents.ScopeProject)
	it := writePkg(t, w.base, pkgSpec{name: "a", version: "1.0.0", extra: map[string]string{"run.sh": "echo"}})
	if err := os.Chmod(filepath.Join(it.Dir, "references/run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	mustInstall(t, opts, it)
	for _, root := range []string{".claude/skills", ".agents/skills"} {
		for rel, want := range map[string]os.FileMode{"a/SKILL.md": 0o644, "a/references/run.sh": 0o755} {
			info, err := os.Stat(filepath.Join(w.project, root, rel))
			if err != nil {
				t.Fatal(err)
			}
			if got := info.Mode().Perm(); got != want {
				t.Errorf("%s/%s has mode %04o, want %04o", root, rel, got, want)
			}
		}
	}
	checkConsistent(t, opts, map[string]string{"a": "1.0.0"})
}

// A receipt that is a FIFO (a clone can ship one) is unreadable, never a
// hang; one larger than any receipt agent-skills writes is refused
// without being read whole.
func TestReceiptFIFOAndHugeReceiptAreBroken(t *testing.T) {
	w := newWorld(t)
	opts := w.opts(t, agents.ScopeProject, "claude-code")
	mustInstall(t, opts, writePkg(t, w.base, pkgSpec{name: "a", version: "1.0.0"}), writePkg(t, w.base, pkgSpec{name: "b", version: "1.0.0"}))
	root := filepath.Join(w.project, ".claude/skills")
	fifo := receiptPath(root, "a")
	os.Remove(fifo)
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	huge := receiptPath(root, "b")
	if err := os.Truncate(huge, maxMetaFile+1); err != nil {
		t.Fatal(err)
	}
	done := make(chan []Installed)
	go func() {
		list, err := Scan(t.Context(), opts)
		if err != nil {
			t.Error(err)
		}
		done <- list
	}()
	var list []Installed
	select {
	case list = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("Scan hangs on a receipt that is a FIFO")
	}
	for _, in := range list {
		if in.State != StateReceiptBroken {
			t.Errorf("%s: state %s, want receipt-broken", in.Name, in.State)
		}
	}
	if _, err := readSmall(huge, maxMetaFile); !errors.Is(err, errTooLarge) {
		t.Errorf("readSmall of a receipt past the cap = %v, want errTooLarge", err)
	}
}

// A tracked file replaced by a link to the same bytes, by a FIFO, or
// reached through a folder replaced by a link out of the package, is not
// the file agent-skills wrote: the package is modified (or unreadable),
// never ok, and nothing hangs.
func TestTrackedFilesAreComparedInPlace(t *testing.T) {
	cases := map[string]func(t *testing.T, pkg, outside string){
		"a link to the same bytes": func(t *testing.T, pkg, outside string) {
			data := readFile(t, filepath.Join(pkg, "references/r.md"))
			os.WriteFile(filepath.Join(outside, "r.md"), []byte(data), 0o644)
			os.Remove(filepath.Join(pkg, "references/r.md"))
			os.Symlink(filepath.Join(outside, "r.md"), filepath.Join(pkg, "references/r.md"))
		},
		"a FIFO": func(t *testing.T, pkg, outside string) {
			os.Remove(filepath.Join(pkg, "references/r.md"))
			if err := syscall.Mkfifo(filepath.Join(pkg, "references/r.md"), 0o644); err != nil {
				t.Skip("no FIFOs here:", err)
			}
		},
		"a folder linked out of the package": func(t *testing.T, pkg, outside string) {
			data := readFile(t, filepath.Join(pkg, "references/r.md"))
			os.MkdirAll(filepath.Join(outside, "refs"), 0o755)
			os.WriteFile(filepath.Join(outside, "refs/r.md"), []byte(data), 0o644)
			os.RemoveAll(filepath.Join(pkg, "references"))
			os.Symlink(filepath.Join(outside, "refs"), filepath.Join(pkg, "references"))
		},
	}
	for name, change := range cases {
		t.Run(name, func(t *testing.T) {
			w := newWorld(t)
			opts := w.opts(t, agents.ScopeProject, "claude-code")
			mustInstall(t, opts, writePkg(t, w.base, pkgSpec{name: "a", version: "1.0.0", extra: map[string]string{"r.md": "body"}}))
			outside := filepath.Join(w.base, "outside")
			os.MkdirAll(outside, 0o755)
			change(t, filepath.Join(w.project, ".claude/skills/a"), outside)
			done := make(chan struct{})
			var list []Installed
			var err error
			go func() { list, err = Scan(t.Context(), opts); close(done) }()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("Scan hangs")
			}
			if err == nil && (len(list) != 1 || list[0].State != StateModified) {
				t.Errorf("Scan = %+v, want a modified", list)
			}
		})
	}
}

// mkParents makes the folders of a path below a descriptor from a byte on,
// each once: staging creates "<staged folder>/<rel>" relative to the
// staging folder, whose staged folder it has just made.
func TestMkParentsFrom(t *testing.T) {
	dir := t.TempDir()
	fd, err := openDirFd(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFd(fd)
	var made map[string]bool
	// "x" is before from: it is not made, so the folders below it cannot be.
	if err := mkParents(fd, "x/a/b.md", 2, &made); !errors.Is(err, syscall.ENOENT) {
		t.Errorf("mkParents(x/a/b.md, 2) without x = %v, want ENOENT", err)
	}
	if err := os.Mkdir(filepath.Join(dir, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"x/a/b.md", "x/a/c/d.md", "x/e.md"} {
		if err := mkParents(fd, rel, 2, &made); err != nil {
			t.Fatalf("mkParents(%q, 2) = %v", rel, err)
		}
	}
	for _, p := range []string{"x/a", "x/a/c"} {
		if info, err := os.Lstat(filepath.Join(dir, p)); err != nil || !info.IsDir() {
			t.Errorf("%s is not a folder after mkParents: %v", p, err)
		}
	}
	if want := map[string]bool{"x/a": true, "x/a/c": true}; len(made) != len(want) || !made["x/a"] || !made["x/a/c"] {
		t.Errorf("mkParents made %v, want %v", made, want)
	}
}

// readSmall gives each file's bytes exactly, in a slice of their size
// (what the view keeps of a receipt), whatever it read before, past its
// pooled buffer too, and refuses a file past the limit.
func TestReadSmallExactSize(t *testing.T) {
	dir := t.TempDir()
	big := make([]byte, 100<<10)
	for i := range big {
		big[i] = byte('a' + i%26)
	}
	for _, n := range []int{100 << 10, 0, 1, 900, 4096, 16<<10 - 1, 16 << 10, 16<<10 + 1, 37} {
		p := filepath.Join(dir, "r.json")
		if err := os.WriteFile(p, big[len(big)-n:], 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := readSmall(p, maxMetaFile)
		if err != nil || string(got) != string(big[len(big)-n:]) {
			t.Fatalf("readSmall of %d bytes = %d bytes, %v; want the file", n, len(got), err)
		}
		if got == nil || (n < 16<<10 && cap(got) != n) {
			t.Errorf("readSmall of %d bytes gave a slice of capacity %d (nil: %v), want the file's size", n, cap(got), got == nil)
		}
		if _, err := readSmall(p, n-1); n > 0 && !errors.Is(err, errTooLarge) {
			t.Errorf("readSmall of %d bytes with limit %d = %v, want errTooLarge", n, n-1, err)
		}
	}
}
