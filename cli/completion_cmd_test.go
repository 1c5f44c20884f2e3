package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alecthomas/kong"

	"github.com/agent-skills/agent-skills/cli/internal/complete"
)

// TestPredictorTags: every flag and argument that takes an agent id, a
// registry name or an installed skill's name says so, so that a command
// added later completes like the others.
func TestPredictorTags(t *testing.T) {
	parser, err := kong.New(&app{})
	if err != nil {
		t.Fatal(err)
	}
	installed := map[string]bool{"uninstall": true, "update": true, "disable": true, "enable": true, "outdated": true}
	registryArgs := map[string]string{"registry remove": "name", "registry export": "from", "registry trust": "name"}
	seen := map[string]int{}
	var walk func(n *kong.Node)
	walk = func(n *kong.Node) {
		path := n.Path()
		for _, f := range n.Flags {
			want := ""
			switch f.Name {
			case "agent":
				want = complete.PredictAgent
			case "registry":
				want = complete.PredictRegistry
			}
			if got := f.Tag.Get("predictor"); want != "" && got != want {
				t.Errorf("%s --%s has predictor %q, want %q", path, f.Name, got, want)
			}
			if want != "" {
				seen[want]++
			}
		}
		for _, p := range n.Positional {
			want := ""
			switch {
			case installed[path] && p.Name == "skills":
				want = complete.PredictInstalled
			case registryArgs[path] == p.Name:
				want = complete.PredictRegistry
			}
			if got := p.Tag.Get("predictor"); got != want {
				t.Errorf("%s <%s> has predictor %q, want %q", path, p.Name, got, want)
			}
			if want != "" {
				seen[want]++
			}
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(parser.Model.Node)
	// Not vacuous: the walk met every kind where it should.
	if seen[complete.PredictAgent] < 9 || seen[complete.PredictRegistry] < 6 || seen[complete.PredictInstalled] != 5 {
		t.Errorf("predictor tags seen %v, want agent ≥ 9, registry ≥ 6, installed 5", seen)
	}
}

// TestCompletionRequests drives run as the shells do: COMP_LINE in the
// environment, and the arguments bash passes (the command, the word, the
// word before), which are not parsed.
func TestCompletionRequests(t *testing.T) {
	base := t.TempDir()
	home := filepath.Join(base, "home")
	src := filepath.Join(base, "src", "go-review")
	for _, d := range []string{home, src} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(src, "SKILL.md"), []byte("---\nname: go-review\ndescription: Review Go code. Use on every pull request.\n---\nBody.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(base)
	vars := map[string]string{"HOME": home, "AGENT_SKILLS_HOME": filepath.Join(home, ".agent-skills"), "AGENT_SKILLS_NO_UPDATE_NOTIFIER": "1"}
	getenv := func(k string) string { return vars[k] }
	ctx := context.Background()
	var out, errb bytes.Buffer
	if code := run(ctx, []string{"-q", "install", src, "--global", "--agent", "claude"}, nil, &out, &errb, getenv); code != 0 {
		t.Fatalf("install = %d: %s", code, errb.String())
	}
	tests := []struct {
		line, want string
	}{
		{"agent-skills ins", "install\n"},
		{"agent-skills regis", "registry\n"},
		{"agent-skills registry re", "remove\n"},
		{"agent-skills install --dry", "--dry-run\n"},
		{"agent-skills -q --off", "--offline\n"},
		{"agent-skills install --agent clau", "claude\nclaude-code\n"},
		{"agent-skills search --registry=off", "official\n"},
		{"agent-skills uninstall ", "go-review\n"},
		{"agent-skills uninstall go-review ", "go-review\n"},
		{"agent-skills enable ", ""},
		{"agent-skills completion ", "bash\nfish\nzsh\n"},
		{"agent-skills nosuchcommand ", ""},
	}
	for _, tt := range tests {
		vars["COMP_LINE"] = tt.line
		words := strings.Fields(tt.line)
		out.Reset()
		errb.Reset()
		code := run(ctx, []string{"agent-skills", words[len(words)-1], "--not-a-flag"}, nil, &out, &errb, getenv)
		if code != 0 || out.String() != tt.want || errb.Len() > 0 {
			t.Errorf("run(COMP_LINE=%q) = %d, stdout %q, stderr %q; want 0, %q, nothing", tt.line, code, out.String(), errb.String(), tt.want)
		}
	}

	// A configuration that cannot be read: the commands still complete,
	// nothing that needs it is offered, and nothing is printed on stderr.
	if err := os.WriteFile(filepath.Join(home, ".agent-skills", "config.json"), []byte("{broken"), 0o644); err != nil {
		t.Fatal(err)
	}
	for line, want := range map[string]string{"agent-skills ins": "install\n", "agent-skills registry remove ": "", "agent-skills uninstall ": ""} {
		vars["COMP_LINE"] = line
		out.Reset()
		errb.Reset()
		if code := run(ctx, nil, nil, &out, &errb, getenv); code != 0 || out.String() != want || errb.Len() > 0 {
			t.Errorf("run(COMP_LINE=%q) with a broken config.json = %d, stdout %q, stderr %q; want 0, %q, nothing", line, code, out.String(), errb.String(), want)
		}
	}

	// Without COMP_LINE the same arguments are a command again.
	delete(vars, "COMP_LINE")
	out.Reset()
	errb.Reset()
	if code := run(ctx, []string{"completion", "bash"}, nil, &out, &errb, getenv); code != 0 || !strings.Contains(out.String(), "complete -o default -C 'agent-skills 2>/dev/null' agent-skills") {
		t.Errorf("run(completion bash) = %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
	if code := run(ctx, []string{"agent-skills", "ins"}, nil, &out, &errb, getenv); code != exitUsage {
		t.Errorf("run(agent-skills ins) without COMP_LINE = %d, want %d", code, exitUsage)
	}
}
