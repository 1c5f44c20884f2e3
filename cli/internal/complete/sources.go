package complete

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/posener/complete"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/cli/internal/workspace"
)

// The predictor names the command structs use in their `predictor:"…"`
// tags (see Predictors).
const (
	// PredictAgent completes agent ids and aliases (--agent).
	PredictAgent = "agent"
	// PredictRegistry completes configured registry names.
	PredictRegistry = "registry"
	// PredictInstalled completes the names of installed skills.
	PredictInstalled = "installed"
)

// Sources reads what the predictors offer from one machine: nothing is
// written and no network is used.
type Sources struct {
	// WS is the machine, its agent table loaded (LoadAgents).
	WS *workspace.Machine
}

// Predictors returns the predictors of every name a command tag may use,
// for the request r: what they offer can depend on the command typed
// (enable offers disabled skills, disable enabled ones) and its scope
// flags. ctx bounds the reading of receipts.
func (s Sources) Predictors(ctx context.Context, r Request) map[string]complete.Predictor {
	return map[string]complete.Predictor{
		PredictAgent:    commaList(s.AgentNames),
		PredictRegistry: complete.PredictFunc(func(complete.Args) []string { return s.RegistryNames() }),
		PredictInstalled: complete.PredictFunc(func(a complete.Args) []string {
			return s.InstalledNames(ctx, InstalledFilter{Scope: scopeOf(a), ProjectRoot: flagValue(a, "--project-root"), Want: wantFor(r.Command())})
		}),
	}
}

// AgentNames returns every id and alias of the run's agent table (the
// built-in agents and config.json's custom ones), and "all".
func (s Sources) AgentNames() []string {
	out := []string{"all"}
	for _, a := range s.WS.Table().All() {
		out = append(out, a.ID())
		out = append(out, a.Aliases()...)
	}
	return out
}

// RegistryNames returns the names of the configured registries: the
// user's, then those of the project above the working folder (only the
// user's when the project's file cannot be used). A configuration that
// cannot be read offers none.
func (s Sources) RegistryNames() []string {
	cfg, err := s.WS.LoadConfig()
	if err != nil {
		return nil
	}
	var out []string
	for _, r := range cfg.Registries {
		out = append(out, r.Name)
	}
	root, err := s.WS.ProjectRoot("")
	if err != nil || root == "" {
		return out
	}
	if list, err := s.WS.RegistryList(cfg, root); err == nil {
		out = out[:0]
		for _, r := range list.Registries {
			out = append(out, r.Name)
		}
	}
	return out
}

// Want selects installed skills by state.
type Want int

const (
	// WantAll offers every skill agent-skills installed.
	WantAll Want = iota
	// WantEnabled offers those that are not disabled (for disable).
	WantEnabled
	// WantDisabled offers the disabled ones (for enable).
	WantDisabled
)

// wantFor is what the command offers.
func wantFor(command string) Want {
	switch command {
	case "enable":
		return WantDisabled
	case "disable":
		return WantEnabled
	}
	return WantAll
}

// InstalledFilter says which installed skills InstalledNames offers.
type InstalledFilter struct {
	// Scope is the one scope to read; "" reads the global scope and the
	// project's.
	Scope agents.Scope
	// ProjectRoot is --project-root as typed ("" finds the project above
	// the working folder), relative to the working folder.
	ProjectRoot string
	// Want selects by state.
	Want Want
}

// InstalledNames returns the names of the skills agent-skills installed
// (those with a receipt) in the roots any agent of the table reads, in
// the global scope and the project's, as list reads them — receipts only:
// no package file is read or hashed, nothing is written.
func (s Sources) InstalledNames(ctx context.Context, f InstalledFilter) []string {
	cfg, err := s.WS.LoadConfig()
	if err != nil {
		return nil
	}
	explicit := f.ProjectRoot
	if explicit != "" && !filepath.IsAbs(explicit) {
		explicit = filepath.Join(s.WS.Cwd, explicit)
	}
	root, err := s.WS.ProjectRoot(explicit)
	if err != nil {
		return nil
	}
	var scopes []agents.Scope
	if f.Scope != agents.ScopeProject {
		scopes = append(scopes, agents.ScopeGlobal)
	}
	if f.Scope != agents.ScopeGlobal && root != "" {
		scopes = append(scopes, agents.ScopeProject)
	}
	aenv := s.WS.AgentEnv(cfg, root)
	var out []string
	for _, sc := range scopes {
		found, err := install.Scan(ctx, install.Options{Scope: sc, Env: aenv, Agents: s.WS.Table().All(), ReceiptsOnly: true})
		if err != nil {
			continue
		}
		for _, in := range found {
			if in.State == install.StateUnmanaged ||
				f.Want == WantEnabled && in.Disabled || f.Want == WantDisabled && !in.Disabled {
				continue
			}
			out = append(out, in.Name)
		}
	}
	return out
}

// commaList completes a value that may list several names separated by
// commas (--agent claude,co…): each name the word could still take,
// after the names already typed.
func commaList(names func() []string) complete.Predictor {
	return complete.PredictFunc(func(a complete.Args) []string {
		done, _, _ := cutLast(a.Last, ",")
		out := names()
		if done == "" {
			return out
		}
		for i, n := range out {
			out[i] = done + "," + n
		}
		return out
	})
}

// cutLast splits s around the last sep.
func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return "", s, false
}

// scopeOf is the scope the words typed ask for: --global, --project, or
// "" for both.
func scopeOf(a complete.Args) agents.Scope {
	for _, w := range a.Completed {
		switch w {
		case "--global":
			return agents.ScopeGlobal
		case "--project":
			return agents.ScopeProject
		}
	}
	return ""
}

// flagValue returns the value typed for the flag name ("--name value" or
// "--name=value"), or "".
func flagValue(a complete.Args, name string) string {
	for i, w := range a.Completed {
		if v, ok := strings.CutPrefix(w, name+"="); ok {
			return v
		}
		if w == name && i+1 < len(a.Completed) {
			return a.Completed[i+1]
		}
	}
	return ""
}
