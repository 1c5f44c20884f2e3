package registry

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// HTTP limits and retry policy.
const (
	httpAttempts      = 3
	httpFirstBackoff  = 250 * time.Millisecond
	httpClientTimeout = 30 * time.Second
	maxTarballBytes   = 100 << 20
)

// httpBackend serves a registry over HTTPS: an index document and
// .tar.gz payloads resolved relative to it.
type httpBackend struct {
	spec   Spec
	opts   *Options
	index  *url.URL
	dir    string // CacheDir/http/<hash>
	client *http.Client
}

// httpMeta is what is remembered about the cached index.
type httpMeta struct {
	// URL is the index URL, its password masked (it is only a note).
	URL       string    `json:"url"`
	ETag      string    `json:"etag,omitempty"`
	FetchedAt time.Time `json:"fetchedAt"`
}

// newHTTP checks the URL against the transport policy and prepares the
// client.
func newHTTP(spec Spec, opts *Options) (*httpBackend, error) {
	u, err := url.Parse(spec.URL)
	if err != nil || u.Host == "" {
		return nil, configInvalid(spec, "not a usable http(s) URL")
	}
	if why := transportPolicy(u, spec.AllowInsecure); why != "" {
		return nil, configInvalid(spec, why)
	}
	if opts.CacheDir == "" {
		return nil, configInvalid(spec, "http registries need a cache directory")
	}
	sum := sha256.Sum256([]byte(u.String()))
	client := opts.HTTPClient
	if client == nil {
		client = &http.Client{Timeout: httpClientTimeout}
	}
	c := *client
	allow := spec.AllowInsecure
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		if why := transportPolicy(req.URL, allow); why != "" {
			return errors.New("refused redirect: " + why)
		}
		return nil
	}
	return &httpBackend{
		spec: spec, opts: opts, index: u, client: &c,
		dir: filepath.Join(opts.CacheDir, "http", hex.EncodeToString(sum[:16])),
	}, nil
}

// transportPolicy returns why u may not be used, or "": https always;
// http only to a loopback host or when insecure use was allowed.
func transportPolicy(u *url.URL, allowInsecure bool) string {
	switch strings.ToLower(u.Scheme) {
	case "https":
		return ""
	case "http":
		if allowInsecure || isLoopback(u.Hostname()) {
			return ""
		}
		return "plain http:// is only allowed to loopback hosts; use https:// (or allow insecure use explicitly)"
	}
	return fmt.Sprintf("scheme %q is not allowed (want https)", u.Scheme)
}

// isLoopback reports whether host is localhost, 127.0.0.0/8 or ::1.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// loadIndex serves a fresh cached copy, else revalidates or downloads
// the index, falling back to the cached copy with a notice.
func (h *httpBackend) loadIndex(ctx context.Context) (*Index, error) {
	cached, meta := h.readCache()
	if cached != nil && (h.opts.Offline || h.fresh(meta)) {
		return decodeIndexCached(cached, h.index.String(), h.opts.CacheDir)
	}
	if h.opts.Offline {
		return nil, unavailable(h.spec.Name, "offline and no cached index", nil, "run the command once while online")
	}
	etag := ""
	if cached != nil {
		etag = meta.ETag
	}
	body, newTag, err := h.getIndex(ctx, etag)
	switch {
	case err == nil && body == nil: // 304 Not Modified
		meta.FetchedAt = h.opts.now().UTC()
		h.writeMeta(meta)
		return decodeIndexCached(cached, h.index.String(), h.opts.CacheDir)
	case err == nil:
		idx, derr := decodeIndexCached(body, h.index.String(), h.opts.CacheDir)
		if derr != nil {
			return nil, derr
		}
		h.writeCache(body, httpMeta{URL: h.index.Redacted(), ETag: newTag, FetchedAt: h.opts.now().UTC()})
		return idx, nil
	case cached != nil && !isIndexError(err):
		h.opts.notify("registry %s: %s unreachable (%s); using the index cached %s",
			h.spec.Name, h.index, firstLine(err.Error()), meta.FetchedAt.Format(time.RFC3339))
		return decodeIndexCached(cached, h.index.String(), h.opts.CacheDir)
	}
	return nil, err
}

// isIndexError reports whether err is a hard, non-transport failure.
func isIndexError(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == "ASK_REGISTRY_INVALID_INDEX"
}

// fresh reports whether the cached index is younger than the TTL.
func (h *httpBackend) fresh(m httpMeta) bool {
	age := h.opts.now().Sub(m.FetchedAt)
	return age >= 0 && age < h.opts.TTL
}

// readCache returns the cached index bytes and metadata, or nil.
func (h *httpBackend) readCache() ([]byte, httpMeta) {
	var m httpMeta
	data, err := readCapped(filepath.Join(h.dir, "index"), int64(DefaultIndexLimits().MaxBytes))
	if err != nil {
		return nil, m
	}
	if raw, err := os.ReadFile(filepath.Join(h.dir, "meta.json")); err == nil {
		_ = json.Unmarshal(raw, &m)
	}
	return data, m
}

// writeCache stores a validated index and its metadata atomically; a
// failure only costs a later download.
func (h *httpBackend) writeCache(data []byte, m httpMeta) {
	if err := writeAtomic(filepath.Join(h.dir, "index"), data); err != nil {
		h.opts.notify("registry %s: cannot cache the index: %v", h.spec.Name, err)
		return
	}
	h.writeMeta(m)
}

// writeMeta stores the metadata.
func (h *httpBackend) writeMeta(m httpMeta) {
	raw, _ := json.Marshal(m)
	_ = writeAtomic(filepath.Join(h.dir, "meta.json"), raw)
}

// getIndex downloads the index; a nil body with a nil error means 304.
func (h *httpBackend) getIndex(ctx context.Context, etag string) ([]byte, string, error) {
	resp, err := h.get(ctx, h.index, etag)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotModified {
		return nil, "", nil
	}
	limit := int64(DefaultIndexLimits().MaxBytes)
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, "", unavailable(h.spec.Name, "reading the index failed", err)
	}
	if int64(len(data)) > limit {
		return nil, "", invalidIndex(h.index.String(), []string{fmt.Sprintf("index is larger than %d bytes", limit)})
	}
	return data, resp.Header.Get("ETag"), nil
}

// get performs a GET with bounded retries and exponential backoff on
// network errors and 5xx answers. Any other non-2xx answer (except 304)
// is an error without retry.
func (h *httpBackend) get(ctx context.Context, u *url.URL, etag string) (*http.Response, error) {
	var last error
	backoff := httpFirstBackoff
	for attempt := 0; attempt < httpAttempts; attempt++ {
		if attempt > 0 {
			if err := h.sleep(ctx, backoff); err != nil {
				return nil, err
			}
			backoff *= 2
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("User-Agent", "agent-skills")
		if etag != "" {
			req.Header.Set("If-None-Match", etag)
		}
		resp, err := h.client.Do(req)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			last = err
			continue
		}
		switch {
		case resp.StatusCode == http.StatusOK, resp.StatusCode == http.StatusNotModified && etag != "":
			return resp, nil
		case resp.StatusCode >= 500:
			resp.Body.Close()
			last = fmt.Errorf("GET %s: %s", u, resp.Status)
			continue
		}
		resp.Body.Close()
		return nil, unavailable(h.spec.Name, fmt.Sprintf("GET %s: %s", u, resp.Status), nil,
			"check the registry URL: agent-skills registry list")
	}
	return nil, unavailable(h.spec.Name, fmt.Sprintf("GET %s failed after %d attempts", u, httpAttempts), last,
		"check your network and retry")
}

// sleep waits d or until ctx is done.
func (h *httpBackend) sleep(ctx context.Context, d time.Duration) error {
	if h.opts.Sleep != nil {
		return h.opts.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// payload downloads and extracts a tarball into the payload cache.
func (h *httpBackend) payload(ctx context.Context, r *registry, s *Skill, v *Version) (fs.FS, error) {
	if v.Tarball == "" {
		return nil, invalidIndex(h.index.String(), []string{fmt.Sprintf("%s@%s has a path but an http registry serves tarballs only", s.Name, v.Version)})
	}
	u, err := h.tarballURL(v)
	if err != nil {
		return nil, err
	}
	return r.tarballPayload(ctx, v, s.Name, func(ctx context.Context) (io.ReadCloser, error) {
		if h.opts.Offline {
			return nil, unavailable(h.spec.Name, fmt.Sprintf("offline and %s@%s is not cached", s.Name, v.Version), nil, "run the command once while online")
		}
		resp, err := h.get(ctx, u, "")
		if err != nil {
			return nil, err
		}
		return &cappedBody{rc: resp.Body, left: maxTarballBytes + 1, name: u.String()}, nil
	})
}

// tarballURL resolves the tarball reference against the index URL and
// applies the transport policy to the result.
func (h *httpBackend) tarballURL(v *Version) (*url.URL, error) {
	ref, err := url.Parse(v.Tarball)
	if err != nil {
		return nil, invalidIndex(h.index.String(), []string{fmt.Sprintf("tarball %q is not a URL", v.Tarball)})
	}
	u := h.index.ResolveReference(ref)
	if why := transportPolicy(u, h.spec.AllowInsecure); why != "" {
		return nil, &Error{
			Code:    "ASK_REGISTRY_UNAVAILABLE",
			Message: fmt.Sprintf("registry %q: refusing to download %s: %s", h.spec.Name, u, why),
			Try:     []string{"report the insecure tarball URL to the registry's maintainers"},
		}
	}
	return u, nil
}

// resolved is the absolute tarball URL.
func (h *httpBackend) resolved(v *Version) string {
	if u, err := h.tarballURL(v); err == nil {
		return u.String()
	}
	return v.Tarball
}

// cappedBody fails a download that grows beyond its limit; left starts
// one above the limit so that a body of exactly the limit still ends in
// io.EOF.
type cappedBody struct {
	rc   io.ReadCloser
	left int64
	name string
}

// Read reads while counting against the limit.
func (c *cappedBody) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, archiveTooLarge(c.name, fmt.Sprintf("download larger than %d bytes", maxTarballBytes))
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.rc.Read(p)
	c.left -= int64(n)
	return n, err
}

// Close closes the body.
func (c *cappedBody) Close() error { return c.rc.Close() }

// writeAtomic writes data to file through a temporary file and a rename.
func writeAtomic(file string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".tmp-")
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), file); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}
