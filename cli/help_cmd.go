package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
)

// helpCmd is `agent-skills help [command…]`, as gh, cargo and npm have
// it: the same page as `agent-skills [command…] --help`.
type helpCmd struct {
	Command []string `arg:"" optional:"" help:"The command to show the help of, e.g. install or registry add."`
}

// Run parses the command again with --help, which prints its page and
// ends the run through kong's exit (exit 0).
func (c *helpCmd) Run(kctx *kong.Context) error {
	_, err := kctx.Kong.Parse(append(append([]string(nil), c.Command...), "--help"))
	var pe *kong.ParseError
	if errors.As(err, &pe) {
		return &askerr.Error{Code: askerr.CodeUsage, Message: fmt.Sprintf("no help for %q: %v", strings.Join(c.Command, " "), err),
			Try: []string{"agent-skills --help, for the list of commands"}}
	}
	return err
}
