// Package benchreg generates registries of small skills for the install
// benchmarks of issue 15: a local folder registry (registry/skills.yaml
// and one package folder per skill) and the same skills as an HTTP
// registry (index.json and one .tar.gz per skill) that a loopback server
// can serve. Only benchmarks and scripts/bench-registry.sh use it.
package benchreg

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/registry"
)

// Name returns the name of the i-th generated skill.
func Name(i int) string { return fmt.Sprintf("bench-skill-%05d", i) }

// files returns the files of one generated skill: skill.yaml, SKILL.md and
// a ~15 KiB reference, about 17 KiB in all, the payload size.
func files(i int) map[string][]byte {
	name := Name(i)
	ref := strings.Repeat(fmt.Sprintf("Reference line for %s: what the skill knows, written out at length.\n", name), 200)
	return map[string][]byte{
		"skill.yaml":          fmt.Appendf(nil, "schemaVersion: 1\nname: %s\nversion: 1.0.0\ndescription: Benchmark skill number %d. Use when measuring install speed.\nlicense: MIT\nfiles:\n  - SKILL.md\n  - references\n", name, i),
		"SKILL.md":            fmt.Appendf(nil, "---\nname: %s\ndescription: Benchmark skill number %d. Use when measuring install speed.\n---\n\n# %s\n\nFollow the reference in references/guide.md.\n", name, i, name),
		"references/guide.md": []byte(ref),
	}
}

// Generate writes n skills below dir: a local registry at dir/local
// (registry/skills.yaml) and an HTTP registry at dir/http (index.json and
// tarballs/), and returns the skills' names.
func Generate(dir string, n int) ([]string, error) {
	local := filepath.Join(dir, "local")
	httpDir := filepath.Join(dir, "http")
	for _, d := range []string{filepath.Join(local, "registry"), filepath.Join(httpDir, "tarballs")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	var yml bytes.Buffer
	yml.WriteString("schemaVersion: 1\nname: bench\nskills:\n")
	type ver struct {
		Version   string `json:"version"`
		Tarball   string `json:"tarball"`
		Integrity string `json:"integrity"`
	}
	type skill struct {
		Name        string `json:"name"`
		Description string `json:"description"`
		Versions    []ver  `json:"versions"`
	}
	var idx struct {
		SchemaVersion int     `json:"schemaVersion"`
		Name          string  `json:"name"`
		Skills        []skill `json:"skills"`
	}
	idx.SchemaVersion, idx.Name = 1, "bench"
	names := make([]string, 0, n)
	for i := range n {
		name := Name(i)
		names = append(names, name)
		pkgDir := filepath.Join(local, "skills", name)
		for p, data := range files(i) {
			f := filepath.Join(pkgDir, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
				return nil, err
			}
			if err := os.WriteFile(f, data, 0o644); err != nil {
				return nil, err
			}
		}
		pkg, diags := format.Load(os.DirFS(pkgDir), format.LoadOptions{})
		if diags.HasErrors() {
			return nil, fmt.Errorf("%s: %v", name, diags)
		}
		sum, err := format.Digest(pkg.FS, pkg.Files)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&yml, "  - name: %s\n    description: Benchmark skill number %d.\n    versions:\n      - version: 1.0.0\n        path: skills/%s\n        integrity: %s\n", name, i, name, sum)
		var tgz bytes.Buffer
		if err := registry.Pack(pkg.FS, pkg.Files, &tgz); err != nil {
			return nil, err
		}
		tb := "tarballs/" + name + "-1.0.0.tar.gz"
		if err := os.WriteFile(filepath.Join(httpDir, filepath.FromSlash(tb)), tgz.Bytes(), 0o644); err != nil {
			return nil, err
		}
		idx.Skills = append(idx.Skills, skill{Name: name, Description: fmt.Sprintf("Benchmark skill number %d.", i), Versions: []ver{{"1.0.0", tb, sum}}})
	}
	if err := os.WriteFile(filepath.Join(local, "registry", "skills.yaml"), yml.Bytes(), 0o644); err != nil {
		return nil, err
	}
	data, err := json.Marshal(idx)
	if err != nil {
		return nil, err
	}
	return names, os.WriteFile(filepath.Join(httpDir, "index.json"), data, 0o644)
}
