package registry

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// The HTTP client policy shared by http registries and archive sources:
// which URLs may be fetched, where a redirect may lead, what follows it,
// and how long each phase of a request may take. A server that accepts a
// connection and then stalls must fail the command, not hang it.

// Default time limits of one HTTP request; see HTTPTimeouts.
const (
	defaultConnectTimeout = 30 * time.Second
	defaultTLSTimeout     = 15 * time.Second
	defaultHeaderTimeout  = 30 * time.Second
	defaultIdleTimeout    = 30 * time.Second
	// defaultTotalTimeout lets a 200 MiB archive arrive at about 350 KB/s.
	defaultTotalTimeout = 10 * time.Minute
	maxRedirects        = 10
)

// HTTPTimeouts bounds each phase of one HTTP request. A zero field takes
// its DefaultHTTPTimeouts value.
type HTTPTimeouts struct {
	// Connect bounds opening the TCP connection.
	Connect time.Duration
	// TLSHandshake bounds the TLS handshake.
	TLSHandshake time.Duration
	// ResponseHeader bounds the wait for the response headers once the
	// request was written.
	ResponseHeader time.Duration
	// Idle bounds the wait for the next bytes of the response body.
	Idle time.Duration
	// Total bounds the whole request: redirects, headers and body.
	Total time.Duration
}

// DefaultHTTPTimeouts returns the limits used when none is set: 30 s to
// connect, 15 s for the TLS handshake, 30 s for the response headers, 30 s
// without a byte of the body, and 10 minutes in all.
func DefaultHTTPTimeouts() HTTPTimeouts {
	return HTTPTimeouts{
		Connect:        defaultConnectTimeout,
		TLSHandshake:   defaultTLSTimeout,
		ResponseHeader: defaultHeaderTimeout,
		Idle:           defaultIdleTimeout,
		Total:          defaultTotalTimeout,
	}
}

// orDefaults fills the zero fields from DefaultHTTPTimeouts.
func (t HTTPTimeouts) orDefaults() HTTPTimeouts {
	d := DefaultHTTPTimeouts()
	pick := func(v, def time.Duration) time.Duration {
		if v > 0 {
			return v
		}
		return def
	}
	return HTTPTimeouts{
		Connect:        pick(t.Connect, d.Connect),
		TLSHandshake:   pick(t.TLSHandshake, d.TLSHandshake),
		ResponseHeader: pick(t.ResponseHeader, d.ResponseHeader),
		Idle:           pick(t.Idle, d.Idle),
		Total:          pick(t.Total, d.Total),
	}
}

// ErrHTTPTimeout matches, with errors.Is, every error of HTTPClient.Get
// and of a response body it returned that was caused by one of the time
// limits, or by the caller's deadline. The message says which.
var ErrHTTPTimeout = errors.New("timed out")

// ErrRedirectRefused matches, with errors.Is, the error of HTTPClient.Get
// when the server redirected to a URL the policy refuses.
var ErrRedirectRefused = errors.New("refused redirect")

// timeoutError is one expired limit.
type timeoutError struct{ what string }

func (e *timeoutError) Error() string        { return "timed out: " + e.what }
func (e *timeoutError) Is(target error) bool { return target == ErrHTTPTimeout }

// Timeout reports true, like the net package's timeouts.
func (e *timeoutError) Timeout() bool { return true }

// redirectError is a redirect the policy refused.
type redirectError struct{ to, why string }

func (e *redirectError) Error() string {
	return fmt.Sprintf("refused redirect to %s: %s", e.to, e.why)
}
func (e *redirectError) Is(target error) bool { return target == ErrRedirectRefused }

// HTTPOptions configures NewHTTPClient.
type HTTPOptions struct {
	// Timeouts bounds every request; zero fields take the defaults.
	Timeouts HTTPTimeouts
	// AllowInsecure permits plain http:// to the host of the URL passed
	// to Get (and loopback hosts, which are always allowed), never to a
	// host a redirect names.
	AllowInsecure bool
	// Notify receives one line when a redirect moves a request to another
	// host; nil drops it.
	Notify func(string)
	// Transport sends the requests; nil means a transport with the
	// connect and TLS limits and the proxy from the environment. An
	// *http.Transport is copied and given the limits; any other
	// RoundTripper gets only the header, idle and total limits.
	Transport http.RoundTripper
}

// HTTPClient is agent-skills' one way to fetch a URL. Every request
// gets the time limits of HTTPTimeouts; plain http:// is allowed only to
// loopback hosts (or the configured host with AllowInsecure); a redirect
// may not downgrade https to http, may not move from a remote host to a
// loopback one, is followed to another host only with a notice, and
// never carries credentials, cookies or the referring URL to another
// host. It is safe for concurrent use.
type HTTPClient struct {
	timeouts HTTPTimeouts
	insecure bool
	notify   func(string)
	client   *http.Client
}

// NewHTTPClient builds a client with the policy described on HTTPClient.
func NewHTTPClient(o HTTPOptions) *HTTPClient {
	t := o.Timeouts.orDefaults()
	rt := o.Transport
	switch tr := rt.(type) {
	case nil:
		rt = limitedTransport(http.DefaultTransport.(*http.Transport).Clone(), t)
	case *http.Transport:
		rt = limitedTransport(tr.Clone(), t)
	}
	c := &HTTPClient{timeouts: t, insecure: o.AllowInsecure, notify: o.Notify}
	c.client = &http.Client{Transport: rt, CheckRedirect: c.checkRedirect}
	return c
}

// limitedTransport applies the connect, TLS and header limits to tr.
func limitedTransport(tr *http.Transport, t HTTPTimeouts) *http.Transport {
	tr.DialContext = (&net.Dialer{Timeout: t.Connect, KeepAlive: 30 * time.Second}).DialContext
	tr.TLSHandshakeTimeout = t.TLSHandshake
	tr.ResponseHeaderTimeout = t.ResponseHeader
	if tr.Proxy == nil {
		tr.Proxy = http.ProxyFromEnvironment
	}
	return tr
}

// TransportPolicy returns why u may not be fetched, or "": https always;
// plain http only to a loopback host, or anywhere when allowInsecure.
func TransportPolicy(u *url.URL, allowInsecure bool) string {
	switch strings.ToLower(u.Scheme) {
	case "https":
		return ""
	case "http":
		if allowInsecure || IsLoopback(u.Hostname()) {
			return ""
		}
		return "plain http:// is only allowed to loopback hosts; use https://"
	}
	return fmt.Sprintf("scheme %q is not allowed (want https)", u.Scheme)
}

// IsLoopback reports whether host is localhost, 127.0.0.0/8 or ::1.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// checkRedirect applies the redirect policy to the next hop req, with via
// the requests made so far (via[0] is the URL the caller asked for).
func (c *HTTPClient) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= maxRedirects {
		return fmt.Errorf("stopped after %d redirects", maxRedirects)
	}
	first, prev, next := via[0].URL, via[len(via)-1].URL, req.URL
	shown := redact(next)
	// Plain http on a redirect only to loopback, or to the very host the
	// user allowed insecure use for.
	if why := TransportPolicy(next, c.insecure && strings.EqualFold(next.Host, first.Host)); why != "" {
		return &redirectError{to: shown, why: why}
	}
	switch {
	case strings.EqualFold(prev.Scheme, "https") && !strings.EqualFold(next.Scheme, "https") &&
		!(IsLoopback(prev.Hostname()) && IsLoopback(next.Hostname())):
		return &redirectError{to: shown, why: "a redirect may not downgrade https:// to plain http://"}
	case !IsLoopback(prev.Hostname()) && IsLoopback(next.Hostname()):
		return &redirectError{to: shown, why: "a remote host may not redirect to a loopback address"}
	}
	if !strings.EqualFold(next.Host, first.Host) {
		// Go keeps Authorization for a subdomain; agent-skills sends
		// credentials to the exact host they were meant for only.
		for _, h := range []string{"Authorization", "Proxy-Authorization", "Cookie", "Cookie2"} {
			req.Header.Del(h)
		}
		req.URL.User = nil
	}
	req.Header.Del("Referer")
	if !strings.EqualFold(next.Host, first.Host) && !strings.EqualFold(next.Host, prev.Host) && c.notify != nil {
		c.notify(fmt.Sprintf("%s://%s redirected the download to another host, %s://%s (not the one configured)",
			strings.ToLower(prev.Scheme), prev.Host, strings.ToLower(next.Scheme), next.Host))
	}
	return nil
}

// CloseIdleConnections closes the connections kept open for reuse; a
// caller done with a short-lived client calls it so that a long-running
// process (the MCP server) does not keep them until they time out.
func (c *HTTPClient) CloseIdleConnections() { c.client.CloseIdleConnections() }

// redact renders u without user information, for messages.
func redact(u *url.URL) string {
	c := *u
	c.User = nil
	return c.String()
}

// Get sends a GET for u with the extra header h (nil for none). The
// policy is checked before anything is sent. The response's Body, which
// the caller must close, is bounded by the idle and total limits; a limit
// crossed while reading it fails the Read with an error matching
// ErrHTTPTimeout. When ctx ends, Get and Body.Read return ctx.Err() for a
// cancellation, or an ErrHTTPTimeout error for a passed deadline.
func (c *HTTPClient) Get(ctx context.Context, u *url.URL, h http.Header) (*http.Response, error) {
	if why := TransportPolicy(u, c.insecure); why != "" {
		return nil, fmt.Errorf("refusing to fetch %s: %s", redact(u), why)
	}
	total, cancelTotal := context.WithTimeoutCause(ctx, c.timeouts.Total,
		&timeoutError{fmt.Sprintf("the download took longer than %s in all", c.timeouts.Total)})
	reqCtx, cancel := context.WithCancelCause(total)
	release := func() { cancel(nil); cancelTotal() }
	req, err := http.NewRequestWithContext(reqCtx, http.MethodGet, u.String(), nil)
	if err != nil {
		release()
		return nil, err
	}
	for k, vs := range h {
		req.Header[k] = append([]string(nil), vs...)
	}
	if req.Header.Get("User-Agent") == "" {
		req.Header.Set("User-Agent", "agent-skills")
	}
	resp, err := c.client.Do(req)
	if err != nil {
		err = c.explain(ctx, reqCtx, err)
		release()
		return nil, err
	}
	b := &watchedBody{rc: resp.Body, c: c, parent: ctx, ctx: reqCtx, release: release}
	b.timer = time.AfterFunc(c.timeouts.Idle, func() {
		cancel(&timeoutError{fmt.Sprintf("no data received for %s", c.timeouts.Idle)})
	})
	b.timer.Stop()
	resp.Body = b
	return resp, nil
}

// explain turns an error of a request under reqCtx, derived from the
// caller's ctx, into the error the caller sees: the caller's own
// cancellation as is, an expired limit as a timeoutError, a refused
// redirect as a redirectError.
func (c *HTTPClient) explain(ctx, reqCtx context.Context, err error) error {
	switch {
	case errors.Is(ctx.Err(), context.Canceled):
		return ctx.Err()
	case ctx.Err() != nil:
		return &timeoutError{"the command's deadline passed"}
	}
	var te *timeoutError
	if errors.As(context.Cause(reqCtx), &te) {
		return te
	}
	var re *redirectError
	if errors.As(err, &re) {
		return re
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return &timeoutError{innermost(err)}
	}
	return err
}

// innermost returns the message of the deepest error in err's chain,
// which for the transport's timeouts names the phase.
func innermost(err error) string {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err.Error()
		}
		err = next
	}
}

// watchedBody is a response body under the idle and total limits. The idle
// timer runs only while a Read waits, so a slow consumer is never blamed
// on the server.
type watchedBody struct {
	rc      io.ReadCloser
	c       *HTTPClient
	parent  context.Context
	ctx     context.Context
	timer   *time.Timer
	once    sync.Once
	release func()
}

// Read reads from the body, failing with the expired limit's error.
func (b *watchedBody) Read(p []byte) (int, error) {
	b.timer.Reset(b.c.timeouts.Idle)
	n, err := b.rc.Read(p)
	b.timer.Stop()
	if err != nil && err != io.EOF {
		err = b.c.explain(b.parent, b.ctx, err)
	}
	return n, err
}

// Close closes the body and releases its timers.
func (b *watchedBody) Close() error {
	err := b.rc.Close()
	b.once.Do(func() {
		b.timer.Stop()
		b.release()
	})
	return err
}
