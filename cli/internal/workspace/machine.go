package workspace

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/agent-skills/agent-skills/agents"

	"github.com/agent-skills/agent-skills/cli/internal/config"
	"github.com/agent-skills/agent-skills/registry"
)

// Machine is the environment of one command.
type Machine struct {
	// Getenv reads the command's environment (tests isolate it).
	Getenv func(string) string
	// Cwd is the working folder, absolute.
	Cwd string
	// OfflineFlag is --offline; AGENT_SKILLS_OFFLINE=1 does the same (see
	// Offline).
	OfflineFlag bool
	// HTTP bounds every registry and archive download (see
	// HTTPTimeoutsFrom).
	HTTP registry.HTTPTimeouts
	// Notify receives the notices of registries and sources (a cache
	// used, a redirect followed); nil drops them.
	Notify func(msg string)
	// Agents is the agent table of this run, built once by the caller
	// (LoadAgents); nil means the built-in table (see Table).
	Agents *agents.Table
	// agentsErr is why the configuration's custom agents cannot be used,
	// set by LoadAgents and returned by LoadConfig.
	agentsErr error
}

// LoadAgents builds the agent table of this run once: the built-in agents
// and the custom agents config.json defines, checked (agents.WithCustom).
// A configuration that cannot be read, or custom agents that cannot be
// used, leave the built-in table; the error is LoadConfig's, so that a
// command that reads no configuration (validate, create) still runs and
// every other one fails before it writes anything.
func (m *Machine) LoadAgents() {
	m.Agents = agents.Default()
	cfg, err := config.Load(m.ConfigPath())
	if err != nil {
		return
	}
	custom := cfg.CustomAgents()
	if len(custom) == 0 {
		return
	}
	t, err := agents.WithCustom(m.Agents, custom, agents.Env{Home: m.UserHome(), Getenv: m.Getenv, Overrides: cfg.Overrides()})
	if err != nil {
		var ae *agents.Error
		if errors.As(err, &ae) {
			ae.Message = m.ConfigPath() + ": " + ae.Message
		}
		m.agentsErr = err
		return
	}
	m.Agents = t
}

// Table returns the agent table of this run.
func (m *Machine) Table() *agents.Table {
	if m.Agents != nil {
		return m.Agents
	}
	return agents.Default()
}

// notify passes msg to Notify, if set.
func (m *Machine) notify(msg string) {
	if m.Notify != nil {
		m.Notify(msg)
	}
}

// UserHome returns the user's home folder from HOME (USERPROFILE on
// Windows), falling back to the operating system's answer.
func (m *Machine) UserHome() string {
	if h := m.Getenv("HOME"); h != "" {
		return h
	}
	if h := m.Getenv("USERPROFILE"); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}

// Home returns the agent-skills home folder ($AGENT_SKILLS_HOME or
// ~/.agent-skills).
func (m *Machine) Home() string { return config.Home(m.Getenv, m.UserHome()) }

// ConfigPath returns the path of config.json.
func (m *Machine) ConfigPath() string { return config.Path(m.Home()) }

// CacheDir returns the folder of registry, source and metadata caches.
func (m *Machine) CacheDir() string { return filepath.Join(m.Home(), "cache") }

// LoadConfig reads the configuration, or the defaults when there is none.
// It also fails when the configuration's custom agents cannot be used
// (see LoadAgents).
func (m *Machine) LoadConfig() (*config.Config, error) {
	cfg, err := config.Load(m.ConfigPath())
	if err == nil && m.agentsErr != nil {
		return nil, m.agentsErr
	}
	return cfg, err
}

// Offline reports whether network use is forbidden (--offline or
// AGENT_SKILLS_OFFLINE=1): registries serve their caches only.
func (m *Machine) Offline() bool {
	return m.OfflineFlag || m.Getenv("AGENT_SKILLS_OFFLINE") == "1"
}

// Configured loads the configuration and opens every registry a command
// run in the working folder may use: the user's, then those of the
// project above it, if any (see ConfiguredFor). Commands that act on a
// decided scope (install and the others of skillset) use ConfiguredFor
// with the scope's root instead.
func (m *Machine) Configured() (*registry.Set, *config.Config, error) {
	root, err := m.ProjectRoot("")
	if err != nil {
		return nil, nil, err
	}
	return m.ConfiguredFor(root)
}

// ConfiguredFor loads the configuration and opens every registry a
// command in the project at projectRoot may use — the user's, then the
// project's (see RegistryList) — in precedence order. projectRoot ""
// (a global command) means the user's registries only. Each project
// registry that a user's registry of the same name shadows is reported
// through Notify.
func (m *Machine) ConfiguredFor(projectRoot string) (*registry.Set, *config.Config, error) {
	cfg, list, err := m.ConfiguredList(projectRoot)
	if err != nil {
		return nil, nil, err
	}
	set, err := m.OpenRegistries(cfg, list)
	if err != nil {
		return nil, nil, err
	}
	return set, cfg, nil
}

// ConfiguredList is ConfiguredFor without opening the registries: the
// configuration and the merged list, for a caller that adds registries
// of its own (skills.lock's) before opening them.
func (m *Machine) ConfiguredList(projectRoot string) (*config.Config, *RegistryList, error) {
	cfg, err := m.LoadConfig()
	if err != nil {
		return nil, nil, err
	}
	list, err := m.RegistryList(cfg, projectRoot)
	if err != nil {
		return nil, nil, err
	}
	for _, s := range list.Shadowed {
		m.notify(ShadowNotice(s))
	}
	return cfg, list, nil
}

// ConfigAndProject loads the configuration and finds the project root
// (see ProjectRoot), which most read-only commands need together.
func (m *Machine) ConfigAndProject(explicit string) (*config.Config, string, error) {
	cfg, err := m.LoadConfig()
	if err != nil {
		return nil, "", err
	}
	root, err := m.ProjectRoot(explicit)
	if err != nil {
		return nil, "", err
	}
	return cfg, root, nil
}
