package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/agent-skills/agent-skills/registry"
)

// openArchive extracts the archive at loc (a local path, or an https URL;
// plain http only to a loopback address) into the empty folder dir.
func openArchive(ctx context.Context, loc, dir string, opts *Options) error {
	file := loc
	if u, err := url.Parse(loc); err == nil && (u.Scheme == "https" || u.Scheme == "http") {
		f, err := download(ctx, u, filepath.Dir(dir), opts)
		if err != nil {
			return err
		}
		defer os.Remove(f)
		file = f
	}
	info, err := os.Lstat(file)
	if err != nil {
		return notFound("no archive at "+loc, nil, "check the path")
	}
	if !info.Mode().IsRegular() {
		return &Error{Code: registry.CodeArchiveUnsafe, Message: loc + " is not a regular file",
			Try: []string{"pass the archive file itself, not a link to it"}}
	}
	f, err := os.Open(file)
	if err != nil {
		return &Error{Code: CodeSourceUnavailable, Message: "cannot read " + loc, Err: err}
	}
	defer f.Close()
	lim := registry.DefaultExtractLimits()
	low := strings.ToLower(loc)
	if strings.HasSuffix(low, ".zip") || strings.HasSuffix(low, ".skill") {
		_, err = registry.ExtractZip(ctx, f, info.Size(), dir, lim)
	} else {
		_, err = registry.Extract(ctx, f, dir, lim)
	}
	return err
}

// download fetches an archive URL into a temporary file in tmpDir,
// through registry's HTTP client policy: the time limits of
// opts.HTTPTimeouts, no redirect to plain http on a remote host, a notice
// when a redirect moves to another host (a GitHub release download does),
// no credentials carried to it. A stalled server is ASK_SOURCE_UNAVAILABLE
// saying it timed out; the caller's cancellation is returned as it is.
func download(ctx context.Context, u *url.URL, tmpDir string, opts *Options) (string, error) {
	secrets := secretsOf(opts.getenv)
	shown := scrub(u.String(), secrets)
	if u.Scheme == "http" && !isLoopback(u.Hostname()) {
		return "", invalid(shown, "archives are downloaded over https only (plain http is allowed for loopback addresses)")
	}
	client := registry.NewHTTPClient(registry.HTTPOptions{
		Timeouts:  opts.HTTPTimeouts,
		Transport: opts.HTTPTransport,
		Notify: func(msg string) {
			if opts.Notify != nil {
				opts.Notify(scrub(msg, secrets))
			}
		},
	})
	defer client.CloseIdleConnections()
	failed := func(err error) error {
		if errors.Is(err, context.Canceled) {
			return err
		}
		e := &Error{Code: CodeSourceUnavailable, Message: "cannot download " + shown,
			Detail: []string{scrub(err.Error(), secrets)}, Try: []string{"check the URL and your network, then retry"}}
		switch {
		case errors.Is(err, registry.ErrHTTPTimeout):
			e.Message += ": the server timed out"
		case errors.Is(err, registry.ErrRedirectRefused):
			e.Message += ": the server redirected to a URL agent-skills does not follow"
			e.Try = []string{"download the archive yourself over https and install it from its local path"}
		}
		return e
	}
	resp, err := client.Get(ctx, u, nil)
	if err != nil {
		return "", failed(err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone:
		return "", notFound("no archive at "+shown+" ("+resp.Status+")", nil, "check the URL")
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return "", &Error{Code: CodeSourceAuth, Message: shown + ": authentication required (" + resp.Status + ")",
			Try: []string{"download the archive yourself and install it from its local path"}}
	case resp.StatusCode != http.StatusOK:
		return "", &Error{Code: CodeSourceUnavailable, Message: "cannot download " + shown + " (" + resp.Status + ")",
			Try: []string{"retry later"}}
	}
	if err := os.MkdirAll(tmpDir, 0o755); err != nil {
		return "", err
	}
	f, err := os.CreateTemp(tmpDir, ".download-")
	if err != nil {
		return "", err
	}
	maxBytes := opts.maxBytes()
	n, err := io.Copy(f, io.LimitReader(resp.Body, maxBytes+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && n > maxBytes {
		err = &Error{Code: CodeSourceTooLarge, Message: fmt.Sprintf("%s is larger than the %d MiB a source may download", shown, maxBytes>>20),
			Try: []string{"ask the publisher for a smaller archive"}}
	}
	if err != nil {
		os.Remove(f.Name())
		if _, ok := err.(*Error); ok {
			return "", err
		}
		return "", failed(err)
	}
	return f.Name(), nil
}
