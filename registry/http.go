package registry

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/registry/sshsig"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// HTTP limits and retry policy.
const (
	httpAttempts     = 3
	httpFirstBackoff = 250 * time.Millisecond
	maxTarballBytes  = 100 << 20
)

// httpBackend serves a registry over HTTPS: an index document and
// .tar.gz payloads resolved relative to it.
type httpBackend struct {
	spec   Spec
	opts   *Options
	index  *url.URL
	dir    string // CacheDir/http/<hash>
	client *HTTPClient
	trust  *Trust // nil: the index is not signed
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
	if why := TransportPolicy(u, spec.AllowInsecure); why != "" {
		return nil, configInvalid(spec, why+" (or allow insecure use explicitly)")
	}
	if opts.CacheDir == "" {
		return nil, configInvalid(spec, "http registries need a cache directory")
	}
	sum := sha256.Sum256([]byte(u.String()))
	client := NewHTTPClient(HTTPOptions{
		Timeouts:      opts.HTTPTimeouts,
		AllowInsecure: spec.AllowInsecure,
		Transport:     opts.HTTPTransport,
		Notify:        func(msg string) { opts.notify("registry %s: %s", spec.Name, msg) },
	})
	return &httpBackend{
		spec: spec, opts: opts, index: u, client: client,
		dir: filepath.Join(opts.CacheDir, "http", hex.EncodeToString(sum[:16])),
	}, nil
}

// loadIndex serves a fresh cached copy, else revalidates or downloads
// the index, falling back to the cached copy with a notice. A cached copy
// that no longer decodes is dropped and downloaded again, so a damaged
// cache heals on the next run instead of failing every run until its TTL
// ends.
func (h *httpBackend) loadIndex(ctx context.Context) (*Index, error) {
	if h.trust != nil {
		return h.loadSigned(ctx)
	}
	cached, meta := h.readCache()
	if cached != nil && (h.opts.Offline || h.fresh(meta)) {
		idx, err := h.decodeCached(cached)
		if err == nil || h.opts.Offline {
			return idx, err
		}
		cached = nil
	}
	if h.opts.Offline {
		return nil, unavailable(h.spec.Name, "offline and no cached index", nil, "run the command once while online")
	}
	etag := ""
	if cached != nil {
		etag = meta.ETag
	}
	body, newTag, err := h.getIndex(ctx, etag)
	if err == nil && body == nil { // 304 Not Modified
		if idx, derr := h.decodeCached(cached); derr == nil {
			meta.FetchedAt = h.opts.now().UTC()
			h.writeMeta(meta)
			return idx, nil
		}
		// The copy the server calls current is unusable: ask for the
		// index itself.
		body, newTag, err = h.getIndex(ctx, "")
	}
	switch {
	case err == nil:
		idx, derr := decodeIndexCached(body, h.index.String(), h.opts.CacheDir)
		if derr != nil {
			return nil, derr
		}
		h.writeCache(body, httpMeta{URL: h.index.Redacted(), ETag: newTag, FetchedAt: h.opts.now().UTC()})
		return idx, nil
	case cached != nil && !isIndexError(err) && !errors.Is(err, context.Canceled):
		idx, derr := h.decodeCached(cached)
		if derr != nil {
			return nil, err
		}
		h.opts.notify("registry %s: %s unreachable (%s); using the index cached %s",
			h.spec.Name, redact(h.index), firstLine(err.Error()), meta.FetchedAt.Format(time.RFC3339))
		return idx, nil
	}
	return nil, err
}

// decodeCached decodes the cached index; one that does not decode is
// removed from the cache, with a notice.
func (h *httpBackend) decodeCached(cached []byte) (*Index, error) {
	idx, err := decodeIndexCached(cached, h.index.String(), h.opts.CacheDir)
	if err != nil {
		_ = os.Remove(filepath.Join(h.dir, "index"))
		_ = os.Remove(filepath.Join(h.dir, "meta.json"))
		h.opts.notify("registry %s: the cached index is unusable (%s); it was removed", h.spec.Name, firstLine(err.Error()))
	}
	return idx, err
}

// isIndexError reports whether err is a hard, non-transport failure.
func isIndexError(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == CodeRegistryInvalidIndex
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
		if errors.Is(err, context.Canceled) {
			return nil, "", err
		}
		return nil, "", unavailable(h.spec.Name, "reading the index from "+redact(h.index)+" failed", err,
			"check your network and retry")
	}
	if int64(len(data)) > limit {
		return nil, "", invalidIndex(h.index.String(), []string{fmt.Sprintf("index is larger than %d bytes", limit)})
	}
	return data, resp.Header.Get("ETag"), nil
}

// get performs a GET with bounded retries and exponential backoff on
// network errors and 5xx answers. A timeout, a refused redirect and any
// other non-2xx answer (except 304) are errors without retry: a server
// that stalled once would only make the user wait three times as long.
func (h *httpBackend) get(ctx context.Context, u *url.URL, etag string) (*http.Response, error) {
	var last error
	backoff := httpFirstBackoff
	shown := redact(u)
	for attempt := 0; attempt < httpAttempts; attempt++ {
		if attempt > 0 {
			if err := h.sleep(ctx, backoff); err != nil {
				return nil, err
			}
			backoff *= 2
		}
		var hdr http.Header
		if etag != "" {
			hdr = http.Header{"If-None-Match": {etag}}
		}
		resp, err := h.client.Get(ctx, u, hdr)
		switch {
		case errors.Is(err, context.Canceled):
			return nil, err
		case errors.Is(err, ErrHTTPTimeout):
			return nil, unavailable(h.spec.Name, "GET "+shown, err, "check your network and retry")
		case errors.Is(err, ErrRedirectRefused):
			return nil, unavailable(h.spec.Name, "GET "+shown, err,
				"report the insecure redirect to the registry's maintainers")
		case err != nil:
			last = err
			continue
		}
		switch {
		case resp.StatusCode == http.StatusOK, resp.StatusCode == http.StatusNotModified && etag != "":
			return resp, nil
		case resp.StatusCode >= 500:
			resp.Body.Close()
			last = fmt.Errorf("GET %s: %s", shown, resp.Status)
			continue
		}
		resp.Body.Close()
		return nil, unavailable(h.spec.Name, fmt.Sprintf("GET %s: %s", shown, resp.Status), nil,
			"check the registry URL: agent-skills registry list")
	}
	return nil, unavailable(h.spec.Name, fmt.Sprintf("GET %s failed after %d attempts", shown, httpAttempts), last,
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
func (h *httpBackend) payload(ctx context.Context, r *registry, s *Skill, v *Version, verify func(fs.FS) (*format.Package, error)) (*format.Package, error) {
	if v.Tarball == "" {
		return nil, invalidIndex(h.index.String(), []string{fmt.Sprintf("%s@%s has no tarball, and an http registry serves tarballs only", s.Name, v.Version)})
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
		return &cappedBody{rc: resp.Body, left: maxTarballBytes + 1, name: redact(u), reg: h.spec.Name}, nil
	}, verify)
}

// tarballURL resolves the tarball reference against the index URL and
// applies the transport policy to the result.
func (h *httpBackend) tarballURL(v *Version) (*url.URL, error) {
	ref, err := url.Parse(v.Tarball)
	if err != nil {
		return nil, invalidIndex(h.index.String(), []string{fmt.Sprintf("tarball %q is not a URL", v.Tarball)})
	}
	u := h.index.ResolveReference(ref)
	if why := TransportPolicy(u, h.spec.AllowInsecure); why != "" {
		return nil, &Error{
			Code:    CodeRegistryUnavailable,
			Message: fmt.Sprintf("registry %q: refusing to download %s: %s", h.spec.Name, redact(u), why),
			Try:     []string{"report the insecure tarball URL to the registry's maintainers"},
		}
	}
	return u, nil
}

// resolved is the absolute tarball URL.
func (h *httpBackend) resolved(s *Skill, v *Version) string {
	if u, err := h.tarballURL(v); err == nil {
		return u.String()
	}
	return strings.Clone(v.Tarball) // not a slice of the index's whole text
}

// cappedBody fails a download that grows beyond its limit; left starts
// one above the limit so that a body of exactly the limit still ends in
// io.EOF. A transport failure or timeout while reading becomes
// ASK_REGISTRY_UNAVAILABLE naming the download; a cancellation stays as it
// is, for the caller to report as an interruption.
type cappedBody struct {
	rc   io.ReadCloser
	left int64
	name string
	reg  string
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
	if err != nil && err != io.EOF && !errors.Is(err, context.Canceled) {
		err = unavailable(c.reg, "downloading "+c.name+" failed", err, "check your network and retry")
	}
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

// sigFile is the cached copy of the index's detached signature.
func (h *httpBackend) sigFile() string { return filepath.Join(h.dir, "index"+SignatureSuffix) }

// verifiedCache returns the cached index when it is there with a
// signature that verifies now; otherwise nil and why not.
func (h *httpBackend) verifiedCache() ([]byte, httpMeta, error) {
	cached, meta := h.readCache()
	if cached == nil {
		return nil, meta, nil
	}
	sig, err := readCapped(h.sigFile(), sshsig.MaxSignatureSize)
	if err != nil {
		sig = nil
	}
	if _, err := h.trust.VerifyIndex(h.spec.Name, redact(h.index)+" (cached)", cached, sig, h.opts.now()); err != nil {
		return nil, meta, err
	}
	return cached, meta, nil
}

// loadSigned is loadIndex for a registry with trusted signers: the index
// and its signature (<index URL>.sig) travel and are cached together, and
// an index is decoded only after its signature verified over its exact
// bytes, from the network or from the cache. The signature is fetched on
// every revalidation, even when the index is unchanged (304), so that a
// re-signature after a key rotation is seen. A signature that is missing
// or does not verify is never replaced by the cached copy.
func (h *httpBackend) loadSigned(ctx context.Context) (*Index, error) {
	cached, meta, cacheErr := h.verifiedCache()
	if h.opts.Offline {
		switch {
		case cacheErr != nil:
			return nil, cacheErr
		case cached == nil:
			return nil, unavailable(h.spec.Name, "offline and no cached index", nil, "run the command once while online")
		}
		return h.decodeCached(cached)
	}
	if cached != nil && h.fresh(meta) {
		if idx, err := h.decodeCached(cached); err == nil {
			return idx, nil
		}
		cached = nil
	}
	etag := ""
	if cached != nil {
		etag = meta.ETag
	}
	body, newTag, err := h.getIndex(ctx, etag)
	if err == nil && body == nil { // 304 Not Modified
		body, newTag = cached, meta.ETag
	}
	var sig []byte
	if err == nil {
		sig, err = h.getSig(ctx)
	}
	if err != nil {
		if cached != nil && !isIndexError(err) && !errors.Is(err, context.Canceled) {
			idx, derr := h.decodeCached(cached)
			if derr != nil {
				return nil, err
			}
			h.opts.notify("registry %s: %s unreachable (%s); using the signed index cached %s",
				h.spec.Name, redact(h.index), firstLine(err.Error()), meta.FetchedAt.Format(time.RFC3339))
			return idx, nil
		}
		return nil, err
	}
	if _, err := h.trust.VerifyIndex(h.spec.Name, redact(h.index), body, sig, h.opts.now()); err != nil {
		return nil, err
	}
	idx, err := decodeIndexCached(body, h.index.String(), h.opts.CacheDir)
	if err != nil {
		return nil, err
	}
	// The signature first: a crash between the two writes leaves a pair
	// that fails verification and is fetched again, never a trusted one.
	if werr := writeAtomic(h.sigFile(), sig); werr != nil {
		h.opts.notify("registry %s: cannot cache the index signature: %v", h.spec.Name, werr)
		return idx, nil
	}
	h.writeCache(body, httpMeta{URL: h.index.Redacted(), ETag: newTag, FetchedAt: h.opts.now().UTC()})
	return idx, nil
}

// getSig downloads <index URL>.sig; a 404 or 410 answer is a missing
// signature (nil, nil).
func (h *httpBackend) getSig(ctx context.Context) ([]byte, error) {
	u := *h.index
	u.Path += SignatureSuffix
	u.RawPath = ""
	resp, err := h.client.Get(ctx, &u, nil)
	if err == nil && (resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone) {
		resp.Body.Close()
		return nil, nil
	}
	if err != nil || resp.StatusCode != http.StatusOK {
		if resp != nil {
			resp.Body.Close()
		}
		if errors.Is(err, context.Canceled) {
			return nil, err
		}
		// Retries and the usual messages.
		if resp, err = h.get(ctx, &u, ""); err != nil {
			return nil, err
		}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, sshsig.MaxSignatureSize+1))
	if err != nil {
		return nil, unavailable(h.spec.Name, "reading the index signature from "+redact(&u)+" failed", err, "check your network and retry")
	}
	if len(data) > sshsig.MaxSignatureSize {
		data = data[:sshsig.MaxSignatureSize+1] // Verify refuses it as too large
	}
	return data, nil
}
