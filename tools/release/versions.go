package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
)

// repoPath is the module path of the repository's root; every module's
// directory is its path below it.
const repoPath = "github.com/agent-skills/agent-skills"

// maxVersionsFile bounds the read of versions.yaml.
const maxVersionsFile = 1 << 20

// versionsFile is versions.yaml.
type versionsFile struct {
	ModuleSets map[string]struct {
		Version string   `yaml:"version"`
		Modules []string `yaml:"modules"`
	} `yaml:"module-sets"`
	Excluded []string `yaml:"excluded-modules"`
}

// mod is one module of the repository.
type mod struct {
	Path string // module path
	Dir  string // directory, relative to the root, slash-separated
}

// repo is a repository tree as versions.yaml describes it.
type repo struct {
	Root     string // absolute directory holding versions.yaml
	Set      string // the name of the one module set
	Version  string // its version, "vX.Y.Z"
	Released []mod  // the set's modules, in file order
	Excluded []mod  // the modules never tagged
}

// loadRepo reads root/versions.yaml. One module set only: the modules share
// one version (docs/modules.md says why).
func loadRepo(root string) (*repo, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	data, err := readBounded(filepath.Join(abs, "versions.yaml"), maxVersionsFile)
	if err != nil {
		return nil, err
	}
	var vf versionsFile
	if err := yaml.Unmarshal(data, &vf); err != nil {
		return nil, fmt.Errorf("versions.yaml: %w", err)
	}
	if len(vf.ModuleSets) != 1 {
		return nil, fmt.Errorf("versions.yaml: want exactly one module set, found %d", len(vf.ModuleSets))
	}
	r := &repo{Root: abs}
	seen := map[string]bool{}
	add := func(list *[]mod, p string) error {
		if seen[p] {
			return fmt.Errorf("versions.yaml: module %s is listed twice", p)
		}
		seen[p] = true
		dir, ok := strings.CutPrefix(p, repoPath+"/")
		if !ok || module.CheckPath(p) != nil {
			return fmt.Errorf("versions.yaml: %q is not a module path under %s", p, repoPath)
		}
		*list = append(*list, mod{Path: p, Dir: dir})
		return nil
	}
	for name, s := range vf.ModuleSets {
		r.Set = name
		if err := checkVersion(s.Version); err != nil && s.Version != "v0.0.0" {
			return nil, fmt.Errorf("versions.yaml: module set %s: %w", name, err)
		}
		r.Version = s.Version
		for _, p := range s.Modules {
			if err := add(&r.Released, p); err != nil {
				return nil, err
			}
		}
	}
	for _, p := range vf.Excluded {
		if err := add(&r.Excluded, p); err != nil {
			return nil, err
		}
	}
	if len(r.Released) == 0 {
		return nil, errors.New("versions.yaml: the module set lists no modules")
	}
	return r, nil
}

// all is every module of the repository, released ones first.
func (r *repo) all() []mod { return append(append([]mod(nil), r.Released...), r.Excluded...) }

// released reports whether path is a module of the set.
func (r *repo) released(path string) bool {
	for _, m := range r.Released {
		if m.Path == path {
			return true
		}
	}
	return false
}

// normalizeVersion turns "1.2.3" or "v1.2.3" into "v1.2.3" and checks it.
func normalizeVersion(v string) (string, error) {
	if !strings.HasPrefix(v, "v") {
		v = "v" + v
	}
	return v, checkVersion(v)
}

// checkVersion accepts what a module of this repository can be tagged with:
// a canonical semantic version (no build metadata, which the go command
// drops) with major version 0 or 1, since the module paths carry no /vN.
func checkVersion(v string) error {
	if !semver.IsValid(v) || semver.Canonical(v) != v {
		return fmt.Errorf("%q is not a semantic version of the form X.Y.Z or X.Y.Z-pre (no +build)", v)
	}
	if m := semver.Major(v); m != "v0" && m != "v1" {
		return fmt.Errorf("%s: major version %s needs /%s module paths; this repository's modules have none", v, m, m)
	}
	if v == "v0.0.0" {
		return fmt.Errorf("%s is the placeholder of an unreleased tree, not a release", v)
	}
	return nil
}

// versionLine is the version: line of the module set in versions.yaml.
var versionLine = regexp.MustCompile(`(?m)^(\s+version:\s*)(\S+)(.*)$`)

// setVersionsFile rewrites the version in versions.yaml, keeping its
// comments and layout.
func setVersionsFile(root, v string) error {
	name := filepath.Join(root, "versions.yaml")
	data, err := readBounded(name, maxVersionsFile)
	if err != nil {
		return err
	}
	locs := versionLine.FindAllSubmatchIndex(data, -1)
	if len(locs) != 1 {
		return fmt.Errorf("%s: want one version: line, found %d", name, len(locs))
	}
	l := locs[0]
	var b bytes.Buffer
	b.Write(data[:l[4]])
	b.WriteString(v)
	b.Write(data[l[5]:])
	return writeFile(name, b.Bytes())
}

// readBounded reads at most max bytes of a file, failing beyond.
func readBounded(name string, max int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: larger than %d bytes", name, max)
	}
	return data, nil
}

// writeFile replaces a file atomically: a temporary file renamed over it.
func writeFile(name string, data []byte) error {
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(name); err == nil {
		mode = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(filepath.Dir(name), ".release-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp, mode)
	}
	if werr == nil {
		werr = os.Rename(tmp, name)
	}
	if werr != nil {
		os.Remove(tmp)
	}
	return werr
}

// sortedPaths is the module paths of mods, sorted.
func sortedPaths(mods []mod) []string {
	var out []string
	for _, m := range mods {
		out = append(out, m.Path)
	}
	sort.Strings(out)
	return out
}
