//go:build unix

package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/ui"
)

// TestHelperProcess is not a test: the tests below run the test binary
// again with ASK_HELPER set, to send real signals to a real process.
func TestHelperProcess(t *testing.T) {
	switch os.Getenv("ASK_HELPER") {
	case "":
		t.Skip("run by the signal tests only")
	case "main":
		os.Exit(Main(strings.Split(os.Getenv("ASK_HELPER_ARGS"), "\n"), os.Stdin, os.Stdout, os.Stderr))
	case "cleanup":
		// Stands for a command whose clean-up takes a while (a large
		// work folder to remove): the first signal ends its wait, the
		// clean-up runs, and it exits as cli.run does.
		ctx, stop := interruptible(context.Background())
		defer stop()
		fmt.Println("ready")
		<-ctx.Done()
		time.Sleep(200 * time.Millisecond)
		fmt.Println("cleaned up")
		err := interrupted(ctx)
		ui.New(os.Stdout, os.Stderr, ui.Options{}).Error(err)
		os.Exit(exitCodeOf(err))
	case "hang":
		// Stands for a clean-up that hangs after the first signal.
		ctx, stop := interruptible(context.Background())
		defer stop()
		fmt.Println("ready")
		<-ctx.Done()
		fmt.Println("cancelled")
		time.Sleep(time.Minute)
		os.Exit(0)
	}
}

// helper starts the test binary as a helper process.
func helper(t *testing.T, mode string, env ...string) (*exec.Cmd, *bytes.Buffer, *bufio.Reader) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append([]string{"ASK_HELPER=" + mode, "PATH=" + os.Getenv("PATH")}, env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd, &stderr, bufio.NewReader(out)
}

// stall listens on loopback, accepts connections and never answers; the
// channel is closed on the first connection.
func stall(t *testing.T) (string, <-chan struct{}) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	connected := make(chan struct{})
	var once sync.Once
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			once.Do(func() { close(connected) })
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
	})
	return "http://" + ln.Addr().String(), connected
}

// TestSignalInterruptsCleanly is B10's interruption: SIGINT or SIGTERM
// while a download waits makes install exit 130 with ASK_INTERRUPTED,
// after its deferred clean-ups removed the work folder. Before, SIGTERM
// killed the process and left cache/sources/archive-… behind, and SIGINT
// was reported as "context canceled", ASK_INTERNAL, exit 1.
// Each signal is also sent twice, 5 ms apart, as a terminal and the npm
// launcher forwarding its copy deliver it.
func TestSignalInterruptsCleanly(t *testing.T) {
	for _, tc := range []struct {
		sig    syscall.Signal
		copies int
	}{{syscall.SIGINT, 1}, {syscall.SIGTERM, 1}, {syscall.SIGINT, 2}, {syscall.SIGTERM, 2}} {
		sig := tc.sig
		t.Run(fmt.Sprintf("%s-x%d", sig, tc.copies), func(t *testing.T) {
			home := t.TempDir()
			ask := filepath.Join(home, ".agent-skills")
			proj := filepath.Join(home, "proj")
			os.MkdirAll(filepath.Join(proj, ".git"), 0o755)
			os.MkdirAll(ask, 0o755)
			os.WriteFile(filepath.Join(ask, "config.json"), []byte(`{"schemaVersion":1,"registries":[{"name":"bundled","url":"bundled:","kind":"bundled","trusted":true}]}`), 0o644)
			base, connected := stall(t)
			args := strings.Join([]string{"install", base + "/x.tar.gz", "--project", "--project-root", proj, "--agent", "claude-code"}, "\n")
			cmd, stderr, _ := helper(t, "main", "ASK_HELPER_ARGS="+args, "HOME="+home, "AGENT_SKILLS_HOME="+ask,
				"NO_COLOR=1", "CI=true", "GIT_CONFIG_NOSYSTEM=1")
			select {
			case <-connected:
			case <-time.After(30 * time.Second):
				t.Fatalf("the download never started; stderr: %s", stderr)
			}
			for i := range tc.copies {
				if i > 0 {
					time.Sleep(5 * time.Millisecond)
				}
				cmd.Process.Signal(sig)
			}
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 130 {
				t.Fatalf("after %v: %v, want exit 130; stderr:\n%s", sig, err, stderr)
			}
			if !strings.Contains(stderr.String(), "code: ASK_INTERRUPTED") || !strings.Contains(stderr.String(), "signal received") {
				t.Errorf("stderr = %q, want ASK_INTERRUPTED naming the signal", stderr)
			}
			if ents, _ := os.ReadDir(filepath.Join(ask, "cache", "sources")); len(ents) != 0 {
				t.Errorf("cache/sources holds %d entries after %v, want none", len(ents), sig)
			}
		})
	}
}

// expectLine reads the helper's next line of standard output and fails
// unless it is line.
func expectLine(t *testing.T, out *bufio.Reader, stderr *bytes.Buffer, line string) {
	t.Helper()
	got, err := out.ReadString('\n')
	if strings.TrimSpace(got) != line {
		t.Fatalf("helper said %q (%v), want %q; stderr: %s", got, err, line, stderr)
	}
}

// TestDuplicateInterruptIgnored is issue 18: through npx, one Ctrl-C
// reaches the binary from the terminal and again from the launcher, a
// few milliseconds apart. Before, the first restored the default action
// and the copy killed the process in the middle of its clean-up; now a
// copy within duplicateWindow is ignored and the command unwinds to
// ASK_INTERRUPTED, exit 130.
func TestDuplicateInterruptIgnored(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd, stderr, out := helper(t, "cleanup")
			expectLine(t, out, stderr, "ready")
			cmd.Process.Signal(sig)
			time.Sleep(5 * time.Millisecond)
			cmd.Process.Signal(sig)
			rest, _ := io.ReadAll(out)
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 130 {
				t.Fatalf("after two %vs 5 ms apart: %v, want exit 130; stdout %q, stderr:\n%s", sig, err, rest, stderr)
			}
			if strings.TrimSpace(string(rest)) != "cleaned up" {
				t.Errorf("stdout = %q, want the clean-up's %q", rest, "cleaned up")
			}
			want := "interrupted (" + sig.String() + " signal received)"
			if !strings.Contains(stderr.String(), want) || !strings.Contains(stderr.String(), "code: ASK_INTERRUPTED") {
				t.Errorf("stderr = %q, want ASK_INTERRUPTED and %q", stderr, want)
			}
		})
	}
}

// TestSecondInterruptKills checks that a second Ctrl-C after the
// duplicate window ends a process whose clean-up hangs, killed by SIGINT
// as the shell expects (130), and that the first alone does not.
func TestSecondInterruptKills(t *testing.T) {
	cmd, stderr, out := helper(t, "hang")
	expectLine(t, out, stderr, "ready")
	first := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	expectLine(t, out, stderr, "cancelled")
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		t.Fatalf("the first SIGINT ended the hanging clean-up: %v; stderr: %s", err, stderr)
	case <-time.After(time.Until(first.Add(time.Second))):
	}
	cmd.Process.Signal(syscall.SIGINT)
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("helper ended with %v, want killed by SIGINT", err)
		}
		if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGINT {
			t.Fatalf("helper ended with %v, want killed by SIGINT", err)
		}
	case <-time.After(time.Second):
		t.Fatal("a second SIGINT 1 s after the first did not end the process")
	}
}
