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
func WriteDir(dir string, t Tree, force bool) error {
	old, err := clear(dir, force, true)
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
		return askerr.IO("cannot write "+dir, err)
	}
	if old != "" {
		_ = os.RemoveAll(old)
	}
	return nil
}

// WriteFile writes data as the file name atomically, refusing an existing
// file with ASK_TARGET_EXISTS unless force is set.
func WriteFile(name string, data []byte, force bool) error {
	if _, err := clear(name, force, false); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(name, data, 0o644); err != nil {
		return askerr.IO("cannot write "+name, err)
	}
	return nil
}

// clear makes way for the output p. A missing p needs nothing; an empty
// folder is removed when dir is set; anything else is refused unless
// force, when a folder is moved aside (its new name returned, for the
// caller to remove or restore) and a file is left for the rename to
// replace.
func clear(p string, force, dir bool) (string, error) {
	info, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", askerr.IO("cannot read "+p, err)
	}
	if dir && info.IsDir() {
		if entries, err := os.ReadDir(p); err == nil && len(entries) == 0 {
			if err := os.Remove(p); err != nil {
				return "", askerr.IO("cannot replace "+p, err)
			}
			return "", nil
		}
	}
	if !force {
		what := "is not empty"
		if !info.IsDir() {
			what = "exists"
		}
		return "", &askerr.Error{Code: CodeTargetExists, Message: p + " " + what + "; nothing was written",
			Try: []string{"choose another --out, or add --force to replace it"}}
	}
	if dir != info.IsDir() {
		kind := map[bool]string{true: "a folder", false: "not a folder"}[info.IsDir()]
		return "", &askerr.Error{Code: CodeTargetExists, Message: p + " is " + kind + "; --force replaces only what this command writes",
			Try: []string{"choose another --out"}}
	}
	if !dir {
		return "", nil
	}
	aside, err := os.MkdirTemp(filepath.Dir(p), "."+filepath.Base(p)+".old-*")
	if err != nil {
		return "", askerr.IO("cannot replace "+p, err)
	}
	if err := os.Remove(aside); err != nil {
		return "", askerr.IO("cannot replace "+p, err)
	}
	if err := os.Rename(p, aside); err != nil {
		return "", askerr.IO("cannot replace "+p, err)
	}
	return aside, nil
}
