package testscripts

import (
	"database/sql"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/cgi"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agent-skills/agent-skills/cli"
	"github.com/agent-skills/agent-skills/registry/ocitest"
	"github.com/rogpeppe/go-internal/testscript"

	_ "github.com/ncruces/go-sqlite3/driver"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"agent-skills": func() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:   "testdata/scripts",
		Setup: setup,
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"exitcode":  exitcode,
			"httpserve": httpserve,
			"gitserve":  gitserve,
			// The real OCI-distribution registry on loopback.
			"ociserve": ociserve,
			// Servers that misbehave, for the HTTP client policy.
			"httpredirect": httpredirect,
			"httpstall":    httpstall,
			// A pseudo terminal on one output stream, for colour.
			"ttyrun": ttyrun,
			// All three streams on a pseudo terminal, for the notifier.
			"ptyrun": ptyrun,
			// The binary copied where an installer puts it (self-update).
			"installexe": installexe,
			// Host payloads with $WORK in them, and the evidence store's rows.
			"envsubst":      envsubst,
			"evidence-rows": evidenceRows,
		},
		Condition:           condition,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       os.Getenv("UPDATE_SCRIPTS") != "",
	})
}

// setup gives every script a private HOME and points every directory an
// agent or agent-skills could read at it, so that a real agent configured on
// this machine can never leak into a test. PATH keeps only the directories
// of the tools the scripts are allowed to use.
func setup(env *testscript.Env) error {
	home := filepath.Join(env.WorkDir, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return err
	}
	set := map[string]string{
		"HOME":                            home,
		"USERPROFILE":                     home,
		"AGENT_SKILLS_HOME":               filepath.Join(home, ".agent-skills"),
		"CLAUDE_CONFIG_DIR":               filepath.Join(home, ".claude"),
		"CODEX_HOME":                      filepath.Join(home, ".codex"),
		"XDG_CONFIG_HOME":                 filepath.Join(home, ".config"),
		"XDG_CACHE_HOME":                  filepath.Join(home, ".cache"),
		"XDG_DATA_HOME":                   filepath.Join(home, ".local", "share"),
		"XDG_STATE_HOME":                  filepath.Join(home, ".local", "state"),
		"NO_COLOR":                        "1",
		"AGENT_SKILLS_NO_UPDATE_NOTIFIER": "1",
		"GIT_CONFIG_NOSYSTEM":             "1",
		"GIT_CONFIG_GLOBAL":               filepath.Join(home, ".gitconfig"),
		"GIT_TERMINAL_PROMPT":             "0",
		// No script may reach the network: git refuses every transport
		// but local files, so the official registry is unreachable.
		"GIT_ALLOW_PROTOCOL":  "file",
		"GIT_AUTHOR_NAME":     "Test Author",
		"GIT_AUTHOR_EMAIL":    "author@example.com",
		"GIT_COMMITTER_NAME":  "Test Author",
		"GIT_COMMITTER_EMAIL": "author@example.com",
		"GIT_AUTHOR_DATE":     "2026-01-01T00:00:00Z",
		"GIT_COMMITTER_DATE":  "2026-01-01T00:00:00Z",
	}
	for k, v := range set {
		env.Setenv(k, v)
	}
	// The testscript binary directory holds agent-skills; add only git's
	// folder so that no agent executable (claude, codex, …) is on PATH.
	path := []string{}
	for _, p := range filepath.SplitList(env.Getenv("PATH")) {
		if strings.Contains(p, "testscript") {
			path = append(path, p)
		}
	}
	if git, err := exec.LookPath("git"); err == nil {
		path = append(path, filepath.Dir(git))
	}
	env.Setenv("PATH", strings.Join(path, string(filepath.ListSeparator)))
	if shared, err := filepath.Abs(filepath.Join("..", "..", "shared")); err == nil {
		if _, err := os.Stat(shared); err == nil {
			env.Setenv("SHARED", shared)
		}
	}
	if skills, err := filepath.Abs(filepath.Join("..", "skills")); err == nil {
		env.Setenv("SKILLS", skills)
	}
	// The SEP-2640 fixture server (testdata/sep2640/server.py) and the
	// Python that runs it, by absolute path: PATH holds no python3, and a
	// pyenv shim would not run without its own PATH.
	if server, err := filepath.Abs(filepath.Join("testdata", "sep2640", "server.py")); err == nil {
		env.Setenv("SEPSERVER", server)
	}
	if py := python3(); py != "" {
		env.Setenv("PYTHON3", py)
	}
	return nil
}

// python3 returns the absolute path of the real python3 executable
// (sys.executable), or "" when there is none.
var python3 = sync.OnceValue(func() string {
	out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
})

// exitcode runs a command and checks its exact exit code:
//
//	exitcode 3 exec agent-skills validate bad
//
// Its stdout and stderr are kept for the following stdout/stderr checks.
func exitcode(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! exitcode")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: exitcode N command [args...]")
	}
	if args[1] == "exec" {
		args = append(args[:1:1], args[2:]...)
	}
	if len(args) < 2 {
		ts.Fatalf("usage: exitcode N [exec] command [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exitcode: %q is not a number", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exitcode: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", strings.Join(args[1:], " "), got, want)
	}
}

// condition adds [shared]: the read-only shared/ folder with real registry
// fixtures is present (it is in CI; a clone of the project alone lacks it);
// and [tty]: a pseudo terminal can be opened, for ttyrun.
func condition(cond string) (bool, error) {
	switch cond {
	case "shared":
		_, err := os.Stat(filepath.Join("..", "..", "shared", "fixtures", "origin-registry"))
		return err == nil, nil
	case "tty":
		return ptyAvailable(), nil
	case "python3":
		return python3() != "", nil
	case "root":
		// Permission bits do not stop root.
		return os.Geteuid() == 0, nil
	case "ociregistry":
		// .ci/run installs the server and sets ocitest.RequireEnv: there,
		// its absence fails.
		_, err := ocitest.Binary()
		if err != nil && os.Getenv(ocitest.RequireEnv) != "" {
			return false, err
		}
		return err == nil, nil
	}
	return false, fmt.Errorf("unknown condition %q", cond)
}

// httpserve serves a folder over HTTP on loopback for the rest of the
// script and sets $HTTPURL to its base URL:
//
//	httpserve www
//
// "httpserve stop" shuts it down, so that a script can show what works
// offline. Every request is counted in $WORK/http-requests.log.
func httpserve(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: httpserve DIR | httpserve stop")
	}
	if args[0] == "stop" {
		if v, ok := servers.Load(ts); ok {
			v.(*http.Server).Close()
		}
		return
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	dir := ts.MkAbs(args[0])
	var n atomic.Int64
	logPath := ts.MkAbs("http-requests.log")
	files := http.FileServer(http.Dir(dir))
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		if f, err := os.OpenFile(logPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			fmt.Fprintf(f, "%s %s host=%s\n", r.Method, r.URL.Path, r.Host)
			f.Close()
		}
		files.ServeHTTP(w, r)
	})}
	go srv.Serve(ln)
	ts.Defer(func() { srv.Close(); servers.Delete(ts) })
	servers.Store(ts, srv)
	ts.Setenv("HTTPURL", "http://"+ln.Addr().String())
	ts.Setenv("HTTPPORT", strconv.Itoa(ln.Addr().(*net.TCPAddr).Port))
}

// httpredirect answers every request, on loopback, with a 302 redirect to
// URL for the rest of the script, and sets $REDIRECTURL to its base URL:
//
//	httpredirect http://plain-http-remote.example/skill.tar.gz
func httpredirect(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: httpredirect URL")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	to := args[0]
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, to, http.StatusFound)
	})}
	go srv.Serve(ln)
	ts.Defer(func() { srv.Close() })
	ts.Setenv("REDIRECTURL", "http://"+ln.Addr().String())
}

// httpstall starts, on loopback, a server that accepts connections and
// then goes silent, for the rest of the script, and sets $STALLURL:
//
//	httpstall        # never answers a request
//	httpstall body   # sends the headers of a 1 MiB answer and one byte of it
//	httpstall wait   # waits (at most 30 s) until the server was connected to
func httpstall(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) > 1 || (len(args) == 1 && args[0] != "body" && args[0] != "wait") {
		ts.Fatalf("usage: httpstall [body|wait]")
	}
	if len(args) == 1 && args[0] == "wait" {
		v, ok := stalls.Load(ts)
		if !ok {
			ts.Fatalf("httpstall wait: no httpstall server is running")
		}
		select {
		case <-v.(chan struct{}):
		case <-time.After(30 * time.Second):
			ts.Fatalf("httpstall wait: nothing connected within 30s")
		}
		return
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	connected := make(chan struct{})
	var once sync.Once
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			once.Do(func() { close(connected) })
			if len(args) == 1 {
				go func() {
					c.Read(make([]byte, 4096))
					fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n\x1f", 1<<20)
				}()
			}
		}
	}()
	stalls.Store(ts, connected)
	ts.Defer(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		stalls.Delete(ts)
	})
	ts.Setenv("STALLURL", "http://"+ln.Addr().String())
}

// stalls holds each running script's httpstall signal, closed on the
// first connection.
var stalls sync.Map

// servers holds each running script's HTTP server, for "httpserve stop".
var servers sync.Map

// gitserve serves the bare repositories below a folder over git's smart
// HTTP protocol on loopback, through the real git-http-backend, and
// requires HTTP basic authentication with the given user and password:
//
//	gitserve repos alice s3cret
//
// It sets $GITURL to the base URL. Every request is logged, with its
// Authorization header, to $WORK/git-requests.log, so a script can show
// that credentials were sent.
func gitserve(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: gitserve DIR USER PASSWORD")
	}
	out, err := exec.Command("git", "--exec-path").Output()
	ts.Check(err)
	backend := filepath.Join(strings.TrimSpace(string(out)), "git-http-backend")
	root := ts.MkAbs(args[0])
	user, pass := args[1], args[2]
	logPath := ts.MkAbs("git-requests.log")
	h := &cgi.Handler{Path: backend, Env: []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1"}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, p, ok := r.BasicAuth()
		if f, err := os.OpenFile(logPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			fmt.Fprintf(f, "%s %s auth=%v\n", r.Method, r.URL.Path, ok)
			f.Close()
		}
		if !ok || u != user || p != pass {
			w.Header().Set("WWW-Authenticate", `Basic realm="skills"`)
			http.Error(w, "authentication required", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})}
	go srv.Serve(ln)
	ts.Defer(func() { srv.Close() })
	ts.Setenv("GITURL", "http://"+ln.Addr().String())
}

// envsubst copies a file, replacing $VAR and ${VAR} with the script's
// variables (a host payload holds absolute paths under $WORK):
//
//	envsubst claude-read.json $WORK/payload.json
func envsubst(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: envsubst FROM TO")
	}
	data, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(os.Expand(string(data), ts.Getenv)), 0o644))
}

// evidenceRows checks how many rows a table of the evidence store holds,
// read through an immutable read-only connection that leaves no file:
//
//	evidence-rows $HOME/.agents/skills-usage.db read_observation 1
func evidenceRows(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: evidence-rows DB TABLE N")
	}
	for _, c := range args[1] {
		if (c < 'a' || c > 'z') && c != '_' {
			ts.Fatalf("bad table name %q", args[1])
		}
	}
	want, err := strconv.Atoi(args[2])
	ts.Check(err)
	db, err := sql.Open("sqlite3", "file:"+ts.MkAbs(args[0])+"?mode=ro&immutable=1")
	ts.Check(err)
	defer db.Close()
	var n int
	ts.Check(db.QueryRow("SELECT count(*) FROM " + args[1]).Scan(&n))
	if n != want {
		ts.Fatalf("%s holds %d rows of %s, want %d", args[0], n, args[1], want)
	}
}

// ociserve starts the real OCI-distribution registry (ocitest: Debian's
// docker-registry) on loopback for the rest of the script, storing under
// $WORK/oci, and sets $OCIADDR to its host:port and $OCIROOT to its
// storage folder. With a user and a password, it requires them (htpasswd
// basic authentication). "ociserve stop" stops it; a later ociserve
// starts it again on the same address and storage. Guard a script with
// [!ociregistry] skip.
//
//	ociserve
//	ociserve alice s3cret
func ociserve(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 && len(args) != 1 && len(args) != 2 || len(args) == 1 && args[0] != "stop" {
		ts.Fatalf("usage: ociserve [user password] | ociserve stop")
	}
	if len(args) == 1 {
		if s, ok := ociServers.LoadAndDelete(ts); ok {
			s.(*ocitest.Server).Close()
		}
		return
	}
	o := ocitest.Options{Addr: ts.Getenv("OCIADDR")}
	if len(args) == 2 {
		o.User, o.Password = args[0], args[1]
	}
	s, err := ocitest.Start(ts.MkAbs("oci"), o)
	ts.Check(err)
	ociServers.Store(ts, s)
	ts.Defer(func() {
		if s, ok := ociServers.LoadAndDelete(ts); ok {
			s.(*ocitest.Server).Close()
		}
	})
	ts.Setenv("OCIADDR", s.Addr)
	ts.Setenv("OCIROOT", s.Root)
}

// ociServers holds each running script's OCI registry.
var ociServers sync.Map
