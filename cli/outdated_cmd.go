package cli

import (
	"fmt"
	"text/tabwriter"

	"github.com/agent-skills/agent-skills/cli/internal/skillset"
	"github.com/agent-skills/agent-skills/cli/internal/ui"
)

type outdatedCmd struct {
	Skills      []string `arg:"" predictor:"installed" optional:"" help:"Installed skills to check; none: every installed skill."`
	Agent       []string `short:"a" predictor:"agent" help:"Only skills in the folders these agents read; repeatable. Default: every detected agent."`
	Global      bool     `help:"Only global skills."`
	Project     bool     `help:"Only the project's skills."`
	ProjectRoot string   `type:"path" help:"The project folder (default: the nearest project above the working folder)."`
	JSON        bool     `name:"json" help:"Print JSON."`
}

func (c *outdatedCmd) Help() string {
	return `Shows every installed skill, global and in the project, with the version installed, the
version "agent-skills update" would move it to (WANTED: the newest within ^installed that
the other locked skills allow) and the newest one (LATEST: the registry's latest, or the
newest semver tag of a source installed from a tag), and where it comes from. A skill
installed from a git branch is compared with the branch's newest commit on the server, a
folder with its files now; offline those are "unknown". It changes nothing, and it exits 0
also when skills are out of date: "agent-skills update" moves them, "update --major" also
to LATEST.

Examples:
  agent-skills outdated
  agent-skills outdated --project --json
  agent-skills --offline outdated java-performance`
}

func (c *outdatedCmd) Run(e *env) error {
	rep, err := skillset.Outdated(e.ctx, e.ws, skillset.OutdatedRequest{Names: c.Skills, Global: c.Global, Project: c.Project,
		ProjectRoot: c.ProjectRoot, Agents: c.Agent})
	if err != nil {
		return err
	}
	// The notices are for a person, on stderr, also with --json.
	e.Report(&skillset.Outcome{Notices: rep.Notices}, false)
	if c.JSON {
		return e.JSON(rep)
	}
	if len(rep.Skills) == 0 {
		e.Info("no skills installed")
		return nil
	}
	tw := tabwriter.NewWriter(e.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSCOPE\tINSTALLED\tWANTED\tLATEST\tSTATUS\tFROM")
	outdated, unknown := 0, 0
	for _, s := range rep.Skills {
		if s.Outdated() {
			outdated++
		}
		if s.Status == skillset.FreshUnknown {
			unknown++
		}
		status := string(s.Status)
		if s.Disabled {
			status += " (disabled)"
		}
		// Versions, refs and sources come from skills.lock, receipts and
		// servers: every field is escaped.
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", ui.Field(s.Name), ui.Field(s.Scope), ui.Field(ui.Dash(s.Installed)),
			ui.Field(newVersion(s, s.Wanted)), ui.Field(newVersion(s, s.Latest)), ui.Field(status), ui.Field(ui.Dash(s.From())))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, s := range rep.Skills {
		if s.Reason != "" {
			fmt.Fprintf(e.Out, "%s (%s): %s\n", ui.Field(s.Name), s.Scope, ui.Field(s.Reason))
		}
	}
	switch {
	case outdated == 0 && unknown == 0:
		e.Info("every installed skill is up to date")
	case outdated == 0:
		e.Info("no installed skill is known to have a newer version; %d of %d cannot be checked now (see above)", unknown, len(rep.Skills))
	case outdated == 1:
		e.Info("1 of %d installed skills has a newer version: agent-skills update moves it to WANTED (--major: to LATEST)", len(rep.Skills))
	default:
		e.Info("%d of %d installed skills have newer versions: agent-skills update moves them to WANTED (--major: to LATEST)", outdated, len(rep.Skills))
	}
	return nil
}

// newVersion shows a WANTED or LATEST column: the version, the branch and
// commit a source's branch has moved to, or "unknown".
func newVersion(s skillset.OutdatedSkill, v string) string {
	switch {
	case v != "":
		return v
	case s.LatestCommit != "":
		ref := s.Ref
		if ref == "" {
			ref = "HEAD"
		}
		c := s.LatestCommit
		if len(c) > 12 {
			c = c[:12]
		}
		return ref + "@" + c
	case s.Status == skillset.FreshUnknown:
		return "unknown"
	}
	return "-"
}
