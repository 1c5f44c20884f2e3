package source

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/termtext"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agent-skills/agent-skills/registry"
)

// This file is the MCP client of the mcp: and mcp+https:// sources. The
// go-sdk client does the handshake and resources/read; it cannot send a
// method it does not know (its sending table is fixed, and an unknown
// method is jsonrpc2.ErrNotHandled), so skills/list and skills/get are
// written by sideConn onto the same connection under ids of their own,
// and their answers taken out of the stream before the SDK reads it.

// mcpProtocolVersion is the protocol version asked for: the newest before
// SEP-2575's stateless handshake, which every server that speaks
// initialize accepts. SEP-2640's ttlMs and cacheScope are optional in it.
const mcpProtocolVersion = "2025-11-25"

// Bounds of what an MCP server may send.
const (
	// mcpMaxMessage caps one JSON-RPC message: a 16 MiB file in base64
	// with its envelope fits.
	mcpMaxMessage = 24 << 20
	// mcpMaxStderr is how much of a stdio server's stderr is kept for
	// messages.
	mcpMaxStderr = 8 << 10
	// mcpCloseWait is how long a stdio server has to exit once its stdin
	// is closed, before it is killed.
	mcpCloseWait = 2 * time.Second
)

// mcpSession is an initialised session with an MCP server.
type mcpSession struct {
	cs    *mcp.ClientSession
	side  *sideConn
	shown string        // the server, as messages name it
	idle  time.Duration // the bound of each request
	// stderr is a stdio server's captured stderr; nil over HTTP.
	stderr *capBuffer
}

// dialMCP starts (stdio) or reaches (HTTP) the server r names and runs
// the initialize handshake, within opts' idle timeout. ctx bounds the
// whole session: a stdio server is killed when it ends.
func dialMCP(ctx context.Context, r Ref, opts *Options) (*mcpSession, error) {
	t := opts.HTTPTimeouts
	if t.Idle <= 0 {
		t.Idle = registry.DefaultHTTPTimeouts().Idle
	}
	s := &mcpSession{shown: mcpShown(r), idle: t.Idle}
	var inner mcp.Connection
	if r.URL == "" {
		argv, why := splitWords(r.Command)
		if why != "" || len(argv) == 0 {
			return nil, mcpInvalid(r.Input, "the command cannot be split into words")
		}
		lc, err := startStdio(ctx, argv, opts)
		if err != nil {
			return nil, err
		}
		inner, s.stderr = lc, lc.stderr
	} else {
		ht := &mcpHTTP{base: opts.HTTPTransport}
		if ht.base == nil {
			ht.base = http.DefaultTransport
		}
		tr := &mcp.StreamableClientTransport{Endpoint: r.URL, MaxRetries: -1, DisableStandaloneSSE: true,
			MaxEventSize: mcpMaxMessage,
			HTTPClient: &http.Client{Transport: ht, Timeout: t.Idle,
				// An MCP endpoint answers where it is: a redirect could take
				// the session to plain http or to another host.
				CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
		c, err := tr.Connect(ctx)
		if err != nil {
			return nil, s.unavailable("cannot connect", err)
		}
		inner = c
		defer func() { ht.version.Store(mcpProtocolVersion) }()
	}
	s.side = &sideConn{inner: inner, pending: map[string]chan *jsonrpc.Response{}}
	// No client capability is declared: agent-skills serves the server
	// nothing (no roots, no sampling).
	client := mcp.NewClient(&mcp.Implementation{Name: "agent-skills", Version: "1"}, &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
	hctx, cancel := context.WithTimeout(ctx, s.idle)
	defer cancel()
	cs, err := client.Connect(hctx, mcpTransport{s.side}, &mcp.ClientSessionOptions{ProtocolVersion: mcpProtocolVersion})
	if err != nil {
		s.side.Close()
		return nil, s.failed("initialize", hctx, err)
	}
	s.cs = cs
	return s, nil
}

// Close ends the session; a stdio server is asked to exit and killed
// when it does not.
func (s *mcpSession) Close() {
	if s.cs != nil {
		s.cs.Close()
	}
	s.side.Close()
}

// call sends a method the SDK does not know and decodes its result;
// what names the request in messages.
func (s *mcpSession) call(ctx context.Context, method, what string, params, result any) error {
	cctx, cancel := context.WithTimeout(ctx, s.idle)
	defer cancel()
	raw, err := s.side.call(cctx, method, params)
	if err == nil {
		err = json.Unmarshal(raw, result)
		if err != nil {
			return s.protocol(what + " answered with a result that is not the SEP-2640 shape: " + err.Error())
		}
		return nil
	}
	return s.failed(what, cctx, err)
}

// read is resources/read of one URI, bounded like call.
func (s *mcpSession) read(ctx context.Context, uri string) (*mcp.ReadResourceResult, error) {
	cctx, cancel := context.WithTimeout(ctx, s.idle)
	defer cancel()
	res, err := s.cs.ReadResource(cctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return nil, s.failed("resources/read "+uri, cctx, err)
	}
	return res, nil
}

// failed turns the failure of a request into an *Error: a timeout or a
// closed connection is ASK_SOURCE_UNAVAILABLE, an error answer is
// ASK_SOURCE_NOT_FOUND for -32602 (unknown URI) and the server's failure
// otherwise.
func (s *mcpSession) failed(what string, ctx context.Context, err error) error {
	var we *jsonrpc.Error
	switch {
	case ctx.Err() == context.DeadlineExceeded || errors.Is(err, context.DeadlineExceeded):
		e := s.unavailable(fmt.Sprintf("timed out: no answer to %s within %s", what, s.idle), nil)
		e.Try = append([]string{"raise AGENT_SKILLS_HTTP_TIMEOUT if the server is slow (seconds or a duration such as 90s)"}, e.Try...)
		return e
	case errors.As(err, &we) && we.Code == jsonrpc.CodeInvalidParams:
		return notFound(fmt.Sprintf("the MCP server %s knows nothing of %s: %s", s.shown, what, termtext.Line(we.Message)), s.stderrLines(),
			"list what it serves: agent-skills install "+joinWords([]string{s.shown})+" --list")
	case errors.As(err, &we) && we.Code != mcpCodeTransport:
		return s.unavailable(fmt.Sprintf("%s failed (%d): %s", what, we.Code, termtext.Line(we.Message)), nil)
	}
	return s.unavailable(what+" failed", err)
}

// mcpCodeTransport is the code the go-sdk gives a request its transport
// could not deliver (a refused connection, an HTTP error); the reason is
// in the error's text, not in the code.
const mcpCodeTransport = -32005

// unavailable is ASK_SOURCE_UNAVAILABLE about the server, with the end of
// its stderr.
func (s *mcpSession) unavailable(what string, err error) *Error {
	msg := "the MCP server " + s.shown + ": " + what
	if err != nil {
		msg += ": " + termtext.Line(scrub(err.Error(), nil))
	}
	return &Error{Code: CodeSourceUnavailable, Message: msg, Detail: s.stderrLines(),
		Try: []string{"check that the command runs and speaks MCP on stdin/stdout (or that the URL is an MCP endpoint)"}}
}

// protocol is ASK_SOURCE_INVALID for an answer that breaks SEP-2640.
func (s *mcpSession) protocol(why string) *Error {
	return &Error{Code: CodeSourceInvalid, Message: "the MCP server " + s.shown + " broke the skills protocol: " + termtext.Line(why),
		Detail: []string{"Nothing was installed."},
		Try:    []string{"report it to the server's maintainers (SEP-2640, io.modelcontextprotocol/skills)"}}
}

// stderrLines are the last lines of a stdio server's stderr, sanitised,
// as message details.
func (s *mcpSession) stderrLines() []string {
	if s.stderr == nil {
		return nil
	}
	text := strings.TrimSpace(s.stderr.String())
	if text == "" {
		return nil
	}
	lines := strings.Split(text, "\n")
	if len(lines) > 10 {
		lines = lines[len(lines)-10:]
	}
	out := []string{"the server's stderr ended with:"}
	for _, l := range lines {
		out = append(out, "  "+termtext.Line(strings.TrimRight(l, "\r")))
	}
	return out
}

// mcpTransport hands the SDK client a connection made already.
type mcpTransport struct{ conn mcp.Connection }

// Connect returns the connection.
func (t mcpTransport) Connect(context.Context) (mcp.Connection, error) { return t.conn, nil }

// sideConn is a connection that also carries requests the SDK does not
// send: they get string ids of their own ("agent-skills-N"; the SDK's are
// numbers), and their responses are taken out of the stream before the
// SDK's reader sees them.
type sideConn struct {
	inner   mcp.Connection
	next    atomic.Int64
	mu      sync.Mutex
	pending map[string]chan *jsonrpc.Response
	closed  bool
}

// Read returns the next message that is not the answer to a side call.
func (c *sideConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		m, err := c.inner.Read(ctx)
		if err != nil {
			c.fail()
			return nil, err
		}
		if resp, ok := m.(*jsonrpc.Response); ok {
			if ch := c.take(resp.ID); ch != nil {
				ch <- resp
				continue
			}
		}
		return m, nil
	}
}

// Write writes a message of the SDK's.
func (c *sideConn) Write(ctx context.Context, m jsonrpc.Message) error { return c.inner.Write(ctx, m) }

// Close closes the connection; pending side calls fail.
func (c *sideConn) Close() error {
	c.fail()
	return c.inner.Close()
}

// SessionID is the inner connection's.
func (c *sideConn) SessionID() string { return c.inner.SessionID() }

// fail ends every pending side call.
func (c *sideConn) fail() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	for k, ch := range c.pending {
		close(ch)
		delete(c.pending, k)
	}
}

// take removes and returns the channel waiting for id, or nil.
func (c *sideConn) take(id jsonrpc.ID) chan *jsonrpc.Response {
	s, ok := id.Raw().(string)
	if !ok {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := c.pending[s]
	delete(c.pending, s)
	return ch
}

// call sends a request and waits for its result. The SDK's reader must
// be running (it is, once the session is connected): it is what reads
// the answer.
func (c *sideConn) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	key := fmt.Sprintf("agent-skills-%d", c.next.Add(1))
	id, err := jsonrpc.MakeID(key)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	ch := make(chan *jsonrpc.Response, 1)
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, errors.New("the connection is closed")
	}
	c.pending[key] = ch
	c.mu.Unlock()
	drop := func() {
		c.mu.Lock()
		delete(c.pending, key)
		c.mu.Unlock()
	}
	if err := c.inner.Write(ctx, &jsonrpc.Request{ID: id, Method: method, Params: raw}); err != nil {
		drop()
		return nil, err
	}
	select {
	case resp, ok := <-ch:
		if !ok {
			return nil, errors.New("the connection closed before the answer")
		}
		if resp.Error != nil {
			var we *jsonrpc.Error
			if errors.As(resp.Error, &we) {
				return nil, we
			}
			return nil, resp.Error
		}
		return resp.Result, nil
	case <-ctx.Done():
		drop()
		return nil, ctx.Err()
	}
}

// mcpHTTP sends the streamable HTTP requests: each response body is
// capped, and the MCP-Protocol-Version header is set once the version is
// known (the SDK sets it only on its own connection type, which sideConn
// wraps).
type mcpHTTP struct {
	base    http.RoundTripper
	version atomic.Value // string
}

// RoundTrip sends req and caps its response body.
func (h *mcpHTTP) RoundTrip(req *http.Request) (*http.Response, error) {
	if v, _ := h.version.Load().(string); v != "" && req.Header.Get("Mcp-Protocol-Version") == "" {
		req = req.Clone(req.Context())
		req.Header.Set("Mcp-Protocol-Version", v)
	}
	resp, err := h.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	resp.Body = &capReader{r: resp.Body, left: mcpMaxMessage + 1<<20}
	return resp, nil
}

// capReader fails a body that goes on past its cap.
type capReader struct {
	r    io.ReadCloser
	left int64
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, errors.New("the server's response is larger than agent-skills accepts")
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

func (c *capReader) Close() error { return c.r.Close() }

// stdioConn is the MCP stdio transport over a child process: one JSON
// message per line, each line capped, stderr kept up to mcpMaxStderr.
type stdioConn struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	out    *bufio.Reader
	stderr *capBuffer
	wmu    sync.Mutex
	once   sync.Once
	done   chan struct{}
}

// startStdio runs argv (no shell) with the environment of agent-skills,
// in its working folder. ctx ending kills it.
func startStdio(ctx context.Context, argv []string, opts *Options) (*stdioConn, error) {
	exe, err := exec.LookPath(argv[0])
	if err != nil {
		return nil, &Error{Code: CodeSourceNotFound, Message: "cannot run the MCP server " + quote(termtext.Line(argv[0])) + ": " + termtext.Line(err.Error()),
			Try: []string{"check the command; it is run without a shell, and a program in the current folder is written ./name"}}
	}
	cmd := exec.CommandContext(ctx, exe, argv[1:]...)
	cmd.Args[0] = argv[0]
	cmd.WaitDelay = mcpCloseWait
	c := &stdioConn{cmd: cmd, stderr: &capBuffer{max: mcpMaxStderr}, done: make(chan struct{})}
	cmd.Stderr = c.stderr
	if c.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	c.out = bufio.NewReaderSize(stdout, 64<<10)
	if err := cmd.Start(); err != nil {
		return nil, &Error{Code: CodeSourceUnavailable, Message: "cannot start the MCP server " + quote(termtext.Line(joinWords(argv))) + ": " + termtext.Line(err.Error())}
	}
	go func() { cmd.Wait(); close(c.done) }()
	return c, nil
}

// Read reads the next message: one line, at most mcpMaxMessage bytes.
func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		var line []byte
		for {
			chunk, err := c.out.ReadSlice('\n')
			if len(line)+len(chunk) > mcpMaxMessage {
				return nil, errors.New("the server sent a message larger than agent-skills accepts")
			}
			line = append(line, chunk...)
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil {
				if err == io.EOF && len(bytes.TrimSpace(line)) == 0 {
					return nil, io.EOF
				}
				if err != io.EOF {
					return nil, err
				}
			}
			break
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		return jsonrpc.DecodeMessage(line)
	}
}

// Write writes one message as a line.
func (c *stdioConn) Write(ctx context.Context, m jsonrpc.Message) error {
	data, err := jsonrpc.EncodeMessage(m)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err = c.stdin.Write(append(data, '\n'))
	return err
}

// Close closes the server's stdin, waits mcpCloseWait for it to exit and
// kills it if it does not.
func (c *stdioConn) Close() error {
	c.once.Do(func() {
		c.stdin.Close()
		select {
		case <-c.done:
		case <-time.After(mcpCloseWait):
			if c.cmd.Process != nil {
				c.cmd.Process.Signal(os.Kill)
			}
			<-c.done
		}
	})
	return nil
}

// SessionID is "": stdio has no session ids.
func (c *stdioConn) SessionID() string { return "" }

// capBuffer keeps the last max bytes written to it.
type capBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (b *capBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) > b.max {
		b.buf = append([]byte(nil), b.buf[len(b.buf)-b.max:]...)
	}
	return len(p), nil
}

func (b *capBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}
