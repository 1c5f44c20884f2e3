package agents

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// fakeMachine is a file system rooted at "/" plus a PATH, for detection.
type fakeMachine struct {
	files fstest.MapFS      // paths without the leading slash
	path  map[string]string // executable name -> full path
	links map[string]string // symlink path -> target
	vars  map[string]string // environment
}

func (m fakeMachine) env(project string) Env {
	return Env{
		Home:        "/home/u",
		ProjectRoot: project,
		Getenv:      func(k string) string { return m.vars[k] },
		Stat: func(name string) (fs.FileInfo, error) {
			return fs.Stat(m.files, strings.TrimPrefix(path.Clean(name), "/"))
		},
		LookPath: func(file string) (string, error) {
			if p, ok := m.path[file]; ok {
				return p, nil
			}
			return "", errors.New("executable file not found in $PATH")
		},
		ReadFile: func(name string) ([]byte, error) {
			return fs.ReadFile(m.files, strings.TrimPrefix(path.Clean(name), "/"))
		},
		EvalSymlinks: func(p string) (string, error) {
			if t, ok := m.links[p]; ok {
				return t, nil
			}
			return p, nil
		},
	}
}

func dir() *fstest.MapFile { return &fstest.MapFile{Mode: fs.ModeDir | 0o755} }

func TestDetect(t *testing.T) {
	npm := "/usr/lib/node_modules/@anthropic-ai/claude-code"
	machine := fakeMachine{
		files: fstest.MapFS{
			"home/u/.claude":          dir(),
			"home/u/.config/opencode": dir(),
			"home/u/.gemini":          {Data: []byte("a file, not a folder")},
			"work/p/.agents":          dir(),
			"work/p/.windsurf":        dir(),
			"work/p/.cursor":          dir(),
			"work/p/GEMINI.md":        {Data: []byte("# notes")},
			"usr/lib/node_modules/@anthropic-ai/claude-code/package.json": {Data: []byte(`{"name":"@anthropic-ai/claude-code","version":"2.1.197"}`)},
			"usr/lib/node_modules/@openai/codex/package.json":             {Data: []byte(`{"name":"something-else","version":"9.9.9"}`)},
		},
		path: map[string]string{
			"claude": "/usr/bin/claude",
			"codex":  "/usr/bin/codex",
			"cursor": "/usr/bin/cursor",
		},
		links: map[string]string{
			"/usr/bin/claude": npm + "/cli.js",
			"/usr/bin/codex":  "/usr/lib/node_modules/@openai/codex/bin/codex.js",
		},
	}
	cases := []struct {
		agent      string
		project    string
		confidence Confidence
		evidence   []string
		version    string
	}{
		{"claude-code", "/work/p", ConfidenceStrong, []string{"config-dir:/home/u/.claude", "executable:/usr/bin/claude"}, "2.1.197"},
		{"codex", "/work/p", ConfidenceStrong, []string{"executable:/usr/bin/codex", "project-marker:/work/p/.agents"}, ""},
		{"opencode", "/work/p", ConfidenceStrong, []string{"config-dir:/home/u/.config/opencode"}, ""},
		{"cursor", "/work/p", ConfidenceStrong, []string{"executable:/usr/bin/cursor", "project-marker:/work/p/.cursor"}, ""},
		{"windsurf", "/work/p", ConfidenceWeak, []string{"project-marker:/work/p/.windsurf"}, ""},
		{"amp", "/work/p", ConfidenceWeak, []string{"project-marker:/work/p/.agents"}, ""},
		{"gemini-cli", "/work/p", ConfidenceWeak, []string{"project-marker:/work/p/GEMINI.md"}, ""},
		{"goose", "/work/p", ConfidenceNone, nil, ""},
		{"windsurf", "", ConfidenceNone, nil, ""},
		{"amp", "/home/u", ConfidenceNone, nil, ""},
	}
	for _, tc := range cases {
		a := mustLookup(t, tc.agent)
		d := a.Detect(context.Background(), machine.env(tc.project))
		var ev []string
		for _, e := range d.Evidence {
			ev = append(ev, e.Kind+":"+e.Detail)
		}
		if d.Confidence != tc.confidence || !slices.Equal(ev, tc.evidence) || d.Version != tc.version {
			t.Errorf("%s.Detect(project %q) = %s %q version %q, want %s %q version %q",
				tc.agent, tc.project, d.Confidence, ev, d.Version, tc.confidence, tc.evidence, tc.version)
		}
		if d.Installed != (tc.confidence == ConfidenceStrong) {
			t.Errorf("%s.Detect().Installed = %v, want %v", tc.agent, d.Installed, tc.confidence == ConfidenceStrong)
		}
	}
}

func TestDetectEnvOverrides(t *testing.T) {
	machine := fakeMachine{
		files: fstest.MapFS{"cfg/claude": dir(), "cfg/codex": dir(), "home/u/.claude": dir()},
		vars:  map[string]string{"CLAUDE_CONFIG_DIR": "/cfg/claude", "CODEX_HOME": "/cfg/codex"},
	}
	for id, want := range map[string]string{"claude-code": "/cfg/claude", "codex": "/cfg/codex"} {
		d := mustLookup(t, id).Detect(context.Background(), machine.env(""))
		if d.Confidence != ConfidenceStrong || len(d.Evidence) != 1 || d.Evidence[0].Detail != want {
			t.Errorf("%s.Detect() = %+v, want strong evidence %s only", id, d, want)
		}
	}
}

func TestDetectVersionHook(t *testing.T) {
	machine := fakeMachine{path: map[string]string{"codex": "/opt/codex"}}
	env := machine.env("")
	var asked []string
	env.Version = func(_ context.Context, id, exe string) (string, error) {
		asked = append(asked, id+"="+exe)
		return "0.169.0", nil
	}
	d := mustLookup(t, "codex").Detect(context.Background(), env)
	if d.Version != "0.169.0" || !slices.Equal(asked, []string{"codex=/opt/codex"}) {
		t.Errorf("Detect() version = %q, asked %q; want 0.169.0 from the hook for /opt/codex", d.Version, asked)
	}
	env.Version = func(context.Context, string, string) (string, error) { return "", errors.New("timeout") }
	if d := mustLookup(t, "codex").Detect(context.Background(), env); d.Version != "" {
		t.Errorf("Detect() with a failing version hook = %q, want \"\"", d.Version)
	}
}

// TestDetectNeverRunsProjectExecutables: an executable found through a
// relative PATH entry, or inside the project, is no evidence and is never
// asked for its version (issue 11, B16); one elsewhere still is.
func TestDetectNeverRunsProjectExecutables(t *testing.T) {
	tests := []struct {
		project, exe string
		want         bool // evidence and a version
	}{
		{"/work/p", "node_modules/.bin/codex", false},
		{"/work/p", "./codex", false},
		{"/work/p", "/work/p/node_modules/.bin/codex", false},
		{"/work/p", "/work/p/sub/../bin/codex", false},
		{"/work/p", "/work/p2/bin/codex", true},
		{"/work/p", "/usr/bin/codex", true},
		{"", "/work/p/node_modules/.bin/codex", true},
		{"/home", "/home/u/.local/bin/codex", true}, // a root holding home is never a project
	}
	for _, tt := range tests {
		env := fakeMachine{path: map[string]string{"codex": tt.exe}}.env(tt.project)
		ran := false
		env.Version = func(context.Context, string, string) (string, error) {
			ran = true
			return "1.0.0", nil
		}
		d := mustLookup(t, "codex").Detect(context.Background(), env)
		got := len(d.Evidence) > 0 && d.Version == "1.0.0"
		if got != tt.want || ran != tt.want {
			t.Errorf("Detect(project %q, PATH gives %q) = evidence %+v, version %q, ran %v; want evidence and version: %v",
				tt.project, tt.exe, d.Evidence, d.Version, ran, tt.want)
		}
	}
}

func TestDetectNilFunctions(t *testing.T) {
	for _, a := range Default().All() {
		d := a.Detect(context.Background(), Env{Home: "/home/u", ProjectRoot: "/p"})
		if d.Confidence != ConfidenceNone || d.Installed || len(d.Evidence) != 0 || d.Evidence == nil {
			t.Errorf("%s.Detect(empty Env) = %+v, want none with an empty, non-nil evidence list", a.ID(), d)
		}
	}
}

func TestDetectCancelled(t *testing.T) {
	machine := fakeMachine{path: map[string]string{"codex": "/opt/codex"}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	env := machine.env("")
	env.Version = func(context.Context, string, string) (string, error) {
		t.Error("Detect asked for a version after the context was cancelled")
		return "", nil
	}
	if d := mustLookup(t, "codex").Detect(ctx, env); len(d.Evidence) != 0 {
		t.Errorf("Detect(cancelled) evidence = %+v, want none from PATH", d.Evidence)
	}
}

func TestAutoSelect(t *testing.T) {
	machine := fakeMachine{
		files: fstest.MapFS{"home/u/.gemini": dir(), "work/p/.windsurf": dir()},
		path:  map[string]string{"codex": "/usr/bin/codex"},
	}
	reports := DetectAll(context.Background(), machine.env("/work/p"), Default().All())
	if len(reports) != len(Default().All()) {
		t.Fatalf("DetectAll() = %d reports, want %d", len(reports), len(Default().All()))
	}
	got, err := AutoSelect(reports)
	var ids []string
	for _, a := range got {
		ids = append(ids, a.ID())
	}
	if err != nil || !slices.Equal(ids, []string{"codex", "gemini-cli"}) {
		t.Errorf("AutoSelect() = %q, %v, want [codex gemini-cli]", ids, err)
	}

	weakOnly := DetectAll(context.Background(), fakeMachine{files: fstest.MapFS{"work/p/.windsurf": dir()}}.env("/work/p"), Default().All())
	_, err = AutoSelect(weakOnly)
	var e *Error
	if !errors.As(err, &e) || e.ErrorCode() != "ASK_NO_AGENT" {
		t.Fatalf("AutoSelect(weak only) error = %v, want ASK_NO_AGENT", err)
	}
	if hints := strings.Join(e.ErrorTry(), "\n"); !strings.Contains(hints, "--agent windsurf") {
		t.Errorf("AutoSelect(weak only) hints = %q, want them to suggest --agent windsurf", hints)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r := DetectAll(ctx, machine.env("/work/p"), Default().All()); len(r) != 0 {
		t.Errorf("DetectAll(cancelled) = %d reports, want 0", len(r))
	}
}
