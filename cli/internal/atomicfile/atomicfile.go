// Package atomicfile writes files and whole folders so that a reader, or a
// crash at any instant, sees either the old state or the complete new one —
// never a half-written file.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile writes data to path atomically: it writes a temporary file in the
// same folder, syncs it, renames it over path and syncs the folder.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	return write(path, perm, func(f *os.File) error {
		_, err := f.Write(data)
		return err
	})
}

// WriteWith is WriteFile for a file that write produces, through a
// buffer, instead of one held whole in memory (a large file encoded as it
// is written). When write fails, path is left as it was.
func WriteWith(path string, perm fs.FileMode, produce func(io.Writer) error) error {
	return write(path, perm, func(f *os.File) error {
		bw := bufio.NewWriterSize(f, 64<<10)
		if err := produce(bw); err != nil {
			return err
		}
		return bw.Flush()
	})
}

// write makes path atomically with the contents fill writes into the
// temporary file.
func write(path string, perm fs.FileMode, fill func(*os.File) error) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err := fill(f); err != nil {
		return err
	}
	if err := f.Chmod(perm); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	ok = true
	return syncDir(dir)
}

// File is one file of a tree written by WriteTree.
type File struct {
	Path string // slash-separated, relative to the tree's root
	Data []byte
	Mode fs.FileMode
}

// ErrExist is returned by WriteTree when the target already exists.
var ErrExist = fs.ErrExist

// WriteTree creates the folder dir holding files, atomically: the files are
// written into a hidden staging folder beside dir, which is renamed to dir
// only when every file is on disk. dir must not exist; on any error nothing
// is left behind.
func WriteTree(dir string, files []File) error {
	if _, err := os.Lstat(dir); err == nil {
		return fmt.Errorf("%s: %w", dir, ErrExist)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	stage, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".stage-*")
	if err != nil {
		return err
	}
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(stage)
		}
	}()
	for _, f := range files {
		p := filepath.Join(stage, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		mode := f.Mode
		if mode == 0 {
			mode = 0o644
		}
		if err := os.WriteFile(p, f.Data, mode.Perm()); err != nil {
			return err
		}
	}
	if err := os.Chmod(stage, 0o755); err != nil {
		return err
	}
	// os.Rename onto an existing empty folder succeeds on Linux, so check
	// again right before the rename to keep a concurrent creation safe.
	if _, err := os.Lstat(dir); err == nil {
		return fmt.Errorf("%s: %w", dir, ErrExist)
	}
	if err := os.Rename(stage, dir); err != nil {
		return err
	}
	ok = true
	return syncDir(parent)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}
