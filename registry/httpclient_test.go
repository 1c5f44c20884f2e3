package registry

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// stallServer accepts TCP connections on loopback and never answers; with
// head set it answers the first request line with response headers and
// the first bytes of a longer body, then goes silent. conns counts the
// connections accepted.
type stallServer struct {
	ln    net.Listener
	mu    sync.Mutex
	conns int
}

func newStallServer(t *testing.T, head string) *stallServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &stallServer{ln: ln}
	var held []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.conns++
			held = append(held, c)
			s.mu.Unlock()
			if head != "" {
				go func() {
					buf := make([]byte, 4096)
					c.Read(buf)
					io.WriteString(c, head)
				}()
			}
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		s.mu.Lock()
		for _, c := range held {
			c.Close()
		}
		s.mu.Unlock()
	})
	return s
}

// url is the server's base URL with scheme.
func (s *stallServer) url(scheme string) string { return scheme + "://" + s.ln.Addr().String() }

// accepted returns the number of connections accepted so far.
func (s *stallServer) accepted() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conns
}

// fast are limits short enough for tests.
var fast = HTTPTimeouts{Connect: 2 * time.Second, TLSHandshake: 300 * time.Millisecond,
	ResponseHeader: 300 * time.Millisecond, Idle: 300 * time.Millisecond, Total: 5 * time.Second}

// getAll fetches u with c and reads the whole body.
func getAll(ctx context.Context, c *HTTPClient, u string) ([]byte, error) {
	pu, err := url.Parse(u)
	if err != nil {
		return nil, err
	}
	resp, err := c.Get(ctx, pu, nil)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

// TestHTTPClientTimeouts is B10: every phase of a request is bounded, and
// a stalled server fails with an error that says it timed out.
func TestHTTPClientTimeouts(t *testing.T) {
	trickle := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "100000")
		for i := 0; i < 1000; i++ {
			if _, err := w.Write([]byte("x")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}))
	defer trickle.Close()
	tests := []struct {
		name string
		url  string
		lim  HTTPTimeouts
		want string
	}{
		{"no response headers", newStallServer(t, "").url("http"), fast, "timeout awaiting response headers"},
		{"no TLS handshake", newStallServer(t, "").url("https"), fast, "TLS handshake timeout"},
		{"body stalls", newStallServer(t, "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nfirst bytes").url("http"), fast,
			"no data received for 300ms"},
		{"body trickles past the total", trickle.URL, HTTPTimeouts{Idle: time.Second, Total: 400 * time.Millisecond},
			"longer than 400ms in all"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, err := getAll(t.Context(), NewHTTPClient(HTTPOptions{Timeouts: tt.lim}), tt.url+"/x.tar.gz")
			if !errors.Is(err, ErrHTTPTimeout) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "timed out") {
				t.Fatalf("Get(%s) = %v, want a timeout saying %q", tt.name, err, tt.want)
			}
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("Get(%s) took %v", tt.name, d)
			}
		})
	}
}

// TestHTTPClientCallerContext checks that the caller's cancellation stays
// context.Canceled (the CLI reports it as an interruption) while the
// caller's passed deadline is a timeout.
func TestHTTPClientCallerContext(t *testing.T) {
	s := newStallServer(t, "")
	slow := HTTPTimeouts{ResponseHeader: time.Minute, Idle: time.Minute}
	c := NewHTTPClient(HTTPOptions{Timeouts: slow})

	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err := getAll(ctx, c, s.url("http")+"/x")
	if !errors.Is(err, context.Canceled) || errors.Is(err, ErrHTTPTimeout) {
		t.Errorf("Get(cancelled) = %v, want context.Canceled", err)
	}

	ctx, cancel = context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	_, err = getAll(ctx, c, s.url("http")+"/x")
	if !errors.Is(err, ErrHTTPTimeout) {
		t.Errorf("Get(deadline passed) = %v, want a timeout", err)
	}
}

// TestHTTPClientRedirectPolicy is B08: where a redirect may lead.
func TestHTTPClientRedirectPolicy(t *testing.T) {
	tests := []struct {
		name     string
		insecure bool
		chain    []string // the URL asked for, then each redirect
		want     string   // "" = followed
	}{
		{"https to another https host", false, []string{"https://github.com/o/r/releases/download/v1/x.zip", "https://objects.githubusercontent.com/x"}, ""},
		{"loopback to loopback", false, []string{"http://127.0.0.1:1/x", "http://localhost:2/y"}, ""},
		{"loopback to plain http remote", false, []string{"http://127.0.0.1:1/x", "http://plain-http-remote.example/skill.tar.gz"}, "plain http:// is only allowed to loopback"},
		{"https to plain http remote", false, []string{"https://example.com/x", "http://example.com/x"}, "plain http:// is only allowed to loopback"},
		{"https remote to http loopback", false, []string{"https://example.com/x", "http://127.0.0.1/x"}, "downgrade"},
		{"https remote to https loopback", false, []string{"https://example.com/x", "https://localhost/x"}, "loopback address"},
		{"https loopback to http loopback", false, []string{"https://127.0.0.1:1/x", "http://127.0.0.1:2/x"}, ""},
		{"insecure host to itself", true, []string{"http://mirror.example/x", "http://mirror.example/y"}, ""},
		{"insecure host to another plain http host", true, []string{"http://mirror.example/x", "http://other.example/y"}, "plain http://"},
		{"insecure host, https downgraded", true, []string{"http://mirror.example/x", "https://mirror.example/y", "http://mirror.example/z"}, "downgrade"},
		{"file scheme", false, []string{"https://example.com/x", "file:///etc/passwd"}, `scheme "file"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewHTTPClient(HTTPOptions{AllowInsecure: tt.insecure})
			var via []*http.Request
			for i, u := range tt.chain {
				req, err := http.NewRequest(http.MethodGet, u, nil)
				if err != nil {
					t.Fatal(err)
				}
				if i == 0 {
					via = append(via, req)
					continue
				}
				err = c.checkRedirect(req, via)
				if i < len(tt.chain)-1 {
					if err != nil {
						t.Fatalf("hop %d: %v", i, err)
					}
					via = append(via, req)
					continue
				}
				switch {
				case tt.want == "" && err != nil:
					t.Fatalf("redirect %v refused: %v", tt.chain, err)
				case tt.want != "" && (!errors.Is(err, ErrRedirectRefused) || !strings.Contains(err.Error(), tt.want)):
					t.Fatalf("redirect %v = %v, want refused with %q", tt.chain, err, tt.want)
				}
			}
		})
	}
}

// TestHTTPClientRedirectToAnotherHost checks, against real loopback
// servers, that a redirect to another host is followed with a notice and
// that credentials, cookies and the referring URL do not follow it.
func TestHTTPClientRedirectToAnotherHost(t *testing.T) {
	var mu sync.Mutex
	var seen http.Header
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = r.Header.Clone()
		mu.Unlock()
		io.WriteString(w, "payload")
	}))
	defer target.Close()
	// The same server under another host name: localhost instead of 127.0.0.1.
	other := strings.Replace(target.URL, "127.0.0.1", "localhost", 1)
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other+"/file", http.StatusFound)
	}))
	defer origin.Close()
	var n notices
	c := NewHTTPClient(HTTPOptions{Timeouts: fast, Notify: n.add})
	u, _ := url.Parse(origin.URL + "/x")
	u.User = url.UserPassword("alice", "s3cret")
	resp, err := c.Get(t.Context(), u, http.Header{"Authorization": {"Bearer tok"}, "Cookie": {"session=1"}})
	if err != nil {
		t.Fatalf("Get(redirect to another host) = %v, want it followed", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "payload" {
		t.Errorf("body = %q", body)
	}
	for _, h := range []string{"Authorization", "Cookie", "Referer"} {
		if v := seen.Get(h); v != "" {
			t.Errorf("the other host received %s: %q", h, v)
		}
	}
	if len(n.list) != 1 || !strings.Contains(n.list[0], "another host") || !strings.Contains(n.list[0], strings.TrimPrefix(other, "http://")) {
		t.Errorf("notices = %q, want one naming %s", n.list, other)
	}
	if strings.Contains(strings.Join(n.list, ""), "s3cret") {
		t.Errorf("a notice shows the password: %q", n.list)
	}
}

// TestHTTPRegistryTimesOut checks the registry end: a stalled index or
// tarball is ASK_REGISTRY_UNAVAILABLE saying it timed out, after one
// attempt, and a stalled download leaves nothing in the payload cache.
func TestHTTPRegistryTimesOut(t *testing.T) {
	s := newStallServer(t, "")
	cache := t.TempDir()
	r, err := Open(Spec{Name: "slow", URL: s.url("http") + "/index.json"}, Options{CacheDir: cache, HTTPTimeouts: fast})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Index(t.Context()); codeOf(err) != "ASK_REGISTRY_UNAVAILABLE" || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("Index(stalled) = %v, want ASK_REGISTRY_UNAVAILABLE saying it timed out", err)
	}
	if n := s.accepted(); n != 1 {
		t.Errorf("a timed-out index was asked %d times, want 1", n)
	}

	m := newMiniServer(t)
	stall := newStallServer(t, "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n\x1f\x8b")
	m.index = []byte(strings.Replace(string(m.index), "archives/demo-skill-1.0.0.tar.gz", stall.url("http")+"/demo.tar.gz", 1))
	r, err = Open(Spec{Name: "mini", URL: m.srv.URL + "/index.json"}, Options{CacheDir: cache, HTTPTimeouts: fast})
	if err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(t.TempDir(), "demo-skill")
	_, err = r.Fetch(t.Context(), "demo-skill", "1.0.0", dest)
	if codeOf(err) != "ASK_REGISTRY_UNAVAILABLE" || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("Fetch(stalled tarball) = %v (%s), want ASK_REGISTRY_UNAVAILABLE saying it timed out", err, codeOf(err))
	}
	ents, _ := os.ReadDir(filepath.Join(cache, "payloads"))
	if len(ents) != 0 {
		t.Errorf("cache/payloads holds %d entries after a stalled download", len(ents))
	}
	assertNothingAt(t, dest)
}
