package selfupdate

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Plan is what replaces the binary with a release: a command agent-skills
// runs, or instructions for the user.
type Plan struct {
	// Program is the program to run, "npm" or "brew"; empty when the
	// method is manual.
	Program string `json:"program,omitempty"`
	// ProgramPath is the program's absolute path when the installation
	// names it (the brew of the Cellar's prefix); otherwise the caller
	// finds Program on PATH.
	ProgramPath string `json:"programPath,omitempty"`
	// Args are the program's arguments, passed as they are, without a
	// shell.
	Args []string `json:"args,omitempty"`
	// Dir is the folder the command runs in, when it matters.
	Dir string `json:"dir,omitempty"`
	// Manual holds the steps for the user when agent-skills cannot do the
	// update itself: commands to run, one per line, or sentences.
	Manual []string `json:"manual,omitempty"`
	// Why says, for a manual plan, why agent-skills does not run it.
	Why string `json:"why,omitempty"`
}

// Runnable reports whether agent-skills runs the plan itself.
func (p Plan) Runnable() bool { return p.Program != "" }

// CommandLine is the plan's command as one line for people: each
// argument quoted when it holds a space or a character a shell treats
// specially. It is for display only; Run never passes it to a shell.
func (p Plan) CommandLine() string {
	parts := make([]string, 0, len(p.Args)+1)
	for _, a := range append([]string{p.Program}, p.Args...) {
		parts = append(parts, quote(a))
	}
	return strings.Join(parts, " ")
}

// quote quotes s for a POSIX shell when it needs quoting.
func quote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n\"'\\$`;&|<>()*?[]{}#~!") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ArchiveName is the release archive of version for goos/goarch.
func ArchiveName(version, goos, goarch string) string {
	ext := ".tar.gz"
	if goos == "windows" {
		ext = ".zip"
	}
	return fmt.Sprintf("agent-skills_%s_%s_%s%s", version, goos, goarch, ext)
}

// DownloadURL is the address of a release asset.
func DownloadURL(version, asset string) string {
	return Repository + "/releases/download/v" + version + "/" + asset
}

// PlanFor returns what moves inst to version (without a leading "v") on
// goos/goarch.
func PlanFor(inst Install, version, goos, goarch string) Plan {
	switch inst.Method {
	case NPMGlobal:
		return Plan{Program: "npm", Args: []string{"install", "--global", inst.Package + "@" + version}}
	case NPMLocal:
		flag := "--save-prod"
		for _, c := range categories {
			if c.key == inst.Category {
				flag = c.flag
			}
		}
		if inst.Manager != "" && inst.Manager != "npm" {
			return Plan{Why: fmt.Sprintf("the project %s is managed by %s, whose commands agent-skills does not run", inst.Project, inst.Manager),
				Manual: []string{"cd " + quote(inst.Project), otherManager(inst, version)}}
		}
		args := []string{"install", "--prefix", inst.Project, flag}
		if inst.Exact {
			args = append(args, "--save-exact")
		}
		return Plan{Program: "npm", Args: append(args, inst.Package+"@"+version), Dir: inst.Project}
	case NPMOther:
		if inst.NPX {
			return Plan{Why: "npx runs packages from its cache; there is no installation to update",
				Manual: []string{"npx " + quote(inst.Package+"@"+version) + " …", "or install it: npm install --global " + quote(inst.Package+"@"+version)}}
		}
		if inst.Package == "" {
			return Plan{Why: "the npm launcher's package folder cannot be read", Manual: []string{"npm install --global <package>@" + version}}
		}
		return Plan{Why: fmt.Sprintf("%s is neither installed globally nor a direct dependency of a project's package.json", inst.PackageDir),
			Manual: []string{"update the project or package that depends on " + inst.Package + ", or install it globally:",
				"npm install --global " + quote(inst.Package+"@"+version)}}
	case Homebrew:
		return Plan{Program: "brew", ProgramPath: filepath.Join(inst.BrewPrefix, "bin", "brew"), Args: []string{"upgrade", inst.Formula}}
	case GoInstall:
		return Plan{Why: "agent-skills does not run the go toolchain",
			Manual: []string{"go install " + CommandPath + "@v" + version}}
	case DevBuild:
		archive := ArchiveName(version, goos, goarch)
		return Plan{Why: "this is a development build (make install or go build in a checkout)",
			Manual: []string{"in the checkout: git pull && make install",
				"or install the release: download " + DownloadURL(version, archive) + " and " + DownloadURL(version, "checksums.txt") +
					", check the archive's sha256 against checksums.txt, and replace " + inst.Executable + " with the agent-skills binary it holds"}}
	}
	archive := ArchiveName(version, goos, goarch)
	manual := []string{
		"download " + DownloadURL(version, archive),
		"download " + DownloadURL(version, "checksums.txt"),
	}
	switch goos {
	case "windows":
		manual = append(manual, "compare the output of: certutil -hashfile "+archive+" SHA256 with the archive's line in checksums.txt")
	case "darwin":
		manual = append(manual, "shasum -a 256 --check --ignore-missing checksums.txt")
	default:
		manual = append(manual, "sha256sum --check --ignore-missing checksums.txt")
	}
	bin := "agent-skills"
	if goos == "windows" {
		bin += ".exe"
	}
	manual = append(manual, "unpack "+archive+" and replace "+inst.Executable+" with the "+bin+" it holds")
	return Plan{Why: "a release archive is replaced by hand", Manual: manual}
}

// otherManager is the command of a pnpm, yarn or bun project that keeps
// the dependency's category and exactness.
func otherManager(inst Install, version string) string {
	pkg := quote(inst.Package + "@" + version)
	var flag string
	switch inst.Category {
	case "devDependencies":
		flag = map[string]string{"pnpm": " --save-dev", "yarn": " --dev", "bun": " --dev"}[inst.Manager]
	case "optionalDependencies":
		flag = map[string]string{"pnpm": " --save-optional", "yarn": " --optional", "bun": " --optional"}[inst.Manager]
	}
	if inst.Exact {
		flag += map[string]string{"pnpm": " --save-exact", "yarn": " --exact", "bun": " --exact"}[inst.Manager]
	}
	return inst.Manager + " add" + flag + " " + pkg
}
