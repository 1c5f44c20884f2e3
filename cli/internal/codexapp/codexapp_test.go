package codexapp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestMain turns the test binary into a fake `codex app-server` when
// CODEXAPP_FAKE names a mode, so the tests speak to a real process over
// real pipes.
func TestMain(m *testing.M) {
	if mode := os.Getenv("CODEXAPP_FAKE"); mode != "" {
		fakeAppServer(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeAppServer answers like Codex 0.169.0 did (see docs/hosts.md), with
// the deviations a mode asks for. It writes every line it reads to
// $CODEXAPP_LOG.
func fakeAppServer(mode string) {
	log, _ := os.Create(os.Getenv("CODEXAPP_LOG"))
	home := os.Getenv("CODEX_HOME")
	in := bufio.NewScanner(os.Stdin)
	out := func(s string) { fmt.Println(s) }
	for in.Scan() {
		fmt.Fprintln(log, in.Text())
		var req struct {
			ID     *int            `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || req.ID == nil {
			continue
		}
		switch req.Method {
		case "initialize":
			out(`WARNING: proceeding, even though we could not create PATH aliases`)
			out(fmt.Sprintf(`{"id":%d,"result":{"userAgent":"fake/0.169.0","codexHome":%q}}`, *req.ID, home))
			out(`{"method":"configWarning","params":{"summary":"no bubblewrap"}}`)
			if mode == "exit" {
				os.Exit(3)
			}
		case "hooks/list":
			var p struct {
				Cwds []string `json:"cwds"`
			}
			_ = json.Unmarshal(req.Params, &p)
			switch mode {
			case "hang", "huge":
				if mode == "huge" {
					out(`{"id":99,"x":"` + strings.Repeat("a", MaxLine+10) + `"}`)
				}
				time.Sleep(time.Minute)
			case "error":
				out(fmt.Sprintf(`{"id":%d,"error":{"code":-32601,"message":"method not found"}}`, *req.ID))
				continue
			}
			hash := "sha256:443ef6ceb26110adacc43de79495e2758fe5280240992f366f62873394a9d867"
			if mode == "badhash" {
				hash = "sha256:x\n[evil]"
			}
			var dirs []string
			for _, c := range p.Cwds {
				dirs = append(dirs, fmt.Sprintf(`{"cwd":%q,"hooks":[{"key":%q,"eventName":"sessionStart","handlerType":"command","command":"/bin/hook --host codex","async":false,"matcher":null,"timeoutSec":10,"sourcePath":%q,"source":"user","pluginId":null,"enabled":true,"isManaged":false,"currentHash":%q,"trustStatus":"untrusted"}],"warnings":[],"errors":[]}`,
					c, home+"/hooks.json:session_start:0:0", home+"/hooks.json", hash))
			}
			out(`{"method":"remoteControl/status/changed","params":{"status":"disabled"}}`)
			out(fmt.Sprintf(`{"id":%d,"result":{"data":[%s]}}`, *req.ID, strings.Join(dirs, ",")))
			if mode == "linger" {
				time.Sleep(time.Minute)
			}
		}
	}
}

func fake(t *testing.T, mode string) (Options, string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "requests.log")
	return Options{
		Command: []string{exe, "-test.run=^$"},
		Env:     []string{"CODEXAPP_FAKE=" + mode, "CODEXAPP_LOG=" + log, "CODEX_HOME=" + filepath.Join(dir, "codex")},
		Timeout: 10 * time.Second,
	}, log
}

func TestListHooks(t *testing.T) {
	opts, log := fake(t, "ok")
	home := strings.TrimPrefix(opts.Env[2], "CODEX_HOME=")
	dirs, err := ListHooks(context.Background(), opts, []string{"/p/one", "/p/two"})
	if err != nil {
		t.Fatalf("ListHooks: %v", err)
	}
	if len(dirs) != 2 || dirs[0].Cwd != "/p/one" || dirs[1].Cwd != "/p/two" {
		t.Fatalf("ListHooks dirs = %+v, want /p/one and /p/two", dirs)
	}
	want := Hook{
		Key:         home + "/hooks.json:session_start:0:0",
		EventName:   "sessionStart",
		HandlerType: "command",
		Command:     "/bin/hook --host codex",
		TimeoutSec:  10,
		SourcePath:  home + "/hooks.json",
		Source:      "user",
		Enabled:     true,
		CurrentHash: "sha256:443ef6ceb26110adacc43de79495e2758fe5280240992f366f62873394a9d867",
		TrustStatus: "untrusted",
	}
	if len(dirs[0].Hooks) != 1 || !reflect.DeepEqual(dirs[0].Hooks[0], want) {
		t.Errorf("ListHooks hooks = %+v, want [%+v]", dirs[0].Hooks, want)
	}
	if dirs[0].Hooks[0].Trusted() {
		t.Errorf("Trusted() = true for trustStatus untrusted")
	}
	// The fake saw CODEX_HOME (it is in the key) and this exchange:
	got, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	wantLog := `{"id":1,"jsonrpc":"2.0","method":"initialize","params":{"clientInfo":{"name":"agent-skills","version":"0"}}}
{"jsonrpc":"2.0","method":"initialized"}
{"id":2,"jsonrpc":"2.0","method":"hooks/list","params":{"cwds":["/p/one","/p/two"]}}
`
	if string(got) != wantLog {
		t.Errorf("requests =\n%s\nwant\n%s", got, wantLog)
	}
}

func TestListHooksFailures(t *testing.T) {
	for _, tc := range []struct {
		mode string
		kind Kind
		want string
	}{
		{"error", KindRemote, "hooks/list failed: method not found (code -32601)"},
		{"exit", KindExited, "it ended before it answered hooks/list"},
		{"hang", KindTimeout, "no answer to hooks/list in time"},
		{"huge", KindProtocol, "cannot read its output"},
		{"badhash", KindProtocol, "unusable currentHash"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			opts, _ := fake(t, tc.mode)
			opts.Timeout = 3 * time.Second
			start := time.Now()
			_, err := ListHooks(context.Background(), opts, []string{"/p"})
			var e *Error
			if !errors.As(err, &e) || e.Kind != tc.kind || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("ListHooks = %v, want a %s *Error containing %q", err, tc.kind, tc.want)
			}
			if d := time.Since(start); d > opts.Timeout+exitGrace+3*time.Second {
				t.Errorf("ListHooks took %v, more than its timeout allows", d)
			}
		})
	}
}

func TestListHooksDoesNotWaitForALingeringServer(t *testing.T) {
	opts, _ := fake(t, "linger")
	start := time.Now()
	if _, err := ListHooks(context.Background(), opts, []string{"/p"}); err != nil {
		t.Fatalf("ListHooks: %v", err)
	}
	if d := time.Since(start); d > exitGrace+5*time.Second {
		t.Errorf("ListHooks took %v with a server that ignores the closed stdin, want about %v", d, exitGrace)
	}
}

func TestListHooksStartFailure(t *testing.T) {
	_, err := ListHooks(context.Background(), Options{Command: []string{filepath.Join(t.TempDir(), "no-codex"), "app-server"}}, nil)
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindStart {
		t.Errorf("ListHooks(missing program) = %v, want a start *Error", err)
	}
	if _, err := ListHooks(context.Background(), Options{}, nil); !errors.As(err, &e) || e.Kind != KindStart {
		t.Errorf("ListHooks(no command) = %v, want a start *Error", err)
	}
}

func TestTrustPath(t *testing.T) {
	if got, want := TrustPath("/a/hooks.json:session_start:0:0"), []string{"hooks", "state", "/a/hooks.json:session_start:0:0"}; !reflect.DeepEqual(got, want) {
		t.Errorf("TrustPath = %q, want %q", got, want)
	}
}
