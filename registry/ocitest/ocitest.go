// Package ocitest starts a real OCI-distribution registry (the CNCF
// distribution registry Debian packages as docker-registry) on loopback,
// for the tests of the OCI registry kind: the Go tests of package
// registry and the testscript command ociserve.
package ocitest

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"
)

// Env names an explicit registry binary, taking precedence over PATH.
const Env = "AGENT_SKILLS_OCI_REGISTRY_BIN"

// RequireEnv, when set (.ci/run sets it), makes the tests that need the
// server fail instead of skipping without one.
const RequireEnv = "AGENT_SKILLS_REQUIRE_OCI"

// ErrNoServer is returned when no registry binary can be found.
var ErrNoServer = errors.New("no OCI registry server: install Debian's docker-registry (apt-get install -y docker-registry) or set " + Env)

// Binary finds the registry server.
func Binary() (string, error) {
	if p := os.Getenv(Env); p != "" {
		return p, nil
	}
	for _, name := range []string{"docker-registry", "registry"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrNoServer
}

// Options configure a server.
type Options struct {
	// User and Password, when set, protect the registry with htpasswd
	// basic authentication (a bcrypt entry written here).
	User, Password string
	// Addr is the loopback host:port to listen on; empty picks a free
	// port. A restarted server passes its old one, so that configured
	// URLs stay valid.
	Addr string
}

// Server is a running registry.
type Server struct {
	// Addr is host:port on 127.0.0.1.
	Addr string
	// Root is the storage folder: docker/registry/v2/... below it.
	Root string
	cmd  *exec.Cmd
	done chan struct{}
	log  *os.File
}

// Start runs a registry storing under dir (created), on a free loopback
// port (o.Addr when set), and waits until it answers. A free port taken
// by another process before the server bound it is replaced, twice.
func Start(dir string, o Options) (*Server, error) {
	for try := 0; ; try++ {
		s, err := start(dir, o)
		if err == nil || o.Addr != "" || try == 2 || !strings.Contains(err.Error(), "address already in use") {
			return s, err
		}
	}
}

func start(dir string, o Options) (*Server, error) {
	bin, err := Binary()
	if err != nil {
		return nil, err
	}
	root := filepath.Join(dir, "storage")
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, err
	}
	addr := o.Addr
	if addr == "" {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		addr = l.Addr().String()
		l.Close()
	}
	cfg := fmt.Sprintf("version: 0.1\nlog:\n  level: error\n  accesslog:\n    disabled: true\nstorage:\n  filesystem:\n    rootdirectory: %s\n  delete:\n    enabled: true\nhttp:\n  addr: %s\n", root, addr)
	if o.User != "" {
		hash, err := bcrypt.GenerateFromPassword([]byte(o.Password), bcrypt.MinCost)
		if err != nil {
			return nil, err
		}
		pw := filepath.Join(dir, "htpasswd")
		if err := os.WriteFile(pw, []byte(o.User+":"+string(hash)+"\n"), 0o600); err != nil {
			return nil, err
		}
		cfg += fmt.Sprintf("auth:\n  htpasswd:\n    realm: agent-skills-test\n    path: %s\n", pw)
	}
	cfgFile := filepath.Join(dir, "config.yml")
	if err := os.WriteFile(cfgFile, []byte(cfg), 0o644); err != nil {
		return nil, err
	}
	logf, err := os.Create(filepath.Join(dir, "server.log"))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "serve", cfgFile)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.Env = append(os.Environ(), "OTEL_TRACES_EXPORTER=none")
	if err := cmd.Start(); err != nil {
		logf.Close()
		return nil, err
	}
	s := &Server{Addr: addr, Root: root, cmd: cmd, done: make(chan struct{}), log: logf}
	go func() { _ = cmd.Wait(); close(s.done) }()
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/v2/")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK || resp.StatusCode == http.StatusUnauthorized {
				return s, nil
			}
		}
		select {
		case <-s.done:
			out, _ := os.ReadFile(logf.Name())
			return nil, fmt.Errorf("the registry %s exited: %s", bin, strings.TrimSpace(string(out)))
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.Close()
			return nil, fmt.Errorf("the registry %s did not answer on %s within 20s", bin, addr)
		}
	}
}

// Close stops the server.
func (s *Server) Close() {
	if s.cmd.Process != nil {
		_ = s.cmd.Process.Kill()
	}
	select {
	case <-s.done:
	case <-time.After(5 * time.Second):
	}
	s.log.Close()
}

// Blob is the data file of the blob with the sha256 hex digest, for
// tests that tamper with one.
func (s *Server) Blob(hex string) string {
	return filepath.Join(s.Root, "docker", "registry", "v2", "blobs", "sha256", hex[:2], hex, "data")
}
