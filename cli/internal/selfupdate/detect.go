package selfupdate

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"strings"
)

// ModulePath is the Go module that holds the command.
const ModulePath = "github.com/agent-skills/agent-skills/cli"

// CommandPath is the package `go install` builds.
const CommandPath = ModulePath + "/cmd/agent-skills"

// Repository is where the releases are published.
const Repository = "https://github.com/agent-skills/agent-skills"

// Formula is the Homebrew formula of the project's tap.
const Formula = "agent-skills/tap/agent-skills"

// NPMPackageEnv names the variable the npm launcher sets to the absolute
// path of the wrapper package's folder.
const NPMPackageEnv = "AGENT_SKILLS_NPM_PACKAGE"

// maxManifest bounds every package.json and Homebrew receipt read.
const maxManifest = 1 << 20

// Method is a way agent-skills was installed.
type Method string

// The installation methods Detect tells apart.
const (
	NPMGlobal Method = "npm-global" // npm install -g
	NPMLocal  Method = "npm-local"  // a direct dependency of a project
	NPMOther  Method = "npm"        // npx's cache, an indirect dependency
	Homebrew  Method = "homebrew"
	GoInstall Method = "go-install"
	DevBuild  Method = "dev-build" // make install, go build in a checkout
	Archive   Method = "archive"   // a release archive, unpacked by hand
)

// Inputs is everything Detect looks at.
type Inputs struct {
	// Executable is this binary's path, symbolic links resolved.
	Executable string
	// Version is the version the binary was built as (cli.Version).
	Version string
	// Getenv reads the environment.
	Getenv func(string) string
	// UserHome is the user's home folder, for GOPATH's default.
	UserHome string
	// BuildInfo is what the Go toolchain recorded; nil when none.
	BuildInfo *debug.BuildInfo
	// ReadFile reads at most limit bytes of a file: nil and no error when
	// it does not exist, an error past limit (atomicfile.ReadPlain).
	ReadFile func(path string, limit int) ([]byte, error)
	// EvalSymlinks resolves a path's symbolic links; nil leaves paths as
	// they are.
	EvalSymlinks func(string) (string, error)
	// NPMGlobalPrefix runs `npm prefix -g`; called only for an npm
	// install that is not a project's dependency.
	NPMGlobalPrefix func() (string, error)
	// GOOS is the operating system (runtime.GOOS).
	GOOS string
}

// Install is how the binary was installed, and why Detect thinks so.
type Install struct {
	Method Method `json:"method"`
	// Evidence lists the facts Detect based Method on, one sentence each.
	Evidence []string `json:"evidence"`
	// Executable is the binary's path.
	Executable string `json:"executable"`
	// Version is the installed version the evidence shows (the Cellar's,
	// the build information's, package.json's), when it shows one.
	Version string `json:"version,omitempty"`

	// Package is the npm wrapper package's name; PackageDir its folder.
	Package    string `json:"npmPackage,omitempty"`
	PackageDir string `json:"npmPackageDir,omitempty"`
	// Project is the folder whose package.json lists Package (NPMLocal).
	Project string `json:"project,omitempty"`
	// Category is the dependency list of package.json that lists Package:
	// dependencies, devDependencies or optionalDependencies.
	Category string `json:"category,omitempty"`
	// Spec is the version spec package.json gives; Exact says it names one
	// version (npm install --save-exact keeps that).
	Spec  string `json:"spec,omitempty"`
	Exact bool   `json:"exact,omitempty"`
	// Manager is the package manager of the project: npm, or pnpm, yarn or
	// bun, whose commands agent-skills does not run.
	Manager string `json:"manager,omitempty"`
	// NPX is set for a package in npx's cache.
	NPX bool `json:"npx,omitempty"`

	// Formula is the Homebrew formula to upgrade and BrewPrefix the
	// prefix whose Cellar holds the binary.
	Formula    string `json:"formula,omitempty"`
	BrewPrefix string `json:"brewPrefix,omitempty"`
}

// Detect tells how the binary was installed. It fails only when the npm
// launcher's evidence cannot be read (a package.json too large or not
// JSON), which a person must look at.
func Detect(in Inputs) (Install, error) {
	inst := Install{Executable: in.Executable}
	if dir := strings.TrimSpace(in.Getenv(NPMPackageEnv)); dir != "" {
		if insideNodeModules(in.Executable) {
			return detectNPM(in, inst, dir)
		}
		inst.Evidence = append(inst.Evidence, fmt.Sprintf("%s is set, but %s is not inside a node_modules folder: the variable was inherited, not set by the npm launcher for this binary", NPMPackageEnv, in.Executable))
	}
	if ok := detectBrew(in, &inst); ok {
		return inst, nil
	}
	if ok := detectGoInstall(in, &inst); ok {
		return inst, nil
	}
	if strings.Contains(in.Version, "-dev") || in.Version == "" {
		inst.Method = DevBuild
		inst.Evidence = append(inst.Evidence, fmt.Sprintf("version %q is a development version: the binary was built from a checkout (make install, go build), not released", in.Version))
		if rev := setting(in.BuildInfo, "vcs.revision"); rev != "" {
			inst.Evidence = append(inst.Evidence, "the build information records the commit "+rev)
		}
		return inst, nil
	}
	inst.Method = Archive
	inst.Version = in.Version
	inst.Evidence = append(inst.Evidence, fmt.Sprintf("release %s, not in a Homebrew Cellar, not installed by npm or go install: a release archive unpacked by hand", in.Version))
	return inst, nil
}

// detectBrew recognises PREFIX/Cellar/FORMULA/VERSION/bin/agent-skills and
// reads the formula's tap from the keg's INSTALL_RECEIPT.json.
func detectBrew(in Inputs, inst *Install) bool {
	elems := strings.Split(filepath.ToSlash(in.Executable), "/")
	for i := len(elems) - 5; i >= 0; i-- {
		if elems[i] != "Cellar" || elems[i+3] != "bin" || i+5 != len(elems) {
			continue
		}
		formula, version := elems[i+1], elems[i+2]
		if !plainName(formula) || !plainName(version) {
			continue
		}
		prefix := filepath.FromSlash(strings.Join(elems[:i], "/"))
		if prefix == "" {
			prefix = string(filepath.Separator)
		}
		inst.Method, inst.Version, inst.BrewPrefix = Homebrew, version, prefix
		inst.Evidence = append(inst.Evidence, fmt.Sprintf("%s is in the Homebrew Cellar of %s: formula %s, version %s", in.Executable, prefix, formula, version))
		keg := filepath.Join(prefix, "Cellar", formula, version)
		tap := ""
		if data, err := in.ReadFile(filepath.Join(keg, "INSTALL_RECEIPT.json"), maxManifest); err == nil && data != nil {
			var receipt struct {
				Source struct {
					Tap string `json:"tap"`
				} `json:"source"`
			}
			if json.Unmarshal(data, &receipt) == nil && validTap(receipt.Source.Tap) {
				tap = receipt.Source.Tap
				inst.Evidence = append(inst.Evidence, "its INSTALL_RECEIPT.json names the tap "+tap)
			}
		}
		switch {
		case tap == "homebrew/core":
			inst.Formula = formula
		case tap != "":
			inst.Formula = tap + "/" + formula
		case formula == "agent-skills":
			inst.Formula = Formula
		default:
			inst.Formula = formula
		}
		return true
	}
	return false
}

// validTap accepts USER/REPO of letters, digits, '-', '_' and '.'.
func validTap(tap string) bool {
	user, repo, ok := strings.Cut(tap, "/")
	return ok && plainName(user) && plainName(repo)
}

// plainName is a non-empty name of letters, digits, '-', '_', '.' and '@'
// that does not start with '-' or '.'.
func plainName(s string) bool {
	if s == "" || s[0] == '-' || s[0] == '.' || len(s) > 214 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.@", r)) {
			return false
		}
	}
	return true
}

// detectGoInstall recognises `go install …@vX.Y.Z`: the build information
// names this module at a released version, with no version-control stamp
// (a build in a checkout has one), and the binary is in GOBIN or
// GOPATH/bin.
func detectGoInstall(in Inputs, inst *Install) bool {
	bi := in.BuildInfo
	if bi == nil || bi.Main.Path != ModulePath || bi.Path != CommandPath {
		return false
	}
	v := bi.Main.Version
	if v == "" || v == "(devel)" || setting(bi, "vcs.revision") != "" || strings.Contains(v, "+dirty") {
		return false
	}
	dir := filepath.Dir(in.Executable)
	var bins []string
	if gobin := in.Getenv("GOBIN"); gobin != "" {
		bins = append(bins, gobin)
	} else {
		gopath := in.Getenv("GOPATH")
		if gopath == "" && in.UserHome != "" {
			gopath = filepath.Join(in.UserHome, "go")
		}
		for _, p := range filepath.SplitList(gopath) {
			bins = append(bins, filepath.Join(p, "bin"))
		}
	}
	for _, b := range bins {
		if b == "" {
			continue
		}
		if in.EvalSymlinks != nil {
			if r, err := in.EvalSymlinks(b); err == nil {
				b = r
			}
		}
		if filepath.Clean(b) == dir {
			inst.Method, inst.Version = GoInstall, v
			inst.Evidence = append(inst.Evidence,
				fmt.Sprintf("the build information names %s@%s with no version-control stamp: built by go install from the module proxy", CommandPath, v),
				fmt.Sprintf("%s is in %s, where go install puts binaries", in.Executable, b))
			return true
		}
	}
	return false
}

// setting returns the build setting key, or "".
func setting(bi *debug.BuildInfo, key string) string {
	if bi == nil {
		return ""
	}
	for _, s := range bi.Settings {
		if s.Key == key {
			return s.Value
		}
	}
	return ""
}

// insideNodeModules reports whether a folder of path is node_modules.
func insideNodeModules(path string) bool {
	for _, e := range strings.Split(filepath.ToSlash(path), "/") {
		if e == "node_modules" {
			return true
		}
	}
	return false
}
