package cli

import (
	"fmt"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/ui"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/format"
)

type agentsCmd struct {
	ProjectRoot string `type:"path" help:"The project whose roots to show (default: the nearest project above the working folder)."`
	JSON        bool   `name:"json" help:"Print JSON."`
}

func (c *agentsCmd) Help() string {
	return `For every supported agent: whether it is detected and on what evidence (strong: a
config folder or an executable on PATH; weak: only a project marker), its version when
it can be read, and every folder it reads skills and commands from, per scope. Agents
with strong evidence are the ones install acts on by default.

Examples:
  agent-skills agents
  agent-skills agents --json`
}

type agentInfo struct {
	ID          string             `json:"id"`
	DisplayName string             `json:"displayName"`
	Aliases     []string           `json:"aliases"`
	Enabled     bool               `json:"enabled"`
	Detection   agents.Detection   `json:"detection"`
	Roots       map[string][]kRoot `json:"roots"`
}

type kRoot struct {
	Kind string `json:"kind"`
	agents.Root
	Writes bool `json:"writes"`
}

func (c *agentsCmd) Run(e *env) error {
	cfg, root, err := e.ws.ConfigAndProject(c.ProjectRoot)
	if err != nil {
		return err
	}
	aenv := e.ws.AgentEnv(cfg, root)
	reports := agents.DetectAll(e.ctx, aenv, e.ws.Table().All())
	var out []agentInfo
	for _, r := range reports {
		a := r.Adapter
		info := agentInfo{ID: a.ID(), DisplayName: a.DisplayName(), Aliases: a.Aliases(),
			Enabled: cfg.AgentEnabled(a.ID()), Detection: r.Detection, Roots: map[string][]kRoot{}}
		if info.Aliases == nil {
			info.Aliases = []string{}
		}
		for _, scope := range []agents.Scope{agents.ScopeGlobal, agents.ScopeProject} {
			list := []kRoot{}
			for _, kind := range format.Kinds() {
				loc, writes := a.LocationFor(kind, scope, aenv)
				for _, rt := range agents.Roots(a, kind, scope, aenv) {
					list = append(list, kRoot{Kind: string(kind), Root: rt, Writes: writes && loc.Root == rt.Path})
				}
			}
			info.Roots[string(scope)] = list
		}
		out = append(out, info)
	}
	if c.JSON {
		return e.JSON(out)
	}
	for i, a := range out {
		if i > 0 {
			fmt.Fprintln(e.Out)
		}
		state := "not detected"
		switch a.Detection.Confidence {
		case agents.ConfidenceStrong:
			state = e.Style.Green("detected")
		case agents.ConfidenceWeak:
			state = e.Style.Yellow("weak evidence only (use --agent " + a.ID + ")")
		}
		if !a.Enabled {
			state += " (disabled in config)"
		}
		name := a.ID
		if len(a.Aliases) > 0 {
			name += " (" + strings.Join(a.Aliases, ", ") + ")"
		}
		ver := ""
		if a.Detection.Version != "" {
			ver = " " + a.Detection.Version
		}
		// The version is what an agent's package.json or --version said,
		// and evidence names paths on this machine: both are escaped.
		fmt.Fprintf(e.Out, "%s  %s%s: %s\n", e.Style.Bold(a.DisplayName), name, ui.Field(ver), state)
		for _, ev := range a.Detection.Evidence {
			fmt.Fprintf(e.Out, "  evidence: %s %s\n", ev.Kind, ui.Field(ev.Detail))
		}
		for _, scope := range []string{"global", "project"} {
			for _, r := range a.Roots[scope] {
				mark := "reads "
				if r.Writes {
					mark = "writes"
				}
				extra := ""
				if r.Deprecated {
					extra = " (deprecated)"
				}
				fmt.Fprintf(e.Out, "  %-7s %-8s %s %s%s\n", scope, r.Kind, mark, ui.Field(r.Path), extra)
			}
		}
	}
	return nil
}
