// Command agent-skills creates, validates, publishes and installs agent skills.
package main

import (
	"os"

	"github.com/agent-skills/agent-skills/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
