//go:build !unix

package install

import (
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agent-skills/agent-skills/agents"
)

func openDirFd(string) (int, error) { return -1, nil }
func closeFd(int)                   {}

// stageInto writes t's staged copy into its staging folder by path.
func (t *txn) stageInto(ctx context.Context, _ *stageDir, s *syncer) error {
	stage := t.stagePath()
	if t.shape == agents.ShapeFile {
		if err := writeStaged(stage, t.files[0]); err != nil {
			return ioError("stage", stage, err)
		}
		s.add(stage)
		return nil
	}
	if err := os.Mkdir(stage, 0o755); err != nil {
		return ioError("stage", stage, err)
	}
	for _, f := range t.files {
		if err := ctx.Err(); err != nil {
			return err // interrupted: the caller's undo removes what was staged
		}
		p := t.stagedPath(f.rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return ioError("stage", p, err)
		}
		if f.from != "" {
			if err := carry(f.from, p); err != nil {
				return ioError("stage", p, err)
			}
		} else if err := writeStaged(p, f); err != nil {
			return ioError("stage", p, err)
		}
		s.add(p)
	}
	for _, rel := range t.keeps() {
		from := t.destPath(rel)
		p := t.stagedPath(rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return ioError("stage", p, err)
		}
		if err := carry(from, p); err != nil {
			return ioError("keep your file", from, err)
		}
		s.add(p)
	}
	return nil
}

func writeNew(p string, data []byte, perm fs.FileMode) error {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func writeOver(p string, data []byte, perm fs.FileMode) error { return os.WriteFile(p, data, perm) }
func renameRaw(from, to string) error                         { return os.Rename(from, to) }

func removeFile(p string) error {
	if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
		return err
	}
	return nil
}

func readSmall(p string, limit int) ([]byte, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|oNoFollow, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err == nil && len(data) > limit {
		return nil, &fs.PathError{Op: "read", Path: p, Err: errTooLarge}
	}
	return data, err
}
