package setup

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/ui"
)

// CommandCheck says whether the command an entry runs still runs.
type CommandCheck struct {
	// Command is the program as the entry names it.
	Command string `json:"command"`
	// Path is where it was found, "" when it was not.
	Path string `json:"path,omitempty"`
	// Runs says "<command> --version" exited 0 within the timeout.
	Runs bool `json:"runs"`
	// Version is the first line it printed.
	Version string `json:"version,omitempty"`
	// Problem says why it does not run.
	Problem string `json:"problem,omitempty"`
}

// checkTimeout bounds "<command> --version".
const checkTimeout = 3 * time.Second

// CheckCommand resolves command (a bare name on PATH, or an absolute
// path) and runs it with --version. A path inside the project is not
// run: the project's files could name any program.
func CheckCommand(env Env, command string) *CommandCheck {
	c := &CommandCheck{Command: command}
	path := command
	switch {
	case filepath.IsAbs(command):
		if env.ProjectRoot != "" {
			if rel, err := filepath.Rel(env.ProjectRoot, command); err == nil && !strings.HasPrefix(rel, "..") {
				c.Problem = "it is inside the project, so it was not run"
				return c
			}
		}
	case strings.ContainsRune(command, filepath.Separator) || strings.ContainsRune(command, '/'):
		c.Problem = "it is a relative path, which depends on the folder the host starts in"
		return c
	default:
		p, err := env.LookPath(command)
		if err != nil {
			c.Problem = "not found on PATH"
			return c
		}
		path = p
	}
	c.Path = path
	ctx, cancel := context.WithTimeout(context.Background(), checkTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		c.Problem = "\"" + command + " --version\" failed: " + ui.OneLine(err.Error())
		return c
	}
	c.Runs = true
	c.Version = ui.OneLine(strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0]))
	return c
}
