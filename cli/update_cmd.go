package cli

import "github.com/agent-skills/agent-skills/cli/internal/skillset"

type updateCmd struct {
	Skills       []string   `arg:"" predictor:"installed" optional:"" help:"Installed skills to update; none: every installed skill."`
	Agent        []string   `short:"a" predictor:"agent" help:"Agent to update for; repeatable. Default: every detected agent."`
	Scope        scopeFlags `embed:""`
	Major        bool       `help:"Allow new major versions (default: stay within ^installed)."`
	WithSuggests bool       `help:"Also install the direct suggestions of the named skills."`
	DryRun       bool       `help:"Print the plan; write nothing."`
	Force        bool       `help:"Overwrite installs that were modified, and take a new dependency from its registry over a skill of its name from elsewhere."`
	KeepLocal    bool       `help:"Keep your versions of the files you changed in installed skills; take everything else from the new version."`
	JSON         bool       `name:"json" help:"Print the plan and outcomes as JSON."`
	AllowRisk    []string   `name:"allow-risk" placeholder:"RULE" help:"Update despite content-scan findings of these rules (ids, or globs such as hidden-*; comma-separated or repeated); the receipts record the acceptance. See docs/security.md."`
}

func (c *updateCmd) Help() string {
	return `Moves installed skills to the newest version within ^installed (--major: the newest
version), from the registry they were installed from, and updates skills.lock. Other
locked skills keep their versions unless a dependency requires a move. A skill installed
from a source moves to the newest commit of the branch it was installed from, or to
the newest semver tag when it was installed from a tag; what changed is shown first.
An installed skill you edited is not replaced unless --force (take the new version) or
--keep-local (keep your edited files, take the rest). Dependencies that the new versions no
longer need, installed only as dependencies and unchanged, are removed.

Examples:
  agent-skills update
  agent-skills update java-performance --major
  agent-skills update java-performance --with-suggests --dry-run
  agent-skills update pdf-tools --keep-local`
}

func (c *updateCmd) Run(e *env) error {
	s, err := skillset.Open(e.ctx, e.ws, skillset.Options{Scope: c.Scope.request(), Agents: c.Agent,
		Generator: generator(), Fault: e.faultHook(), AllowRisk: c.AllowRisk})
	if err != nil {
		return err
	}
	out, err := s.Update(e.ctx, skillset.UpdateRequest{Names: c.Skills, Major: c.Major, WithSuggests: c.WithSuggests,
		DryRun: c.DryRun, Force: c.Force, KeepLocal: c.KeepLocal, Progress: e.Progress(c.JSON)})
	e.Report(out, c.JSON)
	return err
}
