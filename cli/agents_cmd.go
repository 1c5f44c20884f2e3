package cli

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/ui"
	"github.com/agent-skills/agent-skills/cli/internal/workspace"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/format"
)

type agentsCmd struct {
	Agent       []string `name:"agent" predictor:"agent" help:"Show what an install for these agents would do (repeatable, or comma-separated; default: the detected agents)."`
	ProjectRoot string   `type:"path" help:"The project whose roots to show (default: the nearest project above the working folder)."`
	JSON        bool     `name:"json" help:"Print JSON."`
}

func (c *agentsCmd) Help() string {
	return `First one line: how many agents are detected, which ones an install acts on (the
detected ones, or those named with --agent) and the folders a skill would be written
to for them, per scope. Then, for every supported agent: whether it is detected and on
what evidence (strong: a config folder or an executable on PATH; weak: only a project
marker), its version when it can be read, and every folder it reads skills and commands
from, per scope. Agents with strong evidence are the ones install acts on by default.

Examples:
  agent-skills agents
  agent-skills agents --agent claude,copilot
  agent-skills agents --json`
}

type agentInfo struct {
	ID          string             `json:"id"`
	DisplayName string             `json:"displayName"`
	Aliases     []string           `json:"aliases"`
	Enabled     bool               `json:"enabled"`
	Detection   agents.Detection   `json:"detection"`
	Roots       map[string][]kRoot `json:"roots"`
	// Status says where the table row comes from: "verified <agent>
	// <version>" or "documented: <source>" (see docs/agents.md).
	Status string `json:"status,omitempty"`
	// NoSkills says, per scope, why skills are not installed for the
	// agent there, when they are not.
	NoSkills map[string]string `json:"noSkills,omitempty"`
	// Custom says the agent is defined in config.json, not built in.
	Custom bool `json:"custom,omitempty"`
	// Selected says an install acts on the agent (detected, or named
	// with --agent).
	Selected bool `json:"selected"`
	// SkillsTo lists, per scope, the folders a skill would be written to
	// that the agent reads: one, unless no choice avoids more.
	SkillsTo map[string][]string `json:"skillsTo,omitempty"`
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
	ov, err := e.ws.Overview(e.ctx, cfg, c.Agent, aenv)
	if err != nil {
		return err
	}
	selected := map[string]bool{}
	for _, a := range ov.Selected {
		selected[a.ID()] = true
	}
	var out []agentInfo
	for _, r := range ov.Reports {
		a := r.Adapter
		info := agentInfo{ID: a.ID(), DisplayName: a.DisplayName(), Aliases: a.Aliases(),
			Enabled: cfg.AgentEnabled(a.ID()), Detection: r.Detection, Roots: map[string][]kRoot{},
			Selected: selected[a.ID()], Status: agents.Status(a), Custom: agents.IsCustom(a)}
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
			if _, ok := a.LocationFor(format.KindSkill, scope, aenv); !ok {
				if info.NoSkills == nil {
					info.NoSkills = map[string]string{}
				}
				info.NoSkills[string(scope)] = agents.SkipReason(a, format.KindSkill, scope, aenv)
			}
			if to := readersRoots(ov.Skills[scope], a.ID()); len(to) > 0 {
				if info.SkillsTo == nil {
					info.SkillsTo = map[string][]string{}
				}
				info.SkillsTo[string(scope)] = to
			}
		}
		out = append(out, info)
	}
	if c.JSON {
		return e.JSON(out)
	}
	fmt.Fprintln(e.Out, agentsSummary(ov, aenv))
	for _, a := range out {
		fmt.Fprintln(e.Out)
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
		if a.Selected {
			state += ", selected"
		}
		if a.Custom {
			state += " (custom, from config.json)"
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
		if a.Status != "" {
			fmt.Fprintf(e.Out, "  status: %s\n", ui.Field(a.Status))
		}
		for _, scope := range []string{"global", "project"} {
			if why, ok := a.NoSkills[scope]; ok {
				fmt.Fprintf(e.Out, "  %-7s %-8s none: %s\n", scope, "skill", ui.Field(why))
			}
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

// readersRoots returns the roots of plan that agent id reads.
func readersRoots(plan agents.Plan, id string) []string {
	var out []string
	for _, t := range plan.Targets {
		if slices.Contains(t.Readers, id) {
			out = append(out, t.Root)
		}
	}
	return out
}

// agentsSummary is the first line of the agents command: what is
// detected, what an install acts on, and where a skill goes, e.g.
//
//	2 of 25 agents detected (claude-code, codex); install acts on claude-code, codex: a skill goes to ~/.claude/skills, ~/.agents/skills (global) and .claude/skills, .agents/skills (project)
func agentsSummary(ov workspace.AgentOverview, aenv agents.Env) string {
	var strong, weak []string
	for _, r := range ov.Reports {
		switch r.Detection.Confidence {
		case agents.ConfidenceStrong:
			strong = append(strong, r.Adapter.ID())
		case agents.ConfidenceWeak:
			weak = append(weak, r.Adapter.ID())
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d agents detected", len(strong), len(ov.Reports))
	if len(strong) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(strong, ", "))
	}
	if len(weak) > 0 {
		fmt.Fprintf(&b, ", %d on weak evidence only (%s)", len(weak), strings.Join(weak, ", "))
	}
	if len(ov.Selected) == 0 {
		b.WriteString("; install acts on none of them: name the agents with --agent <id>")
		return b.String()
	}
	ids := make([]string, len(ov.Selected))
	for i, a := range ov.Selected {
		ids[i] = a.ID()
	}
	how := "install acts on "
	if ov.Named {
		how = "install --agent acts on "
	}
	fmt.Fprintf(&b, "; %s%s: a skill goes to ", how, strings.Join(ids, ", "))
	for i, scope := range []agents.Scope{agents.ScopeGlobal, agents.ScopeProject} {
		if i > 0 {
			b.WriteString(" and ")
		}
		var roots []string
		for _, t := range ov.Skills[scope].Targets {
			roots = append(roots, ui.Field(shortRoot(t.Root, aenv)))
		}
		if len(roots) == 0 {
			roots = []string{"nowhere"}
		}
		fmt.Fprintf(&b, "%s (%s)", strings.Join(roots, ", "), scope)
	}
	return b.String()
}

// shortRoot spells a root below the project root relative to it, and one
// below the home folder with "~".
func shortRoot(root string, aenv agents.Env) string {
	for _, base := range []struct{ dir, prefix string }{{aenv.ProjectRoot, ""}, {aenv.Home, "~" + string(filepath.Separator)}} {
		if base.dir == "" {
			continue
		}
		if rel, err := filepath.Rel(base.dir, root); err == nil && rel != "." && !strings.HasPrefix(rel, "..") && !filepath.IsAbs(rel) {
			return base.prefix + rel
		}
	}
	return root
}
