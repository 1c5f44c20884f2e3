package notify

import "testing"

func TestEligible(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	tty := func(cmd string, flags ...string) Input {
		in := Input{Command: cmd, Flags: map[string]bool{}, Getenv: env(), StdinTTY: true, StdoutTTY: true, StderrTTY: true}
		for _, f := range flags {
			in.Flags[f] = true
		}
		return in
	}
	with := func(in Input, f func(*Input)) Input { f(&in); return in }
	tests := []struct {
		name string
		in   Input
		want Scope
		why  string
	}{
		{"list", tty("list"), All, ""},
		{"info with arg", tty("info <name>"), All, ""},
		{"doctor", tty("doctor"), All, ""},
		{"install", tty("install <skills>"), CLIOnly, ""},
		{"update", tty("update"), CLIOnly, ""},
		{"uninstall", tty("uninstall <skills>"), None, "uninstall"},
		{"disable", tty("disable <skills>"), None, "disable"},
		{"enable", tty("enable <skills>"), None, "enable"},
		{"validate", tty("validate"), None, "validate"},
		{"create", tty("create <name>"), None, "create"},
		{"publish", tty("publish"), None, "publish"},
		{"audit", tty("audit"), All, ""},
		{"registry add", tty("registry add <name> <url>"), None, "registry"},
		{"catalog", tty("catalog search <query>"), None, "catalog"},
		{"mcp", tty("mcp serve"), None, "mcp"},
		{"hook", tty("hook print"), None, "hook"},
		{"completion", tty("completion <shell>"), None, "completion"},
		{"self-update", tty("self-update"), None, "self-update"},
		{"unknown", tty("frobnicate"), None, "frobnicate"},
		{"no command", tty(""), None, "no command"},
		{"--no-update-check", tty("list", "no-update-check"), None, "--no-update-check"},
		{"--json", tty("list", "json"), None, "--json"},
		{"--quiet", tty("list", "quiet"), None, "--quiet"},
		{"--dry-run", tty("install <skills>", "dry-run"), None, "--dry-run"},
		{"--offline", tty("doctor", "offline"), None, "--offline"},
		{"--help", tty("list", "help"), None, "--help"},
		{"--version", tty("", "version"), None, "--version"},
		{"env opt-out", with(tty("list"), func(i *Input) { i.Getenv = env(NoNotifierEnv, "1") }), None, NoNotifierEnv},
		{"env opt-out 0 is no opt-out", with(tty("list"), func(i *Input) { i.Getenv = env(NoNotifierEnv, "0") }), All, ""},
		{"CI", with(tty("list"), func(i *Input) { i.Getenv = env("CI", "true") }), None, "CI"},
		{"offline env", with(tty("list"), func(i *Input) { i.Getenv = env("AGENT_SKILLS_OFFLINE", "1") }), None, "AGENT_SKILLS_OFFLINE"},
		{"stdin piped", with(tty("list"), func(i *Input) { i.StdinTTY = false }), None, "not a terminal"},
		{"stdout piped", with(tty("list"), func(i *Input) { i.StdoutTTY = false }), None, "not a terminal"},
		{"stderr piped", with(tty("list"), func(i *Input) { i.StderrTTY = false }), None, "not a terminal"},
		{"nil getenv", with(tty("list"), func(i *Input) { i.Getenv = nil }), All, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, why := Eligible(tt.in)
			if got != tt.want || why != tt.why {
				t.Errorf("Eligible = %v, %q; want %v, %q", got, why, tt.want, tt.why)
			}
		})
	}
}

func TestRulesUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Rules() {
		if seen[r.Command] {
			t.Errorf("%s is listed twice", r.Command)
		}
		seen[r.Command] = true
		if r.Why == "" {
			t.Errorf("%s has no reason", r.Command)
		}
	}
}
