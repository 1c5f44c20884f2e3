package cli

import (
	"os"
	"path/filepath"

	"github.com/agent-skills/agent-skills/cli/internal/config"
)

// userHome returns the user's home folder from HOME (USERPROFILE on
// Windows), falling back to the OS's answer.
func (e *env) userHome() string {
	if h := e.getenv("HOME"); h != "" {
		return h
	}
	if h := e.getenv("USERPROFILE"); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}

// home returns the agent-skills home folder ($AGENT_SKILLS_HOME or
// ~/.agent-skills).
func (e *env) home() string { return config.Home(e.getenv, e.userHome()) }

// configPath returns the path of config.json.
func (e *env) configPath() string { return config.Path(e.home()) }

// cacheDir returns the folder for registry caches.
func (e *env) cacheDir() string { return filepath.Join(e.home(), "cache") }

// loadConfig reads the configuration, or the defaults when there is none.
func (e *env) loadConfig() (*config.Config, error) { return config.Load(e.configPath()) }
