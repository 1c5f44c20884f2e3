package cli

import "github.com/agent-skills/agent-skills/cli/internal/workspace"

// scopeFlags are the scope flags of install, uninstall, update and list.
type scopeFlags struct {
	Global      bool   `help:"Act on the user's global skills (~/.claude/skills, ~/.agents/skills, …)."`
	Project     bool   `help:"Act on the project's skills (.claude/skills, .agents/skills, …) and its skills.lock."`
	ProjectRoot string `type:"path" help:"The project folder (default: the nearest folder above the working one with .git, skills.lock or an agent folder)."`
}

// request is the scope the flags ask for.
func (f scopeFlags) request() workspace.ScopeRequest {
	return workspace.ScopeRequest{Global: f.Global, Project: f.Project, ProjectRoot: f.ProjectRoot}
}
