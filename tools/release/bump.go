package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"golang.org/x/mod/modfile"
)

// maxGoMod bounds the read of a go.mod file.
const maxGoMod = 1 << 20

// readGoMod parses a module's go.mod and checks that it declares the path
// versions.yaml gives it.
func readGoMod(r *repo, m mod) (*modfile.File, string, error) {
	name := filepath.Join(r.Root, filepath.FromSlash(m.Dir), "go.mod")
	data, err := readBounded(name, maxGoMod)
	if err != nil {
		return nil, name, err
	}
	f, err := modfile.Parse(name, data, nil)
	if err != nil {
		return nil, name, err
	}
	if f.Module == nil || f.Module.Mod.Path != m.Path {
		return nil, name, fmt.Errorf("%s: declares module %v, versions.yaml says %s", name, modulePath(f), m.Path)
	}
	return f, name, nil
}

func modulePath(f *modfile.File) string {
	if f.Module == nil {
		return "(none)"
	}
	return f.Module.Mod.Path
}

// bump sets every module's requirements on the set's modules to v, the
// set's version in versions.yaml, and (writeGoSums) the siblings' hashes at
// v in every released module's go.sum, which the release commit's build
// without replace directives checks. Replace directives stay: the
// workspace and GOWORK=off builds keep using the local tree, and importers
// ignore them.
func bump(ctx context.Context, r *repo, v string, out io.Writer) error {
	for _, m := range r.all() {
		f, name, err := readGoMod(r, m)
		if err != nil {
			return err
		}
		changed := 0
		for _, req := range f.Require {
			p := req.Mod.Path
			if r.released(p) {
				if req.Mod.Version != v {
					if err := f.AddRequire(p, v); err != nil {
						return fmt.Errorf("%s: %w", name, err)
					}
					changed++
				}
				continue
			}
			for _, x := range r.Excluded {
				if x.Path == p && r.released(m.Path) {
					return fmt.Errorf("%s: released module %s requires %s, which is never tagged", name, m.Path, p)
				}
			}
		}
		if changed == 0 {
			continue
		}
		f.Cleanup()
		data, err := f.Format()
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if err := writeFile(name, data); err != nil {
			return err
		}
		fmt.Fprintf(out, "bump %s/go.mod: %d requirement(s) -> %s\n", m.Dir, changed, v)
	}
	sums, err := writeGoSums(ctx, r, v)
	if err != nil {
		return err
	}
	for _, dir := range sums {
		fmt.Fprintf(out, "bump %s/go.sum: the siblings' hashes at %s\n", dir, v)
	}
	if r.Version != v {
		if err := setVersionsFile(r.Root, v); err != nil {
			return err
		}
		fmt.Fprintf(out, "bump versions.yaml: %s %s -> %s\n", r.Set, r.Version, v)
		r.Version = v
	}
	return nil
}

// checkBumped fails unless versions.yaml and every requirement on the set
// say v: tag and proxy work only on a bumped tree.
func checkBumped(r *repo, v string) error {
	if r.Version != v {
		return fmt.Errorf("versions.yaml says %s, not %s; run: go run ./tools/release bump %s", r.Version, v, v)
	}
	for _, m := range r.all() {
		f, name, err := readGoMod(r, m)
		if err != nil {
			return err
		}
		for _, req := range f.Require {
			if r.released(req.Mod.Path) && req.Mod.Version != v {
				return fmt.Errorf("%s requires %s %s, not %s; run: go run ./tools/release bump %s", name, req.Mod.Path, req.Mod.Version, v, v)
			}
		}
	}
	return nil
}

// releaseGoMod is a released module's go.mod as its tag holds it: without
// the replace directives of the set's modules, since the go command refuses
// `go install pkg@version` of a module with any replace directive (and
// importers ignore them anyway). It refuses any other replace: an importer
// would silently build with the original module instead.
func releaseGoMod(r *repo, m mod, data []byte) ([]byte, error) {
	name := m.Dir + "/go.mod"
	f, err := modfile.Parse(name, data, nil)
	if err != nil {
		return nil, err
	}
	for _, rep := range f.Replace {
		if !r.released(rep.Old.Path) {
			return nil, fmt.Errorf("%s replaces %s, which is not in the module set; importers would not see the replacement", name, rep.Old.Path)
		}
	}
	for _, rep := range append([]*modfile.Replace(nil), f.Replace...) {
		if err := f.DropReplace(rep.Old.Path, rep.Old.Version); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	f.Cleanup()
	return f.Format()
}
