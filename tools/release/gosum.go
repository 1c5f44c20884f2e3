package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/module"
	"golang.org/x/mod/sumdb/dirhash"
)

// The release commit's go.sum files must hold the siblings' hashes: at
// the tag a released module's go.mod requires its siblings at vX without
// replace directives, and a build in the module itself (GoReleaser's
// GOWORK=off build of cli) downloads them and checks each against the
// module's own go.sum. Importers and `go install pkg@vX` never read it,
// so nothing else notices a missing line.

// writeGoSums writes into every released module's go.sum the two lines of
// each sibling it requires, directly or through other siblings, at v:
// "<path> v h1:…" (the module zip, dirhash.HashZip) and "<path> v/go.mod
// h1:…" (dirhash.Hash1 over the go.mod the tag holds), and drops any other
// version's lines of the set's modules. A module's zip holds its go.sum, so
// the modules are taken in dependency order, each hashed after its go.sum
// is final; a cycle among the siblings is refused. It returns the
// directories whose go.sum changed.
func writeGoSums(ctx context.Context, r *repo, v string) ([]string, error) {
	order, deps, err := siblingOrder(r)
	if err != nil {
		return nil, err
	}
	type sums struct{ zip, mod string }
	hashes := map[string]sums{}
	var changed []string
	for _, m := range order {
		var add []string
		for _, p := range deps[m.Path] {
			h := hashes[p]
			add = append(add, p+" "+v+" "+h.zip, p+" "+v+"/go.mod "+h.mod)
		}
		name := filepath.Join(r.Root, filepath.FromSlash(m.Dir), "go.sum")
		old, err := readBounded(name, maxGoSum)
		if err != nil && !os.IsNotExist(err) {
			return nil, err
		}
		data, err := mergeGoSum(r, name, old, add)
		if err != nil {
			return nil, err
		}
		if !bytes.Equal(data, old) && (len(data) > 0 || old != nil) {
			if err := writeFile(name, data); err != nil {
				return nil, err
			}
			changed = append(changed, m.Dir)
		}
		zh, gomod, err := hashZip(ctx, r, m, v)
		if err != nil {
			return nil, err
		}
		mh, err := dirhash.Hash1([]string{"go.mod"}, func(string) (io.ReadCloser, error) {
			return io.NopCloser(bytes.NewReader(gomod)), nil
		})
		if err != nil {
			return nil, err
		}
		hashes[m.Path] = sums{zh, mh}
	}
	return changed, nil
}

// maxGoSum bounds the read of a go.sum file.
const maxGoSum = 16 << 20

// mergeGoSum is a go.sum's data with every line of a set's module
// replaced by add, sorted as the go command writes it: by module path,
// then version (semver order, "/go.mod" after the zip's line), then hash.
func mergeGoSum(r *repo, name string, data []byte, add []string) ([]byte, error) {
	type key struct{ path, version string }
	byKey := map[key][]string{}
	put := func(line string) error {
		f := strings.Fields(line)
		if len(f) != 3 {
			return fmt.Errorf("%s: malformed line %q", name, line)
		}
		k := key{f[0], f[1]}
		if !slices.Contains(byKey[k], f[2]) {
			byKey[k] = append(byKey[k], f[2])
		}
		return nil
	}
	for line := range strings.Lines(string(data)) {
		if strings.TrimSpace(line) == "" {
			continue
		}
		if f := strings.Fields(line); len(f) > 0 && r.released(f[0]) {
			continue
		}
		if err := put(line); err != nil {
			return nil, err
		}
	}
	for _, line := range add {
		if err := put(line); err != nil {
			return nil, err
		}
	}
	var mods []module.Version
	for k := range byKey {
		mods = append(mods, module.Version{Path: k.path, Version: k.version})
	}
	module.Sort(mods)
	var b bytes.Buffer
	for _, mv := range mods {
		hs := byKey[key{mv.Path, mv.Version}]
		slices.Sort(hs)
		for _, h := range hs {
			fmt.Fprintf(&b, "%s %s %s\n", mv.Path, mv.Version, h)
		}
	}
	return b.Bytes(), nil
}

// siblingOrder is the released modules in dependency order (a module after
// every sibling it requires) and, for each, the set's modules it requires
// directly or through other siblings, sorted. It reads the requirements
// from the go.mod files as bumped; a cycle is an error naming it.
func siblingOrder(r *repo) ([]mod, map[string][]string, error) {
	direct := map[string][]string{}
	byPath := map[string]mod{}
	for _, m := range r.Released {
		f, _, err := readGoMod(r, m)
		if err != nil {
			return nil, nil, err
		}
		byPath[m.Path] = m
		for _, req := range f.Require {
			if r.released(req.Mod.Path) && req.Mod.Path != m.Path && !slices.Contains(direct[m.Path], req.Mod.Path) {
				direct[m.Path] = append(direct[m.Path], req.Mod.Path)
			}
		}
	}
	const (
		visiting = 1
		done     = 2
	)
	state := map[string]int{}
	all := map[string][]string{}
	var order []mod
	var visit func(p string, chain []string) error
	visit = func(p string, chain []string) error {
		chain = append(chain, p)
		switch state[p] {
		case done:
			return nil
		case visiting:
			i := slices.Index(chain, p)
			return fmt.Errorf("the module set's requirements form a cycle: %s; a module's go.sum holds its siblings' hashes, which cover their go.sum, so the siblings must require each other in one direction only", strings.Join(chain[i:], " requires "))
		}
		state[p] = visiting
		var closure []string
		for _, q := range direct[p] {
			if err := visit(q, chain); err != nil {
				return err
			}
			closure = append(closure, q)
			closure = append(closure, all[q]...)
		}
		slices.Sort(closure)
		all[p] = slices.Compact(closure)
		state[p] = done
		order = append(order, byPath[p])
		return nil
	}
	for _, m := range r.Released {
		if err := visit(m.Path, nil); err != nil {
			return nil, nil, err
		}
	}
	return order, all, nil
}

// hashZip builds a module's zip at v, as proxy serves it (writeZip), and
// returns its dirhash.HashZip hash, the go.sum hash, with the go.mod the
// tag holds.
func hashZip(ctx context.Context, r *repo, m mod, v string) (string, []byte, error) {
	zf, err := os.CreateTemp("", "release-hash-*.zip")
	if err != nil {
		return "", nil, err
	}
	defer os.Remove(zf.Name())
	gomod, err := writeZip(ctx, r, m, v, zf)
	if cerr := zf.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", nil, err
	}
	h, err := dirhash.HashZip(zf.Name(), dirhash.Hash1)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", m.Path, err)
	}
	return h, gomod, nil
}

// moduleFiles is the files of a module's directory that its tag will hold,
// slash-separated and relative to it: in a git work tree, the tracked ones
// (`git ls-files -c`; untracked files are refused, since whether they
// will be committed is unknown and either way changes the hash), plus
// go.sum, which bump may have created; outside one (release-check's copy
// of the tree, which is the files git would commit already), every file.
// Files in nested modules and vendor directories are left out later, by
// zip.CreateFromDir, as the go command leaves them out of a module zip.
func moduleFiles(ctx context.Context, r *repo, m mod) ([]string, error) {
	dir := filepath.Join(r.Root, filepath.FromSlash(m.Dir))
	if _, err := exec.LookPath("git"); err != nil {
		return allFiles(dir)
	}
	if _, err := git(ctx, r.Root, "rev-parse", "--is-inside-work-tree"); err != nil {
		if strings.Contains(err.Error(), "not a git repository") {
			return allFiles(dir)
		}
		return nil, err
	}
	untracked, err := git(ctx, dir, "ls-files", "-z", "-o", "--exclude-standard", "--", ".")
	if err != nil {
		return nil, err
	}
	var stray []string
	for _, f := range strings.Split(untracked, "\x00") {
		if f != "" && f != "go.sum" {
			stray = append(stray, f)
		}
	}
	if len(stray) > 0 {
		return nil, fmt.Errorf("%s has untracked files, which the tag would not hold: %s; commit them, remove them or ignore them, then run bump again", m.Dir, strings.Join(stray, ", "))
	}
	tracked, err := git(ctx, dir, "ls-files", "-z", "-c", "--", ".")
	if err != nil {
		return nil, err
	}
	var files []string
	for _, f := range strings.Split(tracked, "\x00") {
		if f == "" {
			continue
		}
		if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(f))); os.IsNotExist(err) {
			continue // deleted, not yet committed: tag refuses that tree anyway
		}
		files = append(files, f)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.sum")); err == nil && !slices.Contains(files, "go.sum") {
		files = append(files, "go.sum")
	}
	slices.Sort(files)
	return files, nil
}

// allFiles is every regular file and symbolic link below dir.
func allFiles(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	return files, err
}
