package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// session runs the server over a LineTransport fed with lines and returns
// every line it wrote, keyed by response id ("null" for framing errors,
// several joined by newlines).
func session(t *testing.T, lines ...string) map[string]string {
	t.Helper()
	var out bytes.Buffer
	in := strings.NewReader(strings.Join(lines, "\n") + "\n")
	srv := New(&fakeBackend{}, Options{})
	if err := srv.Run(context.Background(), &LineTransport{In: in, Out: &out}); err != nil && !strings.Contains(err.Error(), "EOF") {
		t.Fatalf("Run() = %v", err)
	}
	got := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m struct {
			ID json.RawMessage `json:"id"`
		}
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("the server wrote a line that is not JSON: %q", l)
		}
		k := string(m.ID)
		if got[k] != "" {
			got[k] += "\n"
		}
		got[k] += l
	}
	return got
}

const initLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
const initializedLine = `{"jsonrpc":"2.0","method":"notifications/initialized"}`

func TestLineTransportFraming(t *testing.T) {
	got := session(t,
		initLine, initializedLine,
		`this is not json`,
		`[{"jsonrpc":"2.0","id":9,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}`,
		`{"jsonrpc":"1.0","id":7,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":8}`,
		`"a string"`,
		``,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nope","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"read_skill","arguments":{"skill":"java-basics","resource":"/etc/passwd"}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"no/such/method"}`,
	)
	tests := []struct{ id, want string }{
		{"1", `"serverInfo"`},
		{"null", `"code":-32700`},
		{"null", `batches are not supported`},
		{"null", `id must be a string or a number`},
		{"null", `"code":-32600`},
		{"7", `must be \"2.0\"`},
		{"8", `no method`},
		{"2", `"search_skills"`},
		{"3", `unknown tool`},
		{"4", `"isError":true`},
		{"5", `"error"`},
	}
	for _, tt := range tests {
		if !strings.Contains(got[tt.id], tt.want) {
			t.Errorf("response %s = %.300q, want it to contain %q", tt.id, got[tt.id], tt.want)
		}
	}
}

func TestLineTooLong(t *testing.T) {
	got := session(t, initLine, initializedLine, `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":"`+strings.Repeat("a", MaxMessageBytes)+`"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	if !strings.Contains(got["null"], "longer than 4 MiB") || !strings.Contains(got["3"], `"result"`) {
		t.Errorf("session with a long line = %.300v, want a framing error and the next ping answered", got)
	}
}

// FuzzCheck: check never panics, and a line it passes on is valid JSON.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{initLine, "x", "[]", `{"jsonrpc":"2.0","id":null,"method":"m"}`, `{"jsonrpc":"2.0","id":1,"result":{}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			return
		}
		_, _, code, _ := check(line)
		if code == 0 && !json.Valid(line) {
			t.Fatalf("check(%q) passed a line that is not JSON", line)
		}
	})
}
