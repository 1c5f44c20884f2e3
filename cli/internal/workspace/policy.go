package workspace

import (
	"path/filepath"

	"github.com/agent-skills/agent-skills/cli/internal/policy"
)

// PolicyPath returns the user's policy file, beside config.json.
func (m *Machine) PolicyPath() string { return filepath.Join(m.Home(), policy.UserFileName) }

// ProjectPolicyPath returns the policy file of the project at root,
// committed beside skills.lock.
func ProjectPolicyPath(root string) string { return filepath.Join(root, policy.ProjectFileName) }

// LoadPolicy reads the user's policy and, for a project scope (root not
// ""), the project's, and merges them (docs/policy.md). A file that
// cannot be used is an error: a broken policy never means no policy.
func (m *Machine) LoadPolicy(projectRoot string) (*policy.Effective, error) {
	user, err := policy.Load(m.PolicyPath(), false)
	if err != nil {
		return nil, err
	}
	var project *policy.File
	if projectRoot != "" {
		if project, err = policy.Load(ProjectPolicyPath(projectRoot), true); err != nil {
			return nil, err
		}
	}
	return policy.Merge(user, project), nil
}
