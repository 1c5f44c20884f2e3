package agents

import "github.com/agent-skills/agent-skills/format"

// checkHook reports agent-specific problems with a package.
type checkHook func(pkg *format.Package) format.Diagnostics

// Validate implements Adapter. It reports, as ASK_AGENT_CONSTRAINT
// diagnostics, what this agent would refuse, drop or cut (Codex drops a
// skill without a description, Copilot one whose description is over
// 1,024 characters; a Claude Code command needs one). A package
// whose kind the agent has no location for yields nothing: it is skipped
// at install time, not invalid. The generic rules of the format are the
// validate package's job.
func (a *tableAdapter) Validate(pkg *format.Package) format.Diagnostics {
	if pkg == nil || a.row.check == nil {
		return nil
	}
	if _, ok := a.row.kinds[pkg.Kind]; !ok {
		return nil
	}
	ds := a.row.check(pkg)
	ds.Sort()
	return ds
}
