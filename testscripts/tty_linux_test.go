package testscripts

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
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
	master, slave, err := openPTY()
	ts.Check(err)
	defer master.Close()
	path, ok := lookInPath(ts, args[1])
	if !ok {
		ts.Fatalf("ttyrun: %s is not on the script's PATH", args[1])
	}
	cmd := exec.Command(path, args[2:]...)
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = scriptEnv(ts)
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
	code := 0
	if err := cmd.Wait(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("ttyrun: %v", err)
		}
		code = ee.ExitCode()
	}
	<-done
	term := strings.ReplaceAll(tty.String(), "\r\n", "\n")
	outs := map[string]string{"stdout": piped.String(), "stderr": piped.String()}
	outs[args[0]] = term
	for _, s := range []string{"stdout", "stderr"} {
		ts.Check(os.WriteFile(ts.MkAbs("tty."+s), []byte(outs[s]), 0o644))
	}
	ts.Check(os.WriteFile(ts.MkAbs("tty.exitcode"), []byte(fmt.Sprintln(code)), 0o644))
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
		"GIT_ALLOW_PROTOCOL", "TMPDIR", "AGENT_SKILLS_OFFLINE", "AGENT_SKILLS_HTTP_TIMEOUT"} {
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
