package registry

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// errText is err as the CLI shows it: Error(), then the detail lines of a
// registry error, each on a line of its own indented by two spaces.
func errText(err error) string {
	var e *Error
	if err == nil || !errors.As(err, &e) || len(e.Detail) == 0 {
		return fmt.Sprint(err)
	}
	return err.Error() + "\n  " + strings.Join(e.Detail, "\n  ")
}

// fixtureRoot is the origin registry fixture shared by the project.
const fixtureRoot = "../../shared/fixtures/origin-registry"

// fixture returns the fixture path or skips the test.
func fixture(t testing.TB) string {
	t.Helper()
	if _, err := os.Stat(filepath.Join(fixtureRoot, indexPath)); err != nil {
		t.Skipf("origin-registry fixture not found at %s (it lives in the shared workspace): %v", fixtureRoot, err)
	}
	abs, err := filepath.Abs(fixtureRoot)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// copyTree copies a directory tree with writable permissions.
func copyTree(t testing.TB, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// codeOf returns the ASK code of err, or "".
func codeOf(err error) string {
	var c interface{ ErrorCode() string }
	if errors.As(err, &c) {
		return c.ErrorCode()
	}
	return ""
}

// notices collects notices.
type notices struct{ list []string }

// add records one notice.
func (n *notices) add(s string) { n.list = append(n.list, s) }

// packDir packs a package directory loaded from disk.
func packDir(t testing.TB, dir string) []byte {
	t.Helper()
	var b bytes.Buffer
	files := listFiles(t, os.DirFS(dir))
	if err := Pack(os.DirFS(dir), files, &b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// listFiles returns every regular file of fsys.
func listFiles(t testing.TB, fsys fs.FS) []string {
	t.Helper()
	var out []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
