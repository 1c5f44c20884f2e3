package cli

import (
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/skillset"
	"github.com/agent-skills/agent-skills/cli/internal/ui"
	"github.com/agent-skills/agent-skills/cli/internal/workspace"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/resolve"
)

type listCmd struct {
	Agent       []string `short:"a" predictor:"agent" help:"Only skills these agents see; repeatable. Default: every supported agent."`
	Global      bool     `help:"Only global skills."`
	Project     bool     `help:"Only the project's skills."`
	ProjectRoot string   `type:"path" help:"The project folder (default: the nearest project above the working folder)."`
	Dir         string   `type:"path" help:"Only the skills of this install --dir folder (not with --agent, --global or --project)."`
	JSON        bool     `name:"json" help:"Print JSON."`
}

func (c *listCmd) Help() string {
	return `Lists installed skills, commands and workflows per scope with their version, the agents
that see them, where they came from (a registry, or a source and "//" the folder in it), their state (ok; disabled: installed,
but no agent lists it until agent-skills enable; modified: a file the install wrote was
changed; unmanaged: not installed by agent-skills; receipt-broken),
files you added, and what requires what (from skills.lock in a project that has one, else
from the receipts).

Examples:
  agent-skills list
  agent-skills list --project --json
  agent-skills list --dir ~/shared-skills`
}

type listEntry struct {
	install.Installed
	RequiredBy []string `json:"requiredBy,omitempty"`
}

func (c *listCmd) Run(e *env) error {
	if c.Global && c.Project {
		return askerr.Usage("--global and --project cannot be used together")
	}
	if c.Dir != "" && (len(c.Agent) > 0 || c.Global || c.Project || c.ProjectRoot != "") {
		return askerr.Usage("--dir lists one folder: it cannot be used with --agent, --global, --project or --project-root")
	}
	cfg, root, err := e.ws.ConfigAndProject(c.ProjectRoot)
	if err != nil {
		return err
	}
	var adapters []agents.Adapter
	if c.Dir != "" {
		// An install --dir folder is in no project: its skills are the
		// global scope's, read by the folder's one-off agent alone.
		root = ""
		a, err := e.ws.DirAgent(cfg, c.Dir)
		if err != nil {
			return err
		}
		adapters = []agents.Adapter{a}
	}
	aenv := e.ws.AgentEnv(cfg, root)
	if c.Dir == "" {
		if adapters, err = e.ws.SeenAgents(e.ctx, cfg, c.Agent, aenv); err != nil {
			return err
		}
	}
	var scopes []agents.Scope
	if !c.Project {
		scopes = append(scopes, agents.ScopeGlobal)
	}
	if !c.Global && root != "" {
		scopes = append(scopes, agents.ScopeProject)
	}
	var lock *resolve.Lock
	if root != "" {
		psc := workspace.Scope{Kind: agents.ScopeProject, Root: root}
		if lock, err = skillset.ReadLock(psc.LockPath()); err != nil {
			return err
		}
		// A read-only command reports an interrupted run and shows what
		// the next mutating one will record; it writes nothing.
		if run, err := skillset.PendingRun(e.ctx, e.ws, psc, aenv); err != nil {
			e.Warn("%s", err.Error())
		} else if run != nil {
			e.Warn("an interrupted %q (started %s) is not finished; the next install, update or uninstall in this project records what it did (agent-skills doctor says more)",
				run.Command, run.Started)
			lock = run.Lock
		}
	}
	var all []listEntry
	for _, sc := range scopes {
		found, err := install.Scan(e.ctx, install.Options{Scope: sc, Env: aenv, Agents: adapters})
		if err != nil {
			return err
		}
		for _, in := range found {
			le := listEntry{Installed: in}
			if sc == agents.ScopeProject && lock != nil {
				for name, s := range lock.Skills {
					if _, ok := s.Dependencies[in.Name]; ok {
						le.RequiredBy = append(le.RequiredBy, name)
					}
				}
			} else {
				// No lock: the receipts in the same folder say.
				for _, o := range found {
					if _, ok := o.Dependencies[in.Name]; ok && o.Root == in.Root && !slices.Contains(le.RequiredBy, o.Name) {
						le.RequiredBy = append(le.RequiredBy, o.Name)
					}
				}
			}
			slices.Sort(le.RequiredBy)
			all = append(all, le)
		}
	}
	if c.JSON {
		if all == nil {
			all = []listEntry{}
		}
		return e.JSON(all)
	}
	if len(all) == 0 {
		e.Info("no skills installed")
		return nil
	}
	tw := tabwriter.NewWriter(e.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tVERSION\tSCOPE\tAGENTS\tSTATE\tFROM\tLOCATION")
	for _, in := range all {
		// Names, versions and files come from receipts and folders that a
		// project clone controls: every field is escaped.
		state := string(in.State)
		switch {
		case in.Disabled && in.State == install.StateOK:
			state = "disabled"
		case in.Disabled:
			state += ", disabled"
		}
		if len(in.RequiredBy) > 0 {
			state += " (required by " + strings.Join(in.RequiredBy, ", ") + ")"
		}
		ver := in.Version
		if ver == "" {
			ver = "-"
		}
		readers := strings.Join(in.Readers, ",")
		if readers == "" {
			readers = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", ui.Field(in.Name), ui.Field(ver), ui.Field(string(in.Scope)), ui.Field(readers), ui.Field(state),
			ui.Field(ui.Dash(skillset.OriginOf(in.Installed).String())), ui.Field(e.Rel(in.Dest)))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, in := range all {
		if len(in.ModifiedFiles) > 0 {
			fmt.Fprintf(e.Out, "%s (%s): changed since install: %s\n", ui.Field(in.Name), in.Scope, ui.Fields(in.ModifiedFiles, ", "))
		}
		if len(in.AddedFiles) > 0 {
			fmt.Fprintf(e.Out, "%s (%s): your files: %s\n", ui.Field(in.Name), in.Scope, ui.Fields(in.AddedFiles, ", "))
		}
	}
	return nil
}
