package plugin

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/atomicfile"
)

// CodeTargetExists is an output folder or file that is not empty, given
// without force.
const CodeTargetExists = "ASK_TARGET_EXISTS"

// fileMode is the mode a tree file is written with.
func fileMode(f File) fs.FileMode {
	if f.Exec {
		return 0o755
	}
	return 0o644
}

// WriteDir writes the tree as the folder dir, atomically: into a staging
// folder beside dir, renamed into place when every file is on disk. A dir
// that exists and is not empty is refused with ASK_TARGET_EXISTS unless
// force is set; then the old folder is moved aside, replaced, and removed
// only after the new one is in place (restored when the rename fails).
// Messages name dir as show returns it.
func WriteDir(dir string, t Tree, force bool, show func(string) string) error {
	old, err := clear(dir, force, true, show)
	if err != nil {
		return err
	}
	files := make([]atomicfile.File, len(t.Files))
	for i, f := range t.Files {
		files[i] = atomicfile.File{Path: f.Path, Data: f.Data, Mode: fileMode(f)}
	}
	if err := atomicfile.WriteTree(dir, files); err != nil {
		if old != "" {
			_ = os.Rename(old, dir)
		}
		return askerr.IO("cannot write "+show(dir), err)
	}
	if old != "" {
		_ = os.RemoveAll(old)
	}
	return nil
}

// WriteFile writes data as the file name atomically, refusing an existing
// file with ASK_TARGET_EXISTS unless force is set. Messages name it as show
// returns it.
func WriteFile(name string, data []byte, force bool, show func(string) string) error {
	if _, err := clear(name, force, false, show); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(name, data, 0o644); err != nil {
		return askerr.IO("cannot write "+show(name), err)
	}
	return nil
}

// clear makes way for the output p. A missing p needs nothing; an empty
// folder is removed when dir is set; anything else is refused unless
// force, when a folder is moved aside (its new name returned, for the
// caller to remove or restore) and a file is left for the rename to
// replace.
func clear(p string, force, dir bool, show func(string) string) (string, error) {
	name := show(p)
	info, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", askerr.IO("cannot read "+name, err)
	}
	if dir && info.IsDir() {
		if entries, err := os.ReadDir(p); err == nil && len(entries) == 0 {
			if err := os.Remove(p); err != nil {
				return "", askerr.IO("cannot replace "+name, err)
			}
			return "", nil
		}
	}
	if !force {
		what := "is not empty"
		if !info.IsDir() {
			what = "exists"
		}
		return "", &askerr.Error{Code: CodeTargetExists, Message: name + " " + what + "; nothing was written",
			Try: []string{"choose another --out, or add --force to replace it"}}
	}
	if dir != info.IsDir() {
		kind := map[bool]string{true: "a folder", false: "not a folder"}[info.IsDir()]
		return "", &askerr.Error{Code: CodeTargetExists, Message: name + " is " + kind + "; --force replaces only what this command writes",
			Try: []string{"choose another --out"}}
	}
	if !dir {
		return "", nil
	}
	aside, err := os.MkdirTemp(filepath.Dir(p), "."+filepath.Base(p)+".old-*")
	if err != nil {
		return "", askerr.IO("cannot replace "+name, err)
	}
	if err := os.Remove(aside); err != nil {
		return "", askerr.IO("cannot replace "+name, err)
	}
	if err := os.Rename(p, aside); err != nil {
		return "", askerr.IO("cannot replace "+name, err)
	}
	return aside, nil
}
