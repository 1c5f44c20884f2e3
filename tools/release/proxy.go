package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

// proxy writes a file-system module proxy (the GOPROXY protocol, usable as
// GOPROXY=file://dir) holding version v of every module of the set, from a
// tree bumped to v, each as its tag will hold it: go.mod without replace
// directives (releaseGoMod). Other versions already in dir stay listed.
func proxy(ctx context.Context, r *repo, v, dir string, now time.Time, out io.Writer) error {
	if err := checkBumped(r, v); err != nil {
		return err
	}
	for _, m := range r.Released {
		esc, err := module.EscapePath(m.Path)
		if err != nil {
			return err
		}
		ev, err := module.EscapeVersion(v)
		if err != nil {
			return err
		}
		vdir := filepath.Join(dir, filepath.FromSlash(esc), "@v")
		if err := os.MkdirAll(vdir, 0o755); err != nil {
			return err
		}
		zf, err := os.CreateTemp(vdir, ".zip-*")
		if err != nil {
			return err
		}
		gomod, zerr := writeZip(ctx, r, m, v, zf)
		if cerr := zf.Close(); zerr == nil {
			zerr = cerr
		}
		if zerr == nil {
			zerr = os.Rename(zf.Name(), filepath.Join(vdir, ev+".zip"))
		}
		if zerr != nil {
			os.Remove(zf.Name())
			return zerr
		}
		info, _ := json.Marshal(struct {
			Version string
			Time    string
		}{v, now.UTC().Format(time.RFC3339)})
		if err := writeFile(filepath.Join(vdir, ev+".info"), append(info, '\n')); err != nil {
			return err
		}
		if err := writeFile(filepath.Join(vdir, ev+".mod"), gomod); err != nil {
			return err
		}
		if err := addToList(filepath.Join(vdir, "list"), v); err != nil {
			return err
		}
		fmt.Fprintf(out, "proxy %s@%s\n", m.Path, v)
	}
	return nil
}

// addToList adds v to a proxy's @v/list once.
func addToList(name, v string) error {
	data, err := readBounded(name, 1<<20)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	lines := strings.Fields(string(data))
	if slices.Contains(lines, v) {
		return nil
	}
	lines = append(lines, v)
	return writeFile(name, []byte(strings.Join(lines, "\n")+"\n"))
}

// writeZip writes the zip of module m at version v, as its tag will hold
// it, to w: the files moduleFiles lists, with the go.mod of releaseGoMod,
// which it returns. proxy serves this zip and bump hashes it for go.sum:
// one builder, so the two always agree.
func writeZip(ctx context.Context, r *repo, m mod, v string, w io.Writer) ([]byte, error) {
	gomod, src, cleanup, err := stage(ctx, r, m)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	if err := zip.CreateFromDir(w, module.Version{Path: m.Path, Version: v}, src); err != nil {
		return nil, fmt.Errorf("%s: %w", m.Path, err)
	}
	return gomod, nil
}

// stage copies a module's files (moduleFiles) to a temporary directory
// with its go.mod as the tag holds it, and returns that go.mod, the
// directory and its removal.
func stage(ctx context.Context, r *repo, m mod) ([]byte, string, func(), error) {
	src := filepath.Join(r.Root, filepath.FromSlash(m.Dir))
	data, err := readBounded(filepath.Join(src, "go.mod"), maxGoMod)
	if err != nil {
		return nil, "", nil, err
	}
	gomod, err := releaseGoMod(r, m, data)
	if err != nil {
		return nil, "", nil, err
	}
	files, err := moduleFiles(ctx, r, m)
	if err != nil {
		return nil, "", nil, err
	}
	tmp, err := os.MkdirTemp("", "release-stage-*")
	if err != nil {
		return nil, "", nil, err
	}
	cleanup := func() { os.RemoveAll(tmp) }
	dst := filepath.Join(tmp, "m")
	for _, f := range files {
		if err := copyFile(filepath.Join(dst, filepath.FromSlash(f)), filepath.Join(src, filepath.FromSlash(f))); err != nil {
			cleanup()
			return nil, "", nil, fmt.Errorf("%s: %w", m.Path, err)
		}
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		cleanup()
		return nil, "", nil, err
	}
	if err := os.WriteFile(filepath.Join(dst, "go.mod"), gomod, 0o644); err != nil {
		cleanup()
		return nil, "", nil, err
	}
	return gomod, dst, cleanup, nil
}

// copyFile copies the regular file or symbolic link src to dst, making
// dst's directory. A symbolic link stays one: zip.CreateFromDir leaves
// it out, as the go command does.
func copyFile(dst, src string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	fi, err := os.Lstat(src)
	if err != nil {
		return err
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		target, err := os.Readlink(src)
		if err != nil {
			return err
		}
		return os.Symlink(target, dst)
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fi.Mode().Perm()|0o200)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
