package cli

import "github.com/agent-skills/agent-skills/agents"

// overrideKeys returns, per agent id, the agentOverrides keys its adapter
// allows; validate checks manifests against it.
func overrideKeys() map[string][]string { return agents.Default().OverrideKeys() }
