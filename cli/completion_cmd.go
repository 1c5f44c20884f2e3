package cli

import (
	"context"
	"io"
	"os"
	"strings"
	"time"

	"github.com/alecthomas/kong"
	"github.com/willabides/kongplete"

	"github.com/agent-skills/agent-skills/cli/internal/complete"
	"github.com/agent-skills/agent-skills/cli/internal/workspace"
)

type completionCmd struct {
	Shell string `arg:"" enum:"bash,zsh,fish" help:"The shell: bash, zsh or fish."`
}

func (c *completionCmd) Help() string {
	return `Prints a script that makes the shell complete agent-skills' commands, flags, agent
ids, registry names and the names of installed skills (for uninstall, update, disable,
enable and outdated). Nothing is written to your shell's files: put the script where
the shell reads it.

  bash  add to ~/.bashrc:  source <(agent-skills completion bash)
        or: agent-skills completion bash > ~/.local/share/bash-completion/completions/agent-skills
  zsh   agent-skills completion zsh > "${fpath[1]}/_agent-skills"   (then start a new shell)
        or add to ~/.zshrc, after compinit:  source <(agent-skills completion zsh)
  fish  agent-skills completion fish > ~/.config/fish/completions/agent-skills.fish

The script runs agent-skills itself, found on PATH, to complete each word, so it keeps
working after an update. A completion reads only local files (the configuration and
the receipts list reads), never the network, and prints nothing when it fails.

Examples:
  agent-skills completion bash
  agent-skills completion fish > ~/.config/fish/completions/agent-skills.fish`
}

func (c *completionCmd) Run(e *env) error {
	s, err := complete.Script(c.Shell, "agent-skills")
	if err != nil {
		return err
	}
	_, err = io.WriteString(e.Out, s)
	return err
}

// completionTimeout bounds one completion: past it the shell gets no
// candidates rather than a hung prompt.
const completionTimeout = time.Second

// completeRequest answers a shell's completion request (COMP_LINE set by
// the scripts of `agent-skills completion`) and reports whether there was
// one; an ordinary run pays one getenv. The candidates go to stdout, one
// a line. Nothing is ever printed on stderr and no error escapes: a
// completion that fails, panics or runs out of time prints nothing, so
// that it cannot break the user's shell.
func completeRequest(ctx context.Context, parser *kong.Kong, stdout io.Writer, getenv func(string) string) bool {
	req, ok := complete.FromEnv(getenv)
	if !ok {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, completionTimeout)
	defer cancel()
	done := make(chan []string, 1)
	go func() {
		var out []string
		defer func() {
			recover() // a completion must never crash the shell's prompt
			done <- out
		}()
		out = candidates(ctx, parser, req, getenv)
	}()
	select {
	case out := <-done:
		if len(out) > 0 {
			io.WriteString(stdout, strings.Join(out, "\n")+"\n")
		}
	case <-ctx.Done():
	}
	return true
}

// candidates builds the completion tree from the parser's model with the
// machine's predictors and returns what it offers for req.
func candidates(ctx context.Context, parser *kong.Kong, req complete.Request, getenv func(string) string) []string {
	cwd, err := os.Getwd()
	if err != nil {
		return nil
	}
	ws := &workspace.Machine{Getenv: getenv, Cwd: cwd}
	ws.LoadAgents()
	src := complete.Sources{WS: ws}
	cmd, err := kongplete.Command(parser, kongplete.WithPredictors(src.Predictors(ctx, req)))
	if err != nil {
		return nil
	}
	return complete.Candidates(cmd, req)
}
