package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxMessageBytes bounds one incoming JSON-RPC line.
const MaxMessageBytes = 4 << 20

// JSON-RPC error codes the framing layer answers with.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// LineTransport is newline-delimited JSON-RPC over a reader and a writer
// (stdin and stdout) that survives bad framing: a line that is not JSON,
// not a JSON-RPC 2.0 message, a batch, or longer than MaxMessageBytes is
// answered with a JSON-RPC error (-32700 parse error or -32600 invalid
// request, with the request's id when it has a usable one) and skipped, so
// one bad line never ends the session. The SDK's own stdio transport closes
// the session on the first such line.
type LineTransport struct {
	// In is where requests arrive (stdin).
	In io.Reader
	// Out is where responses go (stdout).
	Out io.Writer
	// Methods answers, here and not in the SDK, the requests of methods
	// the SDK refuses before any middleware runs: the SEP-2640 skills/list
	// and skills/get (see SkillMethods). Each runs in its own goroutine;
	// its result or *RPCError is written as the response.
	Methods map[string]MethodHandler
}

// Connect starts filtering In and returns the SDK connection over the
// valid messages.
func (t *LineTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	pr, pw := io.Pipe()
	out := &lockedWriter{w: t.Out, pending: map[string]bool{}}
	out.cond = sync.NewCond(&out.mu)
	go filterLines(ctx, t.In, pw, out, t.Methods)
	return (&mcp.IOTransport{Reader: pr, Writer: out, MaxLineLength: MaxMessageBytes + 1}).Connect(ctx)
}

// lockedWriter writes whole messages under a lock, so that framing errors
// and SDK responses never interleave, and tracks the requests not yet
// answered, so that the end of the input waits for their responses.
type lockedWriter struct {
	mu      sync.Mutex
	cond    *sync.Cond
	w       io.Writer
	pending map[string]bool
}

// Write writes p under the lock and marks a response's request answered.
func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var env envelope
	if json.Unmarshal(p, &env) == nil && env.Method == nil && len(env.ID) > 0 {
		delete(l.pending, string(env.ID))
		l.cond.Broadcast()
	}
	return l.w.Write(p)
}

// expect records a request whose response is awaited.
func (l *lockedWriter) expect(id json.RawMessage) {
	l.mu.Lock()
	l.pending[string(id)] = true
	l.mu.Unlock()
}

// drain waits until every recorded request is answered or d has passed.
func (l *lockedWriter) drain(d time.Duration) {
	t := time.AfterFunc(d, func() {
		l.mu.Lock()
		clear(l.pending)
		l.cond.Broadcast()
		l.mu.Unlock()
	})
	defer t.Stop()
	l.mu.Lock()
	for len(l.pending) > 0 {
		l.cond.Wait()
	}
	l.mu.Unlock()
}

// Close does nothing: the process owns stdout.
func (l *lockedWriter) Close() error { return nil }

// filterLines copies valid message lines from in to pw and answers the
// others on out, and the requests of methods on out with their handler.
// At the end of in it waits (at most drainTimeout) for the responses to
// the requests it passed on or answered, then closes pw.
func filterLines(ctx context.Context, in io.Reader, pw *io.PipeWriter, out *lockedWriter, methods map[string]MethodHandler) {
	br := bufio.NewReaderSize(in, 64<<10)
	sem := make(chan struct{}, maxMethodCalls)
	for {
		line, tooLong, err := readLine(br)
		line = bytes.TrimSpace(line)
		switch {
		case tooLong:
			writeError(out, nil, codeParseError, "message longer than 4 MiB")
		case len(line) == 0:
		default:
			id, request, code, msg := check(line)
			if code != 0 {
				writeError(out, id, code, msg)
				break
			}
			if request {
				out.expect(id)
				if h := methods[methodOf(line)]; h != nil {
					// At most maxMethodCalls run at once: a flood of
					// listings waits here instead of hashing in parallel.
					sem <- struct{}{}
					go func() {
						defer func() { <-sem }()
						answer(ctx, out, id, h, line)
					}()
					break
				}
			}
			if _, werr := pw.Write(append(line, '\n')); werr != nil {
				return
			}
		}
		if err != nil {
			out.drain(drainTimeout)
			pw.CloseWithError(ignoreEOF(err))
			return
		}
	}
}

// maxMethodCalls bounds the Methods handlers running at once.
const maxMethodCalls = 4

// drainTimeout bounds the wait for outstanding responses at end of input.
const drainTimeout = 30 * time.Second

// readLine reads one line of at most MaxMessageBytes, draining a longer one.
func readLine(br *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, e := br.ReadSlice('\n')
		if len(line)+len(chunk) > MaxMessageBytes {
			tooLong = true
			line = line[:0]
		} else if !tooLong {
			line = append(line, chunk...)
		}
		if errors.Is(e, bufio.ErrBufferFull) {
			continue
		}
		return line, tooLong, e
	}
}

// envelope is the shape every JSON-RPC 2.0 message has.
type envelope struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  *string         `json:"method"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// check classifies one line: a request (with its id) to pass on, another
// valid message, or — with a non-zero code and a message — a line that is
// not one valid JSON-RPC 2.0 message, with its id when usable.
func check(line []byte) (id json.RawMessage, request bool, code int, msg string) {
	if !json.Valid(line) {
		return nil, false, codeParseError, "parse error: the line is not valid JSON"
	}
	if line[0] == '[' {
		return nil, false, codeInvalidRequest, "JSON-RPC batches are not supported"
	}
	var env envelope
	if line[0] != '{' || json.Unmarshal(line, &env) != nil {
		return nil, false, codeInvalidRequest, "invalid request: not a JSON-RPC 2.0 message object"
	}
	if len(env.ID) > 0 && string(env.ID) != "null" {
		switch env.ID[0] {
		case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			id = env.ID
		default:
			return nil, false, codeInvalidRequest, "invalid request: id must be a string or a number"
		}
	}
	switch {
	case env.JSONRPC != "2.0":
		return id, false, codeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`
	case env.Method == nil && (id == nil || (env.Result == nil && env.Error == nil)):
		return id, false, codeInvalidRequest, "invalid request: no method"
	}
	return id, env.Method != nil && id != nil, 0, ""
}

// methodOf returns the method of a checked request line.
func methodOf(line []byte) string {
	var env envelope
	if json.Unmarshal(line, &env) != nil || env.Method == nil {
		return ""
	}
	return *env.Method
}

// answer runs a method handler on a request line and writes its response.
func answer(ctx context.Context, out *lockedWriter, id json.RawMessage, h MethodHandler, line []byte) {
	var req struct {
		Params json.RawMessage `json:"params"`
	}
	_ = json.Unmarshal(line, &req)
	res, err := h(ctx, req.Params)
	if err != nil {
		var rpc *RPCError
		if !errors.As(err, &rpc) {
			rpc = internalError(err)
		}
		writeError(out, id, int(rpc.Code), rpc.Message)
		return
	}
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  any             `json:"result"`
	}{"2.0", id, res})
	if err != nil {
		writeError(out, id, -32603, "cannot encode the result: "+err.Error())
		return
	}
	_, _ = out.Write(append(b, '\n'))
}

// writeError writes one JSON-RPC error response.
func writeError(out io.Writer, id json.RawMessage, code int, msg string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	_, _ = out.Write(append(b, '\n'))
}

// ignoreEOF turns io.EOF into nil, so that the reader sees a clean end.
func ignoreEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}
