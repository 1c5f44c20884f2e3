package skillset

import (
	"context"
	"os"
	"path/filepath"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/config"
	"github.com/agent-skills/agent-skills/cli/internal/policy"
	"github.com/agent-skills/agent-skills/cli/internal/workspace"
	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/resolve"
)

// Options open a Session.
type Options struct {
	// Scope is what the user asked for with --global, --project and
	// --project-root.
	Scope workspace.ScopeRequest
	// Agents are the agents named with --agent; none selects every
	// detected agent.
	Agents []string
	// Generator is recorded in skills.lock as generatedWith, e.g.
	// "agent-skills@0.2.0".
	Generator string
	// Fault, when set, is called at every fault-injection point (install's
	// and the journal's); an error aborts the run there. Tests set it.
	Fault func(point string) error
	// LockedAgents, when no agent is named, selects the agents skills.lock
	// records instead of the detected ones — detected or not, and only
	// those the configuration does not disable: a restore installs what
	// the lock records, where it records it (see Restore).
	LockedAgents bool
	// Dir is install/uninstall --dir: one folder, outside every agent's,
	// as the only root (workspace.DirAgent), in the global scope with the
	// user's registries and no skills.lock. It excludes Agents and a
	// project scope.
	Dir string
	// AllowRisk are the rules --allow-risk accepts (ids or globs of
	// scan.Rules): findings of them that would block a package are let
	// through, and its receipts record that --allow-risk accepted them.
	AllowRisk []string
}

// Session is one scope's skills: where they are, for which agents, from
// which registries, and what skills.lock pins.
type Session struct {
	// Scope is the decided scope.
	Scope workspace.Scope
	// Agents are the selected agents.
	Agents []agents.Adapter
	// Env resolves every agent folder of the scope.
	Env agents.Env
	// Config is the configuration the registries come from.
	Config *config.Config
	// Registries are the user's registries and, in a project, the
	// project's (workspace.RegistryList), in precedence order.
	Registries *registry.Set
	// Policy is the effective policy of the scope: the user's, and in a
	// project the project's skills-policy.json too (see policy.go); nil
	// when a file cannot be used (PolicyErr).
	Policy *policy.Effective
	// PolicyErr is why a policy file cannot be used (ASK_POLICY_INVALID):
	// install, update and restore stop with it before anything is
	// fetched; uninstall, list and the others, which bring nothing in,
	// still run.
	PolicyErr error
	// Lock is skills.lock as it was read when the session opened; nil
	// outside a project or without a lock file. Every use case reads it
	// afresh under the run lock.
	Lock *resolve.Lock

	ws   *workspace.Machine
	opts Options
	// lockedAgents is set when the agents are those skills.lock records
	// (Options.LockedAgents): a restore then installs each skill for the
	// agents its own entry lists.
	lockedAgents bool
	// reports are the detection reports that selected the agents (none
	// when they were named), for agentVersions.
	reports []agents.Report
}

// Open decides the scope, opens the configured registries, reads
// skills.lock, adds the registries only it records (after the configured
// ones, untrusted; see lockregistries.go) and selects the agents.
func Open(ctx context.Context, ws *workspace.Machine, opts Options) (*Session, error) {
	if opts.Dir != "" {
		return openDir(ws, opts)
	}
	sc, err := ws.DecideScope(opts.Scope)
	if err != nil {
		return nil, err
	}
	cfg, list, err := ws.ConfiguredList(sc.Root)
	if err != nil {
		return nil, err
	}
	pol, polErr := ws.LoadPolicy(sc.Root)
	lock, err := ReadLock(sc.LockPath())
	if err != nil {
		return nil, err
	}
	set, err := openWithLock(ws, cfg, list, lock)
	if err != nil {
		return nil, err
	}
	env := ws.AgentEnv(cfg, sc.Root)
	names := opts.Agents
	fromLock := false
	if opts.LockedAgents && len(names) == 0 {
		if names, err = lockedAgentIDs(lock, ws.Table(), cfg); err != nil {
			return nil, err
		}
		fromLock = len(names) > 0
	}
	adapters, reports, err := ws.SelectAgents(ctx, cfg, names, env)
	if err != nil {
		return nil, err
	}
	return &Session{Scope: sc, Agents: adapters, Env: env, Config: cfg, Registries: set, Policy: pol, PolicyErr: polErr, Lock: lock, ws: ws, opts: opts,
		reports: reports, lockedAgents: fromLock}, nil
}

// openDir opens the session of --dir (Options.Dir).
func openDir(ws *workspace.Machine, opts Options) (*Session, error) {
	if len(opts.Agents) > 0 {
		return nil, &askerr.Error{Code: askerr.CodeUsage, Message: "--dir and --agent cannot be used together",
			Detail: []string{"--dir installs into one folder for whatever reads it, not for an agent; --agent installs where agents read."},
			Try:    []string{"drop --agent to use the folder", "drop --dir to install for the agents"}}
	}
	if opts.Scope.Project || opts.Scope.ProjectRoot != "" {
		return nil, &askerr.Error{Code: askerr.CodeUsage, Message: "--dir cannot be used with --project or --project-root",
			Detail: []string{"A --dir install is the user's own: it is not recorded in a project's skills.lock (docs/cli.md#install---dir)."},
			Try:    []string{"drop --project to use the folder"}}
	}
	cfg, list, err := ws.ConfiguredList("")
	if err != nil {
		return nil, err
	}
	set, err := ws.OpenRegistries(cfg, list)
	if err != nil {
		return nil, err
	}
	a, err := ws.DirAgent(cfg, opts.Dir)
	if err != nil {
		return nil, err
	}
	pol, polErr := ws.LoadPolicy("")
	return &Session{Scope: workspace.Scope{Kind: agents.ScopeGlobal}, Agents: []agents.Adapter{a}, Env: ws.AgentEnv(cfg, ""),
		Config: cfg, Registries: set, Policy: pol, PolicyErr: polErr, ws: ws, opts: opts}, nil
}

// AgentIDs returns the ids of the selected agents, in selection order.
func (s *Session) AgentIDs() []string {
	ids := make([]string, len(s.Agents))
	for i, a := range s.Agents {
		ids[i] = a.ID()
	}
	return ids
}

// runLockPath is the scope's run lock.
func (s *Session) runLockPath() string { return s.ws.RunLockPath(s.Scope) }

// journalPath is the scope's run journal (see journal).
func (s *Session) journalPath() string { return JournalPath(s.ws, s.Scope) }

// donePath is where the journal of an interrupted run is kept once
// another command settled it, when it removed skills: running the same
// uninstall again then knows which names it had already removed.
func (s *Session) donePath() string { return s.journalPath() + ".done" }

// JournalPath is the run journal of the project of sc, beside its run
// lock: $AGENT_SKILLS_HOME/locks/<key>.journal.
func JournalPath(ws *workspace.Machine, sc workspace.Scope) string {
	return filepath.Join(ws.Home(), "locks", workspace.RunKey(sc)+".journal")
}

// stagingDir creates a new folder for fetched sources under the cache;
// the caller removes it.
func (s *Session) stagingDir(prefix string) (string, error) {
	parent := filepath.Join(s.ws.CacheDir(), "staging")
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", askerr.IO("cannot create "+parent, err)
	}
	dir, err := os.MkdirTemp(parent, prefix)
	if err != nil {
		return "", askerr.IO("cannot create a staging folder", err)
	}
	return dir, nil
}

// fault calls the fault-injection hook at point, if there is one.
func (s *Session) fault(point string) error {
	if s.opts.Fault != nil {
		return s.opts.Fault(point)
	}
	return nil
}
