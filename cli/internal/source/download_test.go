package source

import (
	"context"
	"errors"
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

	"github.com/agent-skills/agent-skills/registry"
)

// fastTimeouts are download limits short enough for tests.
var fastTimeouts = registry.HTTPTimeouts{ResponseHeader: 300 * time.Millisecond, Idle: 300 * time.Millisecond, Total: 5 * time.Second}

// stallListener accepts connections on loopback and never answers. Its
// channel receives one value per accepted connection.
func stallListener(t *testing.T) (string, <-chan struct{}) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	accepted := make(chan struct{}, 16)
	var mu sync.Mutex
	var held []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c)
			mu.Unlock()
			accepted <- struct{}{}
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range held {
			c.Close()
		}
		mu.Unlock()
	})
	return "http://" + ln.Addr().String(), accepted
}

// workFolders lists what Fetch left under CacheDir/sources.
func workFolders(t *testing.T, cache string) []string {
	t.Helper()
	ents, _ := os.ReadDir(filepath.Join(cache, "sources"))
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// TestArchiveDownloadTimesOut is B10: an archive server that accepts the
// connection and never answers fails the fetch with ASK_SOURCE_UNAVAILABLE
// saying it timed out, and leaves no work folder behind.
func TestArchiveDownloadTimesOut(t *testing.T) {
	base, _ := stallListener(t)
	cache := t.TempDir()
	start := time.Now()
	_, err := Fetch(t.Context(), mustParse(t, base+"/x.tar.gz"),
		Options{CacheDir: cache, Dir: filepath.Join(t.TempDir(), "out"), HTTPTimeouts: fastTimeouts})
	if codeOf(err) != "ASK_SOURCE_UNAVAILABLE" || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("Fetch(stalled archive) = %v (%s), want ASK_SOURCE_UNAVAILABLE saying it timed out", err, codeOf(err))
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Fetch(stalled archive) took %v", d)
	}
	if left := workFolders(t, cache); len(left) != 0 {
		t.Errorf("work folders left behind: %q", left)
	}
}

// TestArchiveDownloadCancelled checks that a cancelled fetch returns
// context.Canceled (the CLI reports ASK_INTERRUPTED) and removes its work
// folder.
func TestArchiveDownloadCancelled(t *testing.T) {
	base, accepted := stallListener(t)
	cache := t.TempDir()
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		<-accepted
		cancel()
	}()
	_, err := Fetch(ctx, mustParse(t, base+"/x.tar.gz"),
		Options{CacheDir: cache, Dir: filepath.Join(t.TempDir(), "out"), HTTPTimeouts: registry.HTTPTimeouts{ResponseHeader: time.Minute}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Fetch(cancelled) = %v, want context.Canceled", err)
	}
	if left := workFolders(t, cache); len(left) != 0 {
		t.Errorf("work folders left behind: %q", left)
	}
}

// TestArchiveDownloadRedirects is B08 for archive sources: a redirect to
// plain http on a remote host is refused before anything is sent there,
// while a redirect to another (here: loopback) host is followed with a
// notice, as GitHub release downloads need.
func TestArchiveDownloadRedirects(t *testing.T) {
	tgz := makeTarGz(t, map[string]string{"pkg/SKILL.md": skillMD("moved", "Moved. Use it.")})
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(tgz) }))
	defer target.Close()
	elsewhere := strings.Replace(target.URL, "127.0.0.1", "localhost", 1)
	var mu sync.Mutex
	var proxied []string
	// A proxy in the environment would catch a request to the remote host;
	// the transport's Proxy records instead of sending.
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.Proxy = func(r *http.Request) (*url.URL, error) {
		mu.Lock()
		proxied = append(proxied, r.URL.String())
		mu.Unlock()
		return nil, nil
	}
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/plain.tar.gz":
			http.Redirect(w, r, "http://plain-http-remote.example/skill.tar.gz", http.StatusFound)
		case "/moved.tar.gz":
			http.Redirect(w, r, elsewhere+"/skill.tar.gz", http.StatusFound)
		}
	}))
	defer origin.Close()

	cache := t.TempDir()
	var notes []string
	opts := Options{CacheDir: cache, Dir: filepath.Join(t.TempDir(), "out"), HTTPTimeouts: fastTimeouts,
		HTTPTransport: transport, Notify: func(s string) { notes = append(notes, s) }}
	_, err := Fetch(t.Context(), mustParse(t, origin.URL+"/plain.tar.gz"), opts)
	if codeOf(err) != "ASK_SOURCE_UNAVAILABLE" || !strings.Contains(shownErr(err), "refused redirect to http://plain-http-remote.example/") {
		t.Fatalf("Fetch(redirect to plain http) = %v (%s), want the redirect refused", err, codeOf(err))
	}
	for _, p := range proxied {
		if strings.Contains(p, "plain-http-remote") {
			t.Errorf("a request for %s was sent", p)
		}
	}
	res, err := Fetch(t.Context(), mustParse(t, origin.URL+"/moved.tar.gz"), opts)
	if err != nil || len(res.Packages) != 1 || res.Packages[0].Name != "moved" {
		t.Fatalf("Fetch(redirect to another host) = %+v, %v; want the skill", res, err)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "another host") || !strings.Contains(notes[0], strings.TrimPrefix(elsewhere, "http://")) {
		t.Errorf("notices = %q, want one naming the other host", notes)
	}
	if left := workFolders(t, cache); len(left) != 0 {
		t.Errorf("work folders left behind: %q", left)
	}
}
