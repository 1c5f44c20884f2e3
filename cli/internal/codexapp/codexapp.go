package codexapp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
	"unicode/utf8"
)

// Limits on what ListHooks reads from the app-server.
const (
	// DefaultTimeout bounds a whole ListHooks call when Options.Timeout
	// is zero. Codex 0.169.0 answers in well under a second once started;
	// the npm launcher's first start takes a few seconds.
	DefaultTimeout = 30 * time.Second
	// MaxLine is the longest line read from the app-server.
	MaxLine = 1 << 20
	// MaxOutput bounds all the bytes read from the app-server.
	MaxOutput = 8 << 20
	// MaxHooks bounds the hooks accepted in one answer.
	MaxHooks = 1000
	// maxStderr is how much of the app-server's stderr an error quotes.
	maxStderr = 2000
	// exitGrace is how long the app-server may take to exit once its
	// stdin is closed.
	exitGrace = 2 * time.Second
)

// Hook is one hook as the app-server reports it.
type Hook struct {
	// Key identifies the hook in config.toml's [hooks.state."<key>"]:
	// "<source file>:<event>:<group>:<handler>", e.g.
	// "/home/u/.codex/hooks.json:session_start:0:0".
	Key string `json:"key"`
	// EventName is the event in camelCase, e.g. "sessionStart".
	EventName string `json:"eventName"`
	// HandlerType is "command" for a command hook.
	HandlerType string `json:"handlerType"`
	// Command is the command line the hook runs.
	Command string `json:"command"`
	// TimeoutSec is the hook's timeout in seconds.
	TimeoutSec int `json:"timeoutSec"`
	// SourcePath is the file that defines the hook.
	SourcePath string `json:"sourcePath"`
	// Source is the layer: "user", "project", a plugin, ….
	Source string `json:"source"`
	// PluginID names the plugin of a plugin hook, or is empty.
	PluginID string `json:"pluginId"`
	// Enabled is false for a hook switched off in the configuration.
	Enabled bool `json:"enabled"`
	// CurrentHash is Codex's hash of the hook's definition, with its
	// "sha256:" prefix, as trusted_hash must record it.
	CurrentHash string `json:"currentHash"`
	// TrustStatus is "trusted", "untrusted", or whatever else this Codex
	// reports (a changed hook, a managed one).
	TrustStatus string `json:"trustStatus"`
}

// Trusted reports whether Codex will run the hook without asking.
func (h Hook) Trusted() bool { return h.TrustStatus == "trusted" }

// TrustPath is the config.toml table that records a hook's trust:
// [hooks.state."<key>"].
func TrustPath(key string) []string { return []string{"hooks", "state", key} }

// Dir is the answer for one working directory of hooks/list.
type Dir struct {
	// Cwd is the directory the hooks were listed for.
	Cwd string `json:"cwd"`
	// Hooks are the hooks Codex sees there, in its order.
	Hooks []Hook `json:"hooks"`
	// Warnings and Errors are Codex's messages about the hook files, as
	// it sent them (strings or objects).
	Warnings []json.RawMessage `json:"warnings"`
	Errors   []json.RawMessage `json:"errors"`
}

// Options say how to start the app-server.
type Options struct {
	// Command is the program and its arguments, e.g.
	// {"/usr/bin/codex", "app-server"}. It is run directly, not through a
	// shell.
	Command []string
	// Env is the child's whole environment (KEY=VALUE); nil is an empty
	// one, not the caller's. Pass HOME, PATH and CODEX_HOME through: they
	// decide which files Codex reads (the npm launcher also needs PATH to
	// find node).
	Env []string
	// Dir is the child's working directory; empty means the caller's.
	Dir string
	// Timeout bounds the call; zero means DefaultTimeout.
	Timeout time.Duration
	// ClientName is sent as clientInfo.name; empty means "agent-skills".
	ClientName, ClientVersion string
}

// Kind says which step of a ListHooks call failed.
type Kind string

// The kinds of Error.
const (
	// KindStart: the program could not be started (not found, not
	// executable).
	KindStart Kind = "start"
	// KindTimeout: no answer within the timeout.
	KindTimeout Kind = "timeout"
	// KindExited: the program ended before it answered.
	KindExited Kind = "exited"
	// KindProtocol: an answer that is not the expected JSON-RPC, or
	// beyond a limit.
	KindProtocol Kind = "protocol"
	// KindRemote: the app-server answered with a JSON-RPC error (an
	// older Codex without hooks/list answers -32601).
	KindRemote Kind = "remote"
)

// Error is a failed ListHooks call.
type Error struct {
	Kind Kind
	// Message states what went wrong.
	Message string
	// Code is the JSON-RPC error code of a KindRemote error.
	Code int
	// Stderr is the end of the app-server's standard error, for the
	// detail lines of a report; it is untrusted text.
	Stderr string
	// Err is the underlying error, if any.
	Err error
}

// Error returns the message and the cause.
func (e *Error) Error() string {
	s := "codex app-server: " + e.Message
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// ListHooks starts the app-server, asks hooks/list for cwds and returns
// its answer, one Dir per directory. The app-server is stopped before
// ListHooks returns.
func ListHooks(ctx context.Context, opts Options, cwds []string) ([]Dir, error) {
	if len(opts.Command) == 0 {
		return nil, &Error{Kind: KindStart, Message: "no command to start"}
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	cmd := exec.CommandContext(ctx, opts.Command[0], opts.Command[1:]...)
	cmd.Env = opts.Env
	if cmd.Env == nil {
		cmd.Env = []string{}
	}
	cmd.Dir = opts.Dir
	setProcessGroup(cmd)
	cmd.WaitDelay = 2 * time.Second
	stderr := &tailBuffer{max: maxStderr}
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, &Error{Kind: KindStart, Message: "cannot make a pipe", Err: err}
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, &Error{Kind: KindStart, Message: "cannot make a pipe", Err: err}
	}
	if err := cmd.Start(); err != nil {
		return nil, &Error{Kind: KindStart, Message: fmt.Sprintf("cannot start %s", opts.Command[0]), Err: err}
	}
	s := &session{in: stdin, lines: readLines(ctx, stdout), ctx: ctx}
	dirs, callErr := s.listHooks(opts, cwds)

	// Closing stdin asks the app-server to exit; after a grace period the
	// context's kill (of the whole process group) follows.
	_ = stdin.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var waitErr error
	select {
	case waitErr = <-done:
	case <-time.After(exitGrace):
		cancel()
		waitErr = <-done
	}
	if callErr != nil {
		var e *Error
		if errors.As(callErr, &e) {
			e.Stderr = stderr.String()
			if e.Kind == KindExited && waitErr != nil && e.Err == nil {
				e.Err = waitErr
			}
		}
		return nil, callErr
	}
	return dirs, nil
}

// session is one conversation with the app-server.
type session struct {
	in    io.Writer
	lines <-chan line
	ctx   context.Context
}

func (s *session) listHooks(opts Options, cwds []string) ([]Dir, error) {
	name, version := opts.ClientName, opts.ClientVersion
	if name == "" {
		name = "agent-skills"
	}
	if version == "" {
		version = "0"
	}
	if _, err := s.call(1, "initialize", map[string]any{"clientInfo": map[string]string{"name": name, "version": version}}); err != nil {
		return nil, err
	}
	if err := s.send(map[string]any{"jsonrpc": "2.0", "method": "initialized"}); err != nil {
		return nil, endedBefore(err, "hooks/list")
	}
	if cwds == nil {
		cwds = []string{}
	}
	raw, err := s.call(2, "hooks/list", map[string]any{"cwds": cwds})
	if err != nil {
		return nil, err
	}
	var result struct {
		Data []Dir `json:"data"`
	}
	if err := json.Unmarshal(raw, &result); err != nil {
		return nil, &Error{Kind: KindProtocol, Message: "hooks/list answered something that is not a hook list", Err: err}
	}
	n := 0
	for _, d := range result.Data {
		n += len(d.Hooks)
		for _, h := range d.Hooks {
			if err := checkHook(h); err != nil {
				return nil, err
			}
		}
	}
	if n > MaxHooks {
		return nil, &Error{Kind: KindProtocol, Message: fmt.Sprintf("hooks/list answered %d hooks, more than %d", n, MaxHooks)}
	}
	return result.Data, nil
}

// checkHook refuses a hook whose key or hash could not be written into
// config.toml as Codex wrote them: not UTF-8, or holding control
// characters, or empty.
func checkHook(h Hook) error {
	for _, f := range []struct{ name, v string }{{"key", h.Key}, {"currentHash", h.CurrentHash}} {
		if f.v == "" || len(f.v) > 4096 || !utf8.ValidString(f.v) || strings.IndexFunc(f.v, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 {
			return &Error{Kind: KindProtocol, Message: fmt.Sprintf("hooks/list answered a hook with an unusable %s %q", f.name, truncate(f.v, 80))}
		}
	}
	return nil
}

// send writes one JSON line.
func (s *session) send(msg any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return &Error{Kind: KindProtocol, Message: "cannot encode a request", Err: err}
	}
	if _, err := s.in.Write(append(b, '\n')); err != nil {
		return &Error{Kind: KindExited, Message: "the app-server stopped reading", Err: err}
	}
	return nil
}

// endedBefore words a failed write as what it means: the app-server
// exited before it answered method. Whether it exits before or after it
// reads the request is a race; both read the same to the caller.
func endedBefore(err error, method string) error {
	var e *Error
	if errors.As(err, &e) && e.Kind == KindExited {
		e.Message = fmt.Sprintf("it ended before it answered %s (it stopped reading)", method)
	}
	return err
}

// call sends a request and waits for the answer with the same id,
// passing over notifications and other messages.
func (s *session) call(id int, method string, params any) (json.RawMessage, error) {
	if err := s.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		return nil, endedBefore(err, method)
	}
	for {
		var l line
		var ok bool
		select {
		case <-s.ctx.Done():
			return nil, &Error{Kind: KindTimeout, Message: fmt.Sprintf("no answer to %s in time", method), Err: s.ctx.Err()}
		case l, ok = <-s.lines:
		}
		if !ok {
			return nil, &Error{Kind: KindExited, Message: fmt.Sprintf("it ended before it answered %s", method)}
		}
		if l.err != nil {
			return nil, &Error{Kind: KindProtocol, Message: "cannot read its output", Err: l.err}
		}
		var msg struct {
			ID     *json.RawMessage `json:"id"`
			Method string           `json:"method"`
			Result json.RawMessage  `json:"result"`
			Error  *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(l.text, &msg); err != nil {
			// Not JSON: a stray log line. Skip it.
			continue
		}
		if msg.ID == nil || msg.Method != "" || !bytes.Equal(bytes.TrimSpace(*msg.ID), []byte(fmt.Sprint(id))) {
			continue // a notification, or a request from the server
		}
		if msg.Error != nil {
			return nil, &Error{Kind: KindRemote, Code: msg.Error.Code, Message: fmt.Sprintf("%s failed: %s (code %d)", method, truncate(msg.Error.Message, 300), msg.Error.Code)}
		}
		if len(msg.Result) == 0 {
			return nil, &Error{Kind: KindProtocol, Message: fmt.Sprintf("the answer to %s has no result", method)}
		}
		return msg.Result, nil
	}
}

// line is one line of output, or the error that ended the output.
type line struct {
	text []byte
	err  error
}

// readLines reads r line by line until it ends, within MaxLine and
// MaxOutput, and then closes the channel.
func readLines(ctx context.Context, r io.Reader) <-chan line {
	ch := make(chan line, 16)
	put := func(l line) bool {
		select {
		case ch <- l:
			return true
		case <-ctx.Done():
			return false
		}
	}
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(io.LimitReader(r, MaxOutput))
		sc.Buffer(make([]byte, 0, 64<<10), MaxLine)
		for sc.Scan() {
			if !put(line{text: bytes.Clone(sc.Bytes())}) {
				break
			}
		}
		if err := sc.Err(); err != nil {
			put(line{err: err})
		}
		// Drain what is left so the child never blocks on a full pipe.
		_, _ = io.Copy(io.Discard, r)
	}()
	return ch
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	max int
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = t.buf[len(t.buf)-t.max:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string { return strings.ToValidUTF8(string(t.buf), "?") }

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
