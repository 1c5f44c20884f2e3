//go:build unix

package codexapp

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts the app-server in a process group of its own and
// makes the context's cancellation kill the whole group: the npm launcher
// (node) starts the native codex binary as a child, which a kill of the
// launcher alone would leave running.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
