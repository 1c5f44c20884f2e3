package selfupdate

import (
	"errors"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
)

// tree is a fixture file system: absolute slash paths to contents.
type tree map[string]string

func (t tree) readFile(path string, limit int) ([]byte, error) {
	data, ok := t[filepath.ToSlash(path)]
	if !ok {
		return nil, nil
	}
	if len(data) > limit {
		return nil, errors.New("file too large")
	}
	return []byte(data), nil
}

const wrapper = `{"name": "@agent-skills/cli", "version": "0.2.0", "bin": {"agent-skills": "bin/agent-skills.js"}}`

// platformExe is where the esbuild pattern puts the binary.
const platformExe = "node_modules/@agent-skills/cli-linux-x64/bin/agent-skills"

func goInstalled(version string, settings ...debug.BuildSetting) *debug.BuildInfo {
	return &debug.BuildInfo{Path: CommandPath, Main: debug.Module{Path: ModulePath, Version: version}, Settings: settings}
}

func TestDetect(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fixtures use unix paths")
	}
	for _, tc := range []struct {
		name    string
		exe     string
		version string
		env     map[string]string
		files   tree
		bi      *debug.BuildInfo
		prefix  string // what npm prefix -g answers; "" fails
		want    Install
		plan    []string // Program + Args, or the first manual line
	}{{
		name: "npm global", exe: "/usr/local/lib/" + platformExe, version: "0.2.0",
		env:    map[string]string{NPMPackageEnv: "/usr/local/lib/node_modules/@agent-skills/cli"},
		files:  tree{"/usr/local/lib/node_modules/@agent-skills/cli/package.json": wrapper},
		prefix: "/usr/local\n",
		want:   Install{Method: NPMGlobal, Package: "@agent-skills/cli", Version: "0.2.0"},
		plan:   []string{"npm", "install", "--global", "@agent-skills/cli@0.3.0"},
	}, {
		name: "npm local dependency", exe: "/p/" + platformExe, version: "0.2.0",
		env: map[string]string{NPMPackageEnv: "/p/node_modules/@agent-skills/cli"},
		files: tree{"/p/node_modules/@agent-skills/cli/package.json": wrapper,
			"/p/package.json": `{"dependencies": {"left-pad": "1.0.0", "@agent-skills/cli": "^0.2.0"}}`},
		want: Install{Method: NPMLocal, Package: "@agent-skills/cli", Project: "/p", Category: "dependencies", Spec: "^0.2.0", Manager: "npm", Version: "0.2.0"},
		plan: []string{"npm", "install", "--prefix", "/p", "--save-prod", "@agent-skills/cli@0.3.0"},
	}, {
		name: "npm local devDependency", exe: "/p/" + platformExe, version: "0.2.0",
		env: map[string]string{NPMPackageEnv: "/p/node_modules/@agent-skills/cli"},
		files: tree{"/p/node_modules/@agent-skills/cli/package.json": wrapper, "/p/package-lock.json": "{}", "/p/yarn.lock": "",
			"/p/package.json": `{"devDependencies": {"@agent-skills/cli": "~0.2.0"}}`},
		want: Install{Method: NPMLocal, Package: "@agent-skills/cli", Project: "/p", Category: "devDependencies", Spec: "~0.2.0", Manager: "npm", Version: "0.2.0"},
		plan: []string{"npm", "install", "--prefix", "/p", "--save-dev", "@agent-skills/cli@0.3.0"},
	}, {
		name: "npm local exact optionalDependency", exe: "/my proj/" + platformExe, version: "0.2.0",
		env: map[string]string{NPMPackageEnv: "/my proj/node_modules/@agent-skills/cli"},
		files: tree{"/my proj/node_modules/@agent-skills/cli/package.json": wrapper,
			"/my proj/package.json": `{"optionalDependencies": {"@agent-skills/cli": "0.2.0"}}`},
		want: Install{Method: NPMLocal, Package: "@agent-skills/cli", Project: "/my proj", Category: "optionalDependencies", Spec: "0.2.0", Exact: true, Manager: "npm", Version: "0.2.0"},
		plan: []string{"npm", "install", "--prefix", "/my proj", "--save-optional", "--save-exact", "@agent-skills/cli@0.3.0"},
	}, {
		name: "npm local in a pnpm project", exe: "/p/node_modules/.pnpm/x/" + platformExe, version: "0.2.0",
		env: map[string]string{NPMPackageEnv: "/p/node_modules/.pnpm/@agent-skills+cli@0.2.0/node_modules/@agent-skills/cli"},
		files: tree{"/p/node_modules/.pnpm/@agent-skills+cli@0.2.0/node_modules/@agent-skills/cli/package.json": wrapper,
			"/p/package.json": `{"devDependencies": {"@agent-skills/cli": "0.2.0"}}`, "/p/pnpm-lock.yaml": "x"},
		want: Install{Method: NPMLocal, Package: "@agent-skills/cli", Project: "/p", Category: "devDependencies", Spec: "0.2.0", Exact: true, Manager: "pnpm", Version: "0.2.0"},
		plan: []string{"cd /p"},
	}, {
		name: "npm local with a yarn lock", exe: "/p/" + platformExe, version: "0.2.0",
		env: map[string]string{NPMPackageEnv: "/p/node_modules/@agent-skills/cli"},
		files: tree{"/p/node_modules/@agent-skills/cli/package.json": wrapper, "/p/yarn.lock": "",
			"/p/package.json": `{"devDependencies": {"@agent-skills/cli": "^0.2.0"}}`},
		want: Install{Method: NPMLocal, Package: "@agent-skills/cli", Project: "/p", Category: "devDependencies", Spec: "^0.2.0", Manager: "yarn", Version: "0.2.0"},
		plan: []string{"cd /p"},
	}, {
		name: "npm local from a tarball spec", exe: "/p/" + platformExe, version: "0.2.0",
		env: map[string]string{NPMPackageEnv: "/p/node_modules/@agent-skills/cli"},
		files: tree{"/p/node_modules/@agent-skills/cli/package.json": wrapper,
			"/p/package.json": `{"dependencies": {"@agent-skills/cli": "file:../cli-0.2.0.tgz"}}`},
		prefix: "/usr/local",
		want:   Install{Method: NPMOther, Package: "@agent-skills/cli", Version: "0.2.0"},
		plan:   []string{"update the project or package that depends on @agent-skills/cli, or install it globally:"},
	}, {
		name: "npm indirect dependency", exe: "/p/" + platformExe, version: "0.2.0",
		env: map[string]string{NPMPackageEnv: "/p/node_modules/@agent-skills/cli"},
		files: tree{"/p/node_modules/@agent-skills/cli/package.json": wrapper,
			"/p/package.json": `{"dependencies": {"some-tool": "^1.0.0"}}`},
		prefix: "/usr/local",
		want:   Install{Method: NPMOther, Package: "@agent-skills/cli", Version: "0.2.0"},
		plan:   []string{"update the project or package that depends on @agent-skills/cli, or install it globally:"},
	}, {
		name: "npx cache", exe: "/home/u/.npm/_npx/3f2a/" + platformExe, version: "0.2.0",
		env: map[string]string{NPMPackageEnv: "/home/u/.npm/_npx/3f2a/node_modules/@agent-skills/cli"},
		files: tree{"/home/u/.npm/_npx/3f2a/node_modules/@agent-skills/cli/package.json": wrapper,
			"/home/u/.npm/_npx/3f2a/package.json": `{"dependencies": {"@agent-skills/cli": "^0.2.0"}}`},
		want: Install{Method: NPMOther, Package: "@agent-skills/cli", NPX: true, Version: "0.2.0"},
		plan: []string{"npx @agent-skills/cli@0.3.0 …"},
	}, {
		name: "npm variable inherited by a binary outside node_modules", exe: "/usr/local/bin/agent-skills", version: "0.2.0",
		env:  map[string]string{NPMPackageEnv: "/usr/local/lib/node_modules/@agent-skills/cli"},
		want: Install{Method: Archive, Version: "0.2.0"},
		plan: []string{"download https://github.com/agent-skills/agent-skills/releases/download/v0.3.0/agent-skills_0.3.0_linux_amd64.tar.gz"},
	}, {
		name: "npm prefix fails", exe: "/opt/x/" + platformExe, version: "0.2.0",
		env:   map[string]string{NPMPackageEnv: "/opt/x/node_modules/@agent-skills/cli"},
		files: tree{"/opt/x/node_modules/@agent-skills/cli/package.json": wrapper},
		want:  Install{Method: NPMOther, Package: "@agent-skills/cli", Version: "0.2.0"},
		plan:  []string{"update the project or package that depends on @agent-skills/cli, or install it globally:"},
	}, {
		name: "Homebrew from the tap", exe: "/opt/homebrew/Cellar/agent-skills/0.2.0/bin/agent-skills", version: "0.2.0",
		files: tree{"/opt/homebrew/Cellar/agent-skills/0.2.0/INSTALL_RECEIPT.json": `{"source": {"tap": "agent-skills/tap"}}`},
		want:  Install{Method: Homebrew, Version: "0.2.0", Formula: "agent-skills/tap/agent-skills", BrewPrefix: "/opt/homebrew"},
		plan:  []string{"/opt/homebrew/bin/brew", "upgrade", "agent-skills/tap/agent-skills"},
	}, {
		name: "Homebrew without a receipt, another formula name", exe: "/home/linuxbrew/.linuxbrew/Cellar/agent-skills-beta/0.3.0-rc.1/bin/agent-skills", version: "0.3.0-rc.1",
		want: Install{Method: Homebrew, Version: "0.3.0-rc.1", Formula: "agent-skills-beta", BrewPrefix: "/home/linuxbrew/.linuxbrew"},
		plan: []string{"/home/linuxbrew/.linuxbrew/bin/brew", "upgrade", "agent-skills-beta"},
	}, {
		name: "Homebrew receipt with a hostile tap", exe: "/usr/local/Cellar/agent-skills/0.2.0/bin/agent-skills", version: "0.2.0",
		files: tree{"/usr/local/Cellar/agent-skills/0.2.0/INSTALL_RECEIPT.json": `{"source": {"tap": "--force/x; rm -rf"}}`},
		want:  Install{Method: Homebrew, Version: "0.2.0", Formula: "agent-skills/tap/agent-skills", BrewPrefix: "/usr/local"},
		plan:  []string{"/usr/local/bin/brew", "upgrade", "agent-skills/tap/agent-skills"},
	}, {
		name: "go install into GOPATH/bin", exe: "/home/u/go/bin/agent-skills", version: "0.1.0-dev",
		bi:   goInstalled("v0.2.0"),
		want: Install{Method: GoInstall, Version: "v0.2.0"},
		plan: []string{"go install github.com/agent-skills/agent-skills/cli/cmd/agent-skills@v0.3.0"},
	}, {
		name: "go install into GOBIN", exe: "/tools/agent-skills", version: "0.1.0-dev",
		env:  map[string]string{"GOBIN": "/tools"},
		bi:   goInstalled("v0.2.0"),
		want: Install{Method: GoInstall, Version: "v0.2.0"},
		plan: []string{"go install github.com/agent-skills/agent-skills/cli/cmd/agent-skills@v0.3.0"},
	}, {
		name: "make install: go install in a checkout is a dev build", exe: "/home/u/go/bin/agent-skills", version: "0.1.0-dev",
		bi:   goInstalled("v0.0.0-20261201000000-abcdef012345", debug.BuildSetting{Key: "vcs.revision", Value: "abcdef0123456789"}),
		want: Install{Method: DevBuild},
		plan: []string{"in the checkout: git pull && make install"},
	}, {
		name: "go install of a devel build", exe: "/home/u/go/bin/agent-skills", version: "0.1.0-dev",
		bi:   goInstalled("(devel)"),
		want: Install{Method: DevBuild},
		plan: []string{"in the checkout: git pull && make install"},
	}, {
		name: "a release binary copied into GOPATH/bin", exe: "/home/u/go/bin/agent-skills", version: "0.2.0",
		bi:   goInstalled("(devel)", debug.BuildSetting{Key: "vcs.revision", Value: "abcdef0123456789"}),
		want: Install{Method: Archive, Version: "0.2.0"},
		plan: []string{"download https://github.com/agent-skills/agent-skills/releases/download/v0.3.0/agent-skills_0.3.0_linux_amd64.tar.gz"},
	}, {
		name: "release archive", exe: "/home/u/bin/agent-skills", version: "0.2.0",
		bi:   goInstalled("(devel)", debug.BuildSetting{Key: "vcs.revision", Value: "abcdef0123456789"}),
		want: Install{Method: Archive, Version: "0.2.0"},
		plan: []string{"download https://github.com/agent-skills/agent-skills/releases/download/v0.3.0/agent-skills_0.3.0_linux_amd64.tar.gz"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			prefixCalls := 0
			in := Inputs{
				Executable: tc.exe, Version: tc.version, UserHome: "/home/u", BuildInfo: tc.bi, GOOS: "linux",
				Getenv:   func(k string) string { return tc.env[k] },
				ReadFile: tc.files.readFile,
				NPMGlobalPrefix: func() (string, error) {
					prefixCalls++
					if tc.prefix == "" {
						return "", errors.New("npm: not found")
					}
					return tc.prefix, nil
				},
			}
			got, err := Detect(in)
			if err != nil {
				t.Fatalf("Detect() error %v", err)
			}
			if len(got.Evidence) == 0 {
				t.Errorf("Detect() gave no evidence")
			}
			tc.want.Executable, tc.want.Evidence = tc.exe, got.Evidence
			if tc.want.Package != "" && tc.want.PackageDir == "" {
				tc.want.PackageDir = tc.env[NPMPackageEnv]
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Detect() =\n  %+v\nwant\n  %+v", got, tc.want)
			}
			if got.Method == NPMLocal && prefixCalls > 0 {
				t.Errorf("Detect() ran npm prefix -g for a local install")
			}
			p := PlanFor(got, "0.3.0", "linux", "amd64")
			var line []string
			switch {
			case p.ProgramPath != "":
				line = append([]string{p.ProgramPath}, p.Args...)
			case p.Runnable():
				line = append([]string{p.Program}, p.Args...)
			default:
				line = p.Manual[:1]
				if p.Why == "" {
					t.Errorf("PlanFor(%s) is manual without a reason", got.Method)
				}
			}
			if !slices.Equal(line, tc.plan) {
				t.Errorf("PlanFor(%s) = %q, want %q", got.Method, line, tc.plan)
			}
		})
	}
}

func TestDetectBadNPMPackage(t *testing.T) {
	for name, files := range map[string]tree{
		"missing":  {},
		"not json": {"/p/node_modules/x/package.json": "{"},
		"bad name": {"/p/node_modules/x/package.json": `{"name": "x; rm -rf /"}`},
		"too big":  {"/p/node_modules/x/package.json": `{"name": "x", "pad": "` + strings.Repeat(" ", maxManifest) + `"}`},
	} {
		in := Inputs{Executable: "/p/node_modules/x-linux/bin/agent-skills", Version: "0.2.0", GOOS: "linux",
			Getenv:   func(k string) string { return map[string]string{NPMPackageEnv: "/p/node_modules/x"}[k] },
			ReadFile: files.readFile, NPMGlobalPrefix: func() (string, error) { return "/usr", nil }}
		if got, err := Detect(in); err == nil {
			t.Errorf("Detect(%s) = %+v, want an error", name, got)
		}
	}
}

func TestPlanManualInstructions(t *testing.T) {
	for _, tc := range []struct {
		inst         Install
		goos, goarch string
		want         []string
	}{
		{Install{Method: Archive, Executable: `C:\tools\agent-skills.exe`}, "windows", "arm64", []string{
			"download https://github.com/agent-skills/agent-skills/releases/download/v1.0.0/agent-skills_1.0.0_windows_arm64.zip",
			"download https://github.com/agent-skills/agent-skills/releases/download/v1.0.0/checksums.txt",
			"compare the output of: certutil -hashfile agent-skills_1.0.0_windows_arm64.zip SHA256 with the archive's line in checksums.txt",
			`unpack agent-skills_1.0.0_windows_arm64.zip and replace C:\tools\agent-skills.exe with the agent-skills.exe it holds`}},
		{Install{Method: Archive, Executable: "/usr/local/bin/agent-skills"}, "darwin", "arm64", []string{
			"download https://github.com/agent-skills/agent-skills/releases/download/v1.0.0/agent-skills_1.0.0_darwin_arm64.tar.gz",
			"download https://github.com/agent-skills/agent-skills/releases/download/v1.0.0/checksums.txt",
			"shasum -a 256 --check --ignore-missing checksums.txt",
			"unpack agent-skills_1.0.0_darwin_arm64.tar.gz and replace /usr/local/bin/agent-skills with the agent-skills it holds"}},
		{Install{Method: NPMLocal, Manager: "yarn", Project: "/my app", Package: "@a/cli", Category: "devDependencies", Exact: true}, "linux", "amd64",
			[]string{"cd '/my app'", "yarn add --dev --exact @a/cli@1.0.0"}},
		{Install{Method: NPMLocal, Manager: "bun", Project: "/p", Package: "cli", Category: "dependencies"}, "linux", "amd64",
			[]string{"cd /p", "bun add cli@1.0.0"}},
	} {
		got := PlanFor(tc.inst, "1.0.0", tc.goos, tc.goarch)
		if got.Runnable() || !slices.Equal(got.Manual, tc.want) {
			t.Errorf("PlanFor(%+v) = %q, want %q", tc.inst, got.Manual, tc.want)
		}
	}
}

func TestCommandLine(t *testing.T) {
	p := Plan{Program: "npm", Args: []string{"install", "--prefix", "/a b; echo x", "it's"}}
	if got, want := p.CommandLine(), `npm install --prefix '/a b; echo x' 'it'\''s'`; got != want {
		t.Errorf("CommandLine() = %s, want %s", got, want)
	}
}
