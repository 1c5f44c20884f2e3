//go:build !linux

package install

import (
	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/format"
)

// pkgFd is Linux's; elsewhere pkgRoot's os.Root compares the files.
type pkgFd struct{}

func openPkgFd(string, agents.Shape) (*pkgFd, error) { return nil, nil }
func (*pkgFd) Close() error                          { return nil }
func (*pkgFd) fileMatches(string, string, *format.Digester) (bool, error) {
	return false, nil
}
