package testscripts

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"github.com/rogpeppe/go-internal/testscript"
)

// ttyrun runs a command with one of its output streams on a pseudo
// terminal and the other on a pipe, and writes what each received to
// $WORK/tty.stdout and $WORK/tty.stderr (a terminal's "\r\n" read back
// as "\n"), for the checks of colour per stream:
//
//	ttyrun stderr agent-skills registry remove nosuch
//	grep '\x1b\[31merror:' tty.stderr
//
// Its exit code is written to $WORK/tty.exitcode.
func ttyrun(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 || (args[0] != "stdout" && args[0] != "stderr") {
		ts.Fatalf("usage: ttyrun stdout|stderr command [args...]")
	}
	cmd, master, slave := commandOnPTY(ts, "ttyrun", args[1:])
	defer master.Close()
	var piped bytes.Buffer
	if args[0] == "stdout" {
		cmd.Stdout, cmd.Stderr = slave, &piped
	} else {
		cmd.Stdout, cmd.Stderr = &piped, slave
	}
	ts.Check(cmd.Start())
	slave.Close()
	var tty bytes.Buffer
	done := make(chan struct{})
	go func() {
		io.Copy(&tty, master) // ends with EIO once the child has exited
		close(done)
	}()
	code := exitCode(ts, "ttyrun", cmd.Wait())
	<-done
	term := strings.ReplaceAll(tty.String(), "\r\n", "\n")
	outs := map[string]string{"stdout": piped.String(), "stderr": piped.String()}
	outs[args[0]] = term
	for _, s := range []string{"stdout", "stderr"} {
		ts.Check(os.WriteFile(ts.MkAbs("tty."+s), []byte(outs[s]), 0o644))
	}
	ts.Check(os.WriteFile(ts.MkAbs("tty.exitcode"), []byte(fmt.Sprintln(code)), 0o644))
}

// ptyrun runs a command with stdin, stdout and stderr all on one pseudo
// terminal, the way a user's shell runs it, for the update notifier:
//
//	ptyrun -input='d\n' agent-skills list
//	grep 'Choice \(Enter to continue\): d' pty.out
//
// -input (Go string escapes) holds the answers, one per line. Each is
// typed when the command shows its next prompt (a line ending in
// "Choice (Enter to continue): " or "[y/N] ", as a person would answer),
// and every prompt after the last answer gets ^D, end of input, so that
// no prompt waits. Everything the terminal showed, the echoed answers
// included, is written to $WORK/pty.out ("\r\n" read back as "\n") and
// the exit code to $WORK/pty.exitcode. A command still running after a
// minute is killed and the script fails. -eof types ^D before the command
// starts instead, for a command that reads its input without a prompt
// (mcp serve).
func ptyrun(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! ptyrun")
	}
	var answers []string
	eof := false
	if len(args) > 0 && args[0] == "-eof" {
		eof, args = true, args[1:]
	} else if len(args) > 0 && strings.HasPrefix(args[0], "-input=") {
		raw := strings.TrimPrefix(args[0], "-input=")
		s, err := strconv.Unquote(`"` + strings.ReplaceAll(raw, `"`, `\"`) + `"`)
		if err != nil {
			ts.Fatalf("ptyrun: -input %q: %v", raw, err)
		}
		answers = strings.SplitAfter(s, "\n")
		if answers[len(answers)-1] == "" {
			answers = answers[:len(answers)-1]
		}
		args = args[1:]
	}
	if len(args) < 1 {
		ts.Fatalf("usage: ptyrun [-input=TEXT | -eof] command [args...]")
	}
	cmd, master, slave := commandOnPTY(ts, "ptyrun", args)
	defer master.Close()
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	// Its own session with the terminal as controlling terminal, as
	// under a login shell.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if eof {
		// Typed ahead: the line discipline keeps it until the command reads.
		_, err := master.Write([]byte("\x04"))
		ts.Check(err)
	}
	ts.Check(cmd.Start())
	slave.Close()
	var tty bytes.Buffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 4096)
		prompts := 0
		for {
			n, err := master.Read(buf)
			tty.Write(buf[:n])
			// Answer every prompt shown since the last read, in order.
			for shown := len(ptyPrompt.FindAllIndex(tty.Bytes(), -1)); prompts < shown; prompts++ {
				answer := "\x04"
				if prompts < len(answers) {
					answer = answers[prompts]
				}
				master.Write([]byte(answer))
			}
			if err != nil {
				return // EIO once the child has exited
			}
		}
	}()
	var killed atomic.Bool
	timer := time.AfterFunc(time.Minute, func() {
		killed.Store(true)
		cmd.Process.Kill()
	})
	code := exitCode(ts, "ptyrun", cmd.Wait())
	timer.Stop()
	<-done
	term := strings.ReplaceAll(tty.String(), "\r\n", "\n")
	ts.Check(os.WriteFile(ts.MkAbs("pty.out"), []byte(term), 0o644))
	ts.Check(os.WriteFile(ts.MkAbs("pty.exitcode"), []byte(fmt.Sprintln(code)), 0o644))
	if killed.Load() {
		ts.Fatalf("ptyrun: %s still running after a minute; the terminal showed:\n%s", args[0], term)
	}
}

// ptyPrompt is a question of the notifier, with the space after which its
// answer is typed; every one shown so far is counted.
var ptyPrompt = regexp.MustCompile(`(Choice \(Enter to continue\):|\[y/N\]) `)

// commandOnPTY opens a pseudo terminal and prepares args (a command on
// the script's PATH, and its arguments) to run in $WORK with the script's
// environment; the caller connects its streams.
func commandOnPTY(ts *testscript.TestScript, who string, args []string) (cmd *exec.Cmd, master, slave *os.File) {
	path, ok := lookInPath(ts, args[0])
	if !ok {
		ts.Fatalf("%s: %s is not on the script's PATH", who, args[0])
	}
	master, slave, err := openPTY()
	ts.Check(err)
	cmd = exec.Command(path, args[1:]...)
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = scriptEnv(ts)
	return cmd, master, slave
}

// exitCode is the exit code of a command that ran, from what Wait
// returned; a command that could not be waited for fails the script.
func exitCode(ts *testscript.TestScript, who string, err error) int {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	ts.Fatalf("%s: %v", who, err)
	return 0
}

// lookInPath finds an executable on the script's PATH.
func lookInPath(ts *testscript.TestScript, name string) (string, bool) {
	for _, dir := range strings.Split(ts.Getenv("PATH"), string(os.PathListSeparator)) {
		p := dir + "/" + name
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, true
		}
	}
	return "", false
}

// scriptEnv is the part of the script's environment agent-skills and git
// read (testscript does not expose the whole list).
func scriptEnv(ts *testscript.TestScript) []string {
	var env []string
	for _, k := range []string{"PATH", "HOME", "USERPROFILE", "AGENT_SKILLS_HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME",
		"XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "NO_COLOR", "CI", "TERM",
		"AGENT_SKILLS_NO_UPDATE_NOTIFIER", "GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_GLOBAL", "GIT_TERMINAL_PROMPT",
		"GIT_ALLOW_PROTOCOL", "TMPDIR", "AGENT_SKILLS_OFFLINE", "AGENT_SKILLS_HTTP_TIMEOUT",
		"AGENT_SKILLS_RELEASES_URL", "AGENT_SKILLS_NPM_PACKAGE", "AGENT_SKILLS_GITHUB_URL", "AGENT_SKILLS_GITLAB_URL"} {
		if v := ts.Getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// ptyAvailable reports whether openPTY works here ([tty] in scripts).
func ptyAvailable() bool {
	m, s, err := openPTY()
	if err != nil {
		return false
	}
	m.Close()
	s.Close()
	return true
}

// openPTY opens a new pseudo terminal pair through /dev/ptmx.
func openPTY() (master, slave *os.File, err error) {
	master, err = os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, nil, err
	}
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, master.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		master.Close()
		return nil, nil, e
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, master.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		master.Close()
		return nil, nil, e
	}
	slave, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		master.Close()
		return nil, nil, err
	}
	return master, slave, nil
}
