package skillset

import (
	"context"

	"github.com/agent-skills/agent-skills/cli/internal/workspace"
)

// RegistryInstall is one skill installed from a registry, in one scope,
// as the update notifier offers its releases: the receipts' (or, in a
// project, skills.lock's) version read now, so that an update or a
// removal made since the last lookup leaves no stale notice.
type RegistryInstall struct {
	Name     string
	Version  string
	Registry string
	// Scope is where it is installed; Agents the agents it is installed
	// for, which an accepted update keeps as its destinations.
	Scope  workspace.Scope
	Agents []string
}

// RegistryInstalls lists the skills installed from registries in the
// global scope and in the project above the working folder, for the
// detected agents. Skills from sources and unmanaged folders are left
// out (they have no registry releases). It reads receipts and
// skills.lock only: nothing is looked up and nothing is written.
func RegistryInstalls(ctx context.Context, ws *workspace.Machine) ([]RegistryInstall, error) {
	var out []RegistryInstall
	err := eachReportScope(ctx, ws, OutdatedRequest{}, "update-check", func(p *op) error {
		rows, err := p.installedRows(nil)
		if err != nil {
			return err
		}
		for _, r := range rows {
			if r.Source != "" || r.Registry == "" || r.Installed == "" {
				continue
			}
			out = append(out, RegistryInstall{Name: r.Name, Version: r.Installed, Registry: r.Registry, Scope: p.Scope, Agents: r.Agents})
		}
		return nil
	})
	return out, err
}
