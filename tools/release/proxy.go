package main

import (
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
func proxy(r *repo, v, dir string, now time.Time, out io.Writer) error {
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
		gomod, src, cleanup, err := stage(r, m)
		if err != nil {
			return err
		}
		defer cleanup()
		zf, err := os.CreateTemp(vdir, ".zip-*")
		if err != nil {
			return err
		}
		zerr := zip.CreateFromDir(zf, module.Version{Path: m.Path, Version: v}, src)
		if cerr := zf.Close(); zerr == nil {
			zerr = cerr
		}
		if zerr == nil {
			zerr = os.Rename(zf.Name(), filepath.Join(vdir, ev+".zip"))
		}
		if zerr != nil {
			os.Remove(zf.Name())
			return fmt.Errorf("%s: %w", m.Path, zerr)
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

// stage copies a module's directory to a temporary one with its go.mod as
// the tag holds it, and returns that go.mod, the directory and its removal.
func stage(r *repo, m mod) ([]byte, string, func(), error) {
	src := filepath.Join(r.Root, filepath.FromSlash(m.Dir))
	data, err := readBounded(filepath.Join(src, "go.mod"), maxGoMod)
	if err != nil {
		return nil, "", nil, err
	}
	gomod, err := releaseGoMod(r, m, data)
	if err != nil {
		return nil, "", nil, err
	}
	tmp, err := os.MkdirTemp("", "release-stage-*")
	if err != nil {
		return nil, "", nil, err
	}
	cleanup := func() { os.RemoveAll(tmp) }
	dst := filepath.Join(tmp, "m")
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		cleanup()
		return nil, "", nil, fmt.Errorf("%s: %w", m.Path, err)
	}
	if err := os.WriteFile(filepath.Join(dst, "go.mod"), gomod, 0o644); err != nil {
		cleanup()
		return nil, "", nil, err
	}
	return gomod, dst, cleanup, nil
}
