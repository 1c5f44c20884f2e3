package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/config"
	"github.com/agent-skills/agent-skills/cli/internal/install"
)

// DirAgent returns the one-off agent of install, list and uninstall
// --dir <dir>: the folder dir (relative to the working folder) as the
// only root, in the global scope (agents.DirAdapter). It refuses, before
// anything is read or written:
//
//   - a dir that exists and is not a folder, or is itself a symbolic link
//     (its target is named: give that folder itself);
//   - the agent-skills home folder or a folder inside it;
//   - a dir that is, lies inside or contains a folder an agent of the
//     run's table reads, in the global scope or the project around the
//     working folder (ASK_AGENT_ROOT_CONFLICT): that agent would list
//     what is installed there twice or under a wrong name, and its
//     receipts would mix with the agent's own.
//
// A missing dir is fine: an install creates it.
func (m *Machine) DirAgent(cfg *config.Config, dir string) (agents.Adapter, error) {
	abs := dir
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(m.Cwd, dir)
	}
	abs = filepath.Clean(abs)
	dir = abs
	fi, err := os.Lstat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, askerr.IO("cannot read --dir "+dir, err)
	case fi.Mode()&fs.ModeSymlink != 0:
		target, _ := os.Readlink(abs)
		return nil, &askerr.Error{Code: askerr.CodeUsage,
			Message: "--dir " + dir + " is a symbolic link (to " + target + ")",
			Detail:  []string{"A --dir folder is used as given, never through a link: what is installed, listed and removed there must be the folder you named."},
			Try:     []string{"--dir <the folder the link leads to>"}}
	case !fi.IsDir():
		return nil, &askerr.Error{Code: askerr.CodeUsage, Message: "--dir " + dir + " is a file, not a folder",
			Try: []string{"--dir <a folder, or a path where one may be created>"}}
	}
	home := filepath.Clean(m.Home())
	if within(abs, home) || within(evalOr(abs), evalOr(home)) {
		return nil, &askerr.Error{Code: askerr.CodeUsage, Message: "--dir " + dir + " is inside the agent-skills home folder " + home,
			Try: []string{"--dir <a folder of your own>"}}
	}
	project, _ := m.ProjectRoot("")
	env := m.AgentEnv(cfg, project)
	if err := agents.CheckDir(abs, m.Table(), env); err != nil {
		return nil, err
	}
	return agents.DirAdapter(install.Canonicalizer("", m.UserHome())(abs)), nil
}
