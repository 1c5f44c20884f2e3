package selfupdate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// versionTimeout bounds the new binary's `--version`, which only prints.
const versionTimeout = 30 * time.Second

// NewBinaries returns where the binary that inst's update installs will
// be, in the order the program that runs it looks: the first of them that
// exists is the one. When agent-skills cannot tell, it returns no path and
// the reason.
//
//   - npm: the launcher runs the binary of its platform package, which
//     Node resolves from the wrapper package's folder: FOLDER/node_modules/
//     PLATFORM, then the node_modules of each folder above it. PLATFORM is
//     the package this binary came from (…/node_modules/PLATFORM/bin/NAME).
//   - Homebrew: PREFIX/opt/FORMULA/bin/NAME, the link brew keeps to the
//     formula's installed keg (brew upgrade moves it to the new one).
func NewBinaries(inst Install) ([]string, string) {
	switch inst.Method {
	case NPMGlobal, NPMLocal:
		return npmBinaries(inst)
	case Homebrew:
		// Executable is PREFIX/Cellar/FORMULA/VERSION/bin/NAME (detectBrew).
		bin := filepath.Dir(inst.Executable)
		formula := filepath.Base(filepath.Dir(filepath.Dir(bin)))
		if inst.BrewPrefix == "" || filepath.Base(bin) != "bin" {
			return nil, inst.Executable + " is not in a Homebrew keg's bin folder"
		}
		return []string{filepath.Join(inst.BrewPrefix, "opt", formula, "bin", filepath.Base(inst.Executable))}, ""
	}
	return nil, fmt.Sprintf("agent-skills does not update a %s installation itself", inst.Method)
}

// npmBinaries is NewBinaries for an npm install.
func npmBinaries(inst Install) ([]string, string) {
	elems := strings.Split(filepath.ToSlash(inst.Executable), "/")
	n := len(elems)
	var pkg []string
	for i := n - 3; i >= 0; i-- {
		if elems[i] == "node_modules" {
			pkg = elems[i+1 : n-2]
			break
		}
	}
	scoped := len(pkg) == 2 && strings.HasPrefix(pkg[0], "@")
	if n < 4 || elems[n-2] != "bin" || !(len(pkg) == 1 || scoped) || inst.PackageDir == "" {
		return nil, inst.Executable + " is not the bin folder of a package in node_modules, so the platform package that holds the binary is unknown"
	}
	name := filepath.Join(append(pkg, "bin", elems[n-1])...)
	var out []string
	for dir := filepath.Clean(inst.PackageDir); ; dir = filepath.Dir(dir) {
		if filepath.Base(dir) != "node_modules" {
			out = append(out, filepath.Join(dir, "node_modules", name))
		}
		if filepath.Dir(dir) == dir {
			return out, ""
		}
	}
}

// FindBinary returns the first of paths that is a file, or "".
func FindBinary(paths []string) string {
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
	}
	return ""
}

// BinaryVersion runs bin --version, as an argument array without a shell
// and with a timeout, and returns the version it reports (ParseVersion)
// and what it printed. The update notifier is switched off for it.
func BinaryVersion(ctx context.Context, bin string) (version, printed string, err error) {
	ctx, cancel := context.WithTimeout(ctx, versionTimeout)
	defer cancel()
	var out limitedBuffer
	cmd := exec.CommandContext(ctx, bin, "--version")
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.Env = append(os.Environ(), "AGENT_SKILLS_NO_UPDATE_NOTIFIER=1")
	cmd.WaitDelay = time.Second
	err = cmd.Run()
	printed = strings.TrimSpace(out.String())
	if ctx.Err() == context.DeadlineExceeded {
		return "", printed, fmt.Errorf("%s --version did not finish within %s", bin, versionTimeout)
	}
	if err != nil {
		return "", printed, fmt.Errorf("%s --version: %w", bin, err)
	}
	v, ok := ParseVersion(printed)
	if !ok {
		return "", printed, errors.New(bin + " --version printed no agent-skills version")
	}
	return v, printed, nil
}

// ParseVersion reads the version from what `agent-skills --version`
// prints, "agent-skills 0.2.0 (abc1234, 2026-12-01)": the second word of
// the first line, without a leading "v".
func ParseVersion(printed string) (string, bool) {
	fields := strings.Fields(firstLine(strings.TrimSpace(printed)))
	if len(fields) < 2 || fields[0] != "agent-skills" {
		return "", false
	}
	return strings.TrimPrefix(fields[1], "v"), true
}
