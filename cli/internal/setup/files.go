package setup

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agent-skills/agent-skills/cli/internal/atomicfile"
)

// maxSettings bounds a settings file's size: ~/.claude.json, Claude's
// state file, grows with every project, so the bound is generous.
const maxSettings = 32 << 20

// readSettings reads a settings file: nil when it does not exist. A
// user file may be a symbolic link (a dotfiles manager's), which is
// followed; a project's may not, so that a repository cannot point setup
// at a file outside it.
func readSettings(file string, scope Scope) ([]byte, error) {
	return atomicfile.ReadPlain(file, scope == User, maxSettings)
}

// target returns the file to write for file: the file a user file's
// symbolic link points at, so that the link stays.
func target(file string, scope Scope) string {
	if scope != User {
		return file
	}
	if real, err := filepath.EvalSymlinks(file); err == nil {
		return real
	}
	return file
}

// writeSettings writes data to file atomically, keeping its permissions;
// a new file is private to the user in user scope.
func writeSettings(file string, scope Scope, data []byte) error {
	file = target(file, scope)
	perm := fs.FileMode(0o644)
	if scope == User {
		perm = 0o600
	}
	if fi, err := os.Stat(file); err == nil {
		perm = fi.Mode().Perm()
	}
	if err := mkdirAll(filepath.Dir(file)); err != nil {
		return err
	}
	return atomicfile.WriteFile(file, data, perm)
}

// removeFile removes file; a missing one is no error.
func removeFile(file string) error {
	if err := os.Remove(file); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// mkdirAll creates dir and its parents.
func mkdirAll(dir string) error { return os.MkdirAll(dir, 0o755) }

// missingDirs lists the folders that writing file would create, deepest
// first.
func missingDirs(file string) []string {
	var out []string
	for d := filepath.Dir(file); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); !errors.Is(err, fs.ErrNotExist) {
			return out
		}
		out = append(out, d)
		if filepath.Dir(d) == d {
			return out
		}
	}
}

// removeEmptyDirs removes, deepest first, the folders of dirs that setup
// created for file, now removed, while they are empty. A name that is not
// a folder above file (a receipt edited by hand), a link, or a folder
// that holds anything stays.
func removeEmptyDirs(file string, dirs []string) {
	for _, d := range dirs {
		rel, err := filepath.Rel(d, file)
		if err != nil || !filepath.IsLocal(rel) {
			return
		}
		if fi, err := os.Lstat(d); err != nil || !fi.IsDir() {
			return
		}
		if os.Remove(d) != nil {
			return
		}
	}
}
