package selfupdate

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
)

// categories are the dependency lists of package.json that npm install
// can save to, with the flag that keeps a package in each.
var categories = []struct{ key, flag string }{
	{"dependencies", "--save-prod"},
	{"devDependencies", "--save-dev"},
	{"optionalDependencies", "--save-optional"},
}

// exactSpec is a spec naming one version: "1.2.3", "=1.2.3", "v1.2.3-rc.1".
var exactSpec = regexp.MustCompile(`^=?v?\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)

// npmName is a package name npm accepts: lower case, URL-safe, optionally
// scoped.
var npmName = regexp.MustCompile(`^(@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*$`)

// detectNPM reads the wrapper package the launcher named and places it:
// PROJECT/node_modules/NAME listed in PROJECT/package.json is a local
// install, PREFIX/lib/node_modules/NAME (PREFIX/node_modules/NAME on
// Windows) under `npm prefix -g` a global one.
func detectNPM(in Inputs, inst Install, dir string) (Install, error) {
	inst.Method = NPMOther
	if !filepath.IsAbs(dir) {
		inst.Evidence = append(inst.Evidence, fmt.Sprintf("%s=%q is not an absolute path", NPMPackageEnv, dir))
		return inst, nil
	}
	dir = resolve(in, filepath.Clean(dir))
	manifest := filepath.Join(dir, "package.json")
	data, err := in.ReadFile(manifest, maxManifest)
	if err != nil {
		return inst, fmt.Errorf("cannot read the npm package's %s: %w", manifest, err)
	}
	if data == nil {
		return inst, fmt.Errorf("%s names %s, which has no package.json", NPMPackageEnv, dir)
	}
	var pj struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	}
	if err := json.Unmarshal(data, &pj); err != nil {
		return inst, fmt.Errorf("%s is not valid JSON: %w", manifest, err)
	}
	if len(pj.Name) > 214 || !npmName.MatchString(pj.Name) {
		return inst, fmt.Errorf("%s: %q is not an npm package name", manifest, pj.Name)
	}
	inst.Package, inst.PackageDir = pj.Name, dir
	if exactSpec.MatchString(pj.Version) {
		inst.Version = strings.TrimLeft(pj.Version, "=v")
	}
	inst.Evidence = append(inst.Evidence, fmt.Sprintf("the npm launcher ran this binary for the package %s %s in %s", pj.Name, inst.Version, dir))

	base, ok := aboveNodeModules(dir, pj.Name)
	if !ok {
		inst.Evidence = append(inst.Evidence, fmt.Sprintf("%s is not %s's folder in a node_modules folder: not a layout npm install makes", dir, pj.Name))
		return inst, nil
	}
	if hasElem(base, "_npx") {
		inst.NPX = true
		inst.Evidence = append(inst.Evidence, fmt.Sprintf("%s is in npx's cache (_npx): npx runs it without installing it", dir))
		return inst, nil
	}
	if project, ok := pnpmProject(base); ok {
		// PROJECT/node_modules/.pnpm/NAME@V/node_modules/NAME
		base = project
		inst.Manager = "pnpm"
		inst.Evidence = append(inst.Evidence, "the package is in a pnpm store (node_modules/.pnpm) of "+project)
	}
	if listed, err := projectDependency(in, &inst, base); err != nil {
		return inst, err
	} else if listed {
		return inst, nil
	}
	if inst.Manager != "" {
		return inst, nil
	}

	prefix, err := in.NPMGlobalPrefix()
	if err != nil {
		inst.Evidence = append(inst.Evidence, "npm prefix -g failed, so a global install cannot be recognised: "+err.Error())
		return inst, nil
	}
	prefix = filepath.Clean(strings.TrimSpace(prefix))
	root := filepath.Join(prefix, "lib")
	if in.GOOS == "windows" {
		root = prefix
	}
	if base == root || base == resolve(in, root) {
		inst.Method = NPMGlobal
		inst.Evidence = append(inst.Evidence, fmt.Sprintf("%s is in the global node_modules of npm prefix -g (%s)", dir, prefix))
		return inst, nil
	}
	inst.Evidence = append(inst.Evidence, fmt.Sprintf("%s is neither a dependency listed in %s nor in the global node_modules of npm prefix -g (%s)",
		dir, filepath.Join(base, "package.json"), prefix))
	return inst, nil
}

// projectDependency reads base/package.json and, when it lists
// inst.Package in a dependency category with a registry version spec,
// records a local install.
func projectDependency(in Inputs, inst *Install, base string) (bool, error) {
	manifest := filepath.Join(base, "package.json")
	data, err := in.ReadFile(manifest, maxManifest)
	if err != nil {
		return false, fmt.Errorf("cannot read the project's %s: %w", manifest, err)
	}
	if data == nil {
		return false, nil
	}
	var deps map[string]json.RawMessage
	if err := json.Unmarshal(data, &deps); err != nil {
		return false, fmt.Errorf("%s is not valid JSON: %w", manifest, err)
	}
	for _, c := range categories {
		var list map[string]string
		if raw, ok := deps[c.key]; !ok || json.Unmarshal(raw, &list) != nil {
			continue
		}
		spec, ok := list[inst.Package]
		if !ok {
			continue
		}
		if !registrySpec(spec) {
			inst.Evidence = append(inst.Evidence, fmt.Sprintf("%s lists %s in %s as %q, which is not a version from the registry", manifest, inst.Package, c.key, spec))
			return true, nil
		}
		inst.Method, inst.Project, inst.Category, inst.Spec = NPMLocal, base, c.key, spec
		inst.Exact = exactSpec.MatchString(spec)
		inst.Evidence = append(inst.Evidence, fmt.Sprintf("%s lists %s in %s as %q", manifest, inst.Package, c.key, spec))
		if inst.Manager == "" {
			inst.Manager = lockManager(in, base)
			if inst.Manager != "npm" {
				inst.Evidence = append(inst.Evidence, fmt.Sprintf("the project has a %s lock file and no package-lock.json", inst.Manager))
			}
		}
		return true, nil
	}
	return false, nil
}

// registrySpec reports whether spec is a version or range from the
// registry, not an alias, a tag, a path, a git or tarball URL.
func registrySpec(spec string) bool {
	if spec == "" || strings.ContainsAny(spec, ":/") {
		return false
	}
	return strings.ContainsAny(spec, "0123456789*") || spec == "latest"
}

// lockManager names the package manager whose lock file the project has:
// npm when package-lock.json (or no lock file) is there.
func lockManager(in Inputs, project string) string {
	if exists(in, filepath.Join(project, "package-lock.json")) || exists(in, filepath.Join(project, "npm-shrinkwrap.json")) {
		return "npm"
	}
	for _, l := range []struct{ file, manager string }{
		{"pnpm-lock.yaml", "pnpm"}, {"yarn.lock", "yarn"}, {"bun.lock", "bun"}, {"bun.lockb", "bun"},
	} {
		if exists(in, filepath.Join(project, l.file)) {
			return l.manager
		}
	}
	return "npm"
}

// exists reports whether path is there: ReadFile with no room says nil
// for a missing file and "too large" (or another error) for anything else.
func exists(in Inputs, path string) bool {
	data, err := in.ReadFile(path, 0)
	return err != nil || data != nil
}

// aboveNodeModules returns BASE for dir = BASE/node_modules/NAME.
func aboveNodeModules(dir, name string) (string, bool) {
	suffix := string(filepath.Separator) + filepath.Join("node_modules", filepath.FromSlash(name))
	base, ok := strings.CutSuffix(dir, suffix)
	if !ok || base == "" {
		return "", false
	}
	return base, true
}

// pnpmProject returns PROJECT for base = PROJECT/node_modules/.pnpm/ENTRY.
func pnpmProject(base string) (string, bool) {
	entry := filepath.Dir(base)
	if filepath.Base(entry) != ".pnpm" || filepath.Base(filepath.Dir(entry)) != "node_modules" {
		return "", false
	}
	return filepath.Dir(filepath.Dir(entry)), true
}

// hasElem reports whether one of path's folders is named name.
func hasElem(path, name string) bool {
	for _, e := range strings.Split(filepath.ToSlash(path), "/") {
		if e == name {
			return true
		}
	}
	return false
}

// resolve resolves path's symbolic links when it can.
func resolve(in Inputs, path string) string {
	if in.EvalSymlinks == nil {
		return path
	}
	if r, err := in.EvalSymlinks(path); err == nil {
		return r
	}
	return path
}
