package selfupdate

import (
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestNewBinaries(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fixtures use unix paths")
	}
	for _, tc := range []struct {
		name string
		inst Install
		want []string
		why  string // a part of the reason, when want is empty
	}{{
		name: "npm global, the platform package beside the wrapper or inside it",
		inst: Install{Method: NPMGlobal, Executable: "/usr/local/lib/" + platformExe, PackageDir: "/usr/local/lib/node_modules/@agent-skills/cli"},
		want: []string{
			"/usr/local/lib/node_modules/@agent-skills/cli/" + platformExe,
			"/usr/local/lib/node_modules/@agent-skills/" + platformExe,
			"/usr/local/lib/" + platformExe,
			"/usr/local/" + platformExe,
			"/usr/" + platformExe,
			"/" + platformExe,
		},
	}, {
		name: "npm local, an unscoped platform package",
		inst: Install{Method: NPMLocal, Executable: "/p/node_modules/cli-darwin-arm64/bin/agent-skills", PackageDir: "/p/node_modules/cli"},
		want: []string{"/p/node_modules/cli/node_modules/cli-darwin-arm64/bin/agent-skills", "/p/node_modules/cli-darwin-arm64/bin/agent-skills", "/node_modules/cli-darwin-arm64/bin/agent-skills"},
	}, {
		name: "npm, a binary outside a package's bin folder",
		inst: Install{Method: NPMGlobal, Executable: "/usr/local/lib/node_modules/odd/agent-skills", PackageDir: "/usr/local/lib/node_modules/@agent-skills/cli"},
		why:  "is not the bin folder of a package in node_modules",
	}, {
		name: "npm, a package three folders deep is no package",
		inst: Install{Method: NPMGlobal, Executable: "/l/node_modules/a/b/bin/agent-skills", PackageDir: "/l/node_modules/@agent-skills/cli"},
		why:  "is not the bin folder of a package in node_modules",
	}, {
		name: "homebrew, the opt link of the formula",
		inst: Install{Method: Homebrew, Executable: "/opt/homebrew/Cellar/agent-skills/0.1.0/bin/agent-skills", BrewPrefix: "/opt/homebrew", Formula: "agent-skills/tap/agent-skills"},
		want: []string{"/opt/homebrew/opt/agent-skills/bin/agent-skills"},
	}, {
		name: "go install is not run by agent-skills",
		inst: Install{Method: GoInstall, Executable: "/home/u/go/bin/agent-skills"},
		why:  "does not update a go-install installation itself",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got, why := NewBinaries(tc.inst)
			if !slices.Equal(got, tc.want) {
				t.Errorf("NewBinaries() = %q, want %q", got, tc.want)
			}
			if len(tc.want) == 0 && (why == "" || !strings.Contains(why, tc.why)) {
				t.Errorf("NewBinaries() reason = %q, want one containing %q", why, tc.why)
			}
			if len(tc.want) > 0 && why != "" {
				t.Errorf("NewBinaries() gave paths and a reason %q", why)
			}
		})
	}
}

func TestParseVersion(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"agent-skills 0.2.0 (abc1234, 2026-12-01)\n", "0.2.0", true},
		{"agent-skills v0.2.0", "0.2.0", true},
		{"  agent-skills 0.3.0-rc.1\nmore", "0.3.0-rc.1", true},
		{"agent-skills 0.1.0-dev (dev build, abc1234)", "0.1.0-dev", true},
		{"agent-skills", "", false},
		{"other 0.2.0", "", false},
		{"", "", false},
		{"Segmentation fault\nagent-skills 0.2.0", "", false},
	} {
		got, ok := ParseVersion(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseVersion(%q) = %q, %v, want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
