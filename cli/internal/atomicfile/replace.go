package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrNotDir is returned by ReplaceTree when the target exists but is not
// a folder: a file, or a symbolic link (never followed, even to a folder).
var ErrNotDir = errors.New("not a folder")

// ErrExchangeUnsupported is what exchange returns where the system
// cannot swap two folders in one rename.
var ErrExchangeUnsupported = errors.New("atomic exchange is not supported")

// ReplaceTree makes the folder dir hold exactly files, atomically. The
// files (their Mode, 0644 by default; folders 0755) are written and
// synced into a hidden staging folder beside dir; check, when not nil,
// inspects the staged folder; only then does the staging folder take
// dir's place. On Linux the two are exchanged in one rename
// (renameat2 RENAME_EXCHANGE), so dir always holds one complete tree;
// elsewhere dir is renamed aside, the staged folder renamed in (the old
// one renamed back when that fails), and the old one removed. dir need
// not exist; it must not be a symbolic link or a file (ErrNotDir). On an
// error before the swap dir is untouched and nothing is left behind.
func ReplaceTree(dir string, files []File, check func(stage string) error) error {
	exists, err := isDir(dir)
	if err != nil {
		return err
	}
	parent, base := filepath.Dir(dir), filepath.Base(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	stage, err := os.MkdirTemp(parent, "."+base+".stage-*")
	if err != nil {
		return err
	}
	remove := stage
	defer func() {
		if remove != "" {
			os.RemoveAll(remove)
		}
	}()
	if err := writeStage(stage, files); err != nil {
		return err
	}
	if check != nil {
		if err := check(stage); err != nil {
			return err
		}
	}
	if !exists {
		if err := RenameNoReplace(stage, dir); err != nil {
			return err
		}
		remove = ""
		return syncDir(parent)
	}
	// The target is checked again right before the swap: a link put in
	// its place meanwhile is refused, not replaced.
	if exists, err = isDir(dir); err != nil {
		return err
	} else if !exists {
		return fmt.Errorf("%s: %w", dir, fs.ErrNotExist)
	}
	switch err := Exchange(stage, dir); {
	case err == nil:
		// stage now holds the old tree, which the deferred call removes.
		return syncDir(parent)
	case !errors.Is(err, ErrExchangeUnsupported):
		return err
	}
	aside, err := os.MkdirTemp(parent, "."+base+".old-*")
	if err != nil {
		return err
	}
	if err := os.Remove(aside); err != nil {
		return err
	}
	if err := os.Rename(dir, aside); err != nil {
		return err
	}
	if err := os.Rename(stage, dir); err != nil {
		if rerr := os.Rename(aside, dir); rerr != nil {
			return fmt.Errorf("%w (and the old folder could not be put back from %s: %v)", err, aside, rerr)
		}
		return err
	}
	remove = aside
	return syncDir(parent)
}

// isDir reports whether dir exists as a folder (not a link to one).
func isDir(dir string) (bool, error) {
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil:
		return false, err
	case !fi.IsDir():
		return false, fmt.Errorf("%s: %w", dir, ErrNotDir)
	}
	return true, nil
}

// writeStage writes files below the new, empty folder stage and syncs
// each file and folder.
func writeStage(stage string, files []File) error {
	dirs := map[string]bool{stage: true}
	for _, f := range files {
		if !fs.ValidPath(f.Path) || f.Path == "." {
			return fmt.Errorf("%q is not a clean relative path", f.Path)
		}
		p := filepath.Join(stage, filepath.FromSlash(f.Path))
		for d := filepath.Dir(p); !dirs[d]; d = filepath.Dir(d) {
			dirs[d] = true
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		mode := f.Mode.Perm()
		if mode == 0 {
			mode = 0o644
		}
		out, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
		if err != nil {
			return err
		}
		_, err = out.Write(f.Data)
		if err == nil {
			err = out.Chmod(mode)
		}
		if err == nil {
			err = out.Sync()
		}
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	for d := range dirs {
		if err := os.Chmod(d, 0o755); err != nil {
			return err
		}
		if err := syncDir(d); err != nil {
			return err
		}
	}
	return nil
}

// renameIfAbsent renames from to to unless to exists (checked, then
// renamed: not atomic against a concurrent creation).
func renameIfAbsent(from, to string) error {
	if _, err := os.Lstat(to); err == nil {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: fs.ErrExist}
	}
	return os.Rename(from, to)
}
