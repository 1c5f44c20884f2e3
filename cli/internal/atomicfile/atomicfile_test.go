package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFileReplaces(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "config.json")
	for _, content := range []string{"one", "two"} {
		if err := WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatalf("WriteFile(%q) = %v", content, err)
		}
		got, err := os.ReadFile(p)
		if err != nil || string(got) != content {
			t.Fatalf("ReadFile = %q, %v, want %q", got, err, content)
		}
	}
	fi, _ := os.Stat(p)
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, want 0600", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("folder holds %d entries, want 1 (no temporary files left)", len(entries))
	}
}

func TestWriteTreeRefusesExisting(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "pkg")
	files := []File{{Path: "a/b.txt", Data: []byte("x")}, {Path: "c.txt", Data: []byte("y"), Mode: 0o755}}
	if err := WriteTree(target, files); err != nil {
		t.Fatalf("WriteTree = %v", err)
	}
	if got, _ := os.ReadFile(filepath.Join(target, "a", "b.txt")); string(got) != "x" {
		t.Errorf("a/b.txt = %q, want x", got)
	}
	if fi, _ := os.Stat(filepath.Join(target, "c.txt")); fi.Mode().Perm() != 0o755 {
		t.Errorf("c.txt mode = %v, want 0755", fi.Mode().Perm())
	}
	if err := WriteTree(target, files); !errors.Is(err, ErrExist) {
		t.Fatalf("second WriteTree = %v, want ErrExist", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("parent holds %d entries, want 1 (staging removed)", len(entries))
	}
}

func TestWriteTreeCleansUpOnError(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "pkg")
	// A file and a folder of the same name cannot both exist.
	files := []File{{Path: "a", Data: []byte("x")}, {Path: "a/b", Data: []byte("y")}}
	if err := WriteTree(target, files); err == nil {
		t.Fatal("WriteTree with conflicting paths succeeded, want an error")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Errorf("parent holds %v, want nothing after a failed write", entries)
	}
}

// TestWriteWith: the produced bytes replace the file; a producer that
// fails leaves the old file and no temporary one.
func TestWriteWith(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "journal")
	big := strings.Repeat("x", 200<<10) // past the buffer
	if err := WriteWith(p, 0o600, func(w io.Writer) error {
		_, err := io.WriteString(w, big)
		return err
	}); err != nil {
		t.Fatalf("WriteWith = %v", err)
	}
	if got, err := os.ReadFile(p); err != nil || string(got) != big {
		t.Fatalf("ReadFile after WriteWith = %d bytes, %v, want %d", len(got), err, len(big))
	}
	boom := errors.New("boom")
	if err := WriteWith(p, 0o600, func(w io.Writer) error {
		io.WriteString(w, "partial")
		return boom
	}); !errors.Is(err, boom) {
		t.Fatalf("WriteWith(failing) = %v, want %v", err, boom)
	}
	if got, _ := os.ReadFile(p); string(got) != big {
		t.Errorf("after a failed WriteWith the file holds %d bytes, want the old %d", len(got), len(big))
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("folder holds %d entries, want 1 (no temporary files left)", len(entries))
	}
}
