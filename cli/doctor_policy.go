package cli

import (
	"strconv"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/policy"
	"github.com/agent-skills/agent-skills/cli/internal/workspace"
)

// policy shows the effective policy (docs/policy.md): every line with the
// file and line it comes from, and a note where the merge limits it. A
// policy file that cannot be used is a failed check with its code — a
// command that installs stops on it — and the other file's lines are
// still shown. It returns the lines for --json.
func (d *doctor) policy(root string) []policy.Line {
	e := d.e
	load := func(file string, project bool) *policy.File {
		f, err := policy.Load(file, project)
		if err != nil {
			msg := err.Error()
			if lines := askerr.DetailOf(err); len(lines) > 1 {
				msg += ": " + strings.Join(lines[:len(lines)-1], "; ")
			}
			d.add("policy", e.Rel(file), "fail", msg+" ("+askerr.CodeOf(err)+"); install, update and restore stop until it is fixed",
				"fix "+e.Rel(file)+" at the named lines (docs/policy.md)")
		}
		return f
	}
	user := load(e.ws.PolicyPath(), false)
	var project *policy.File
	projectFile := ""
	if root != "" {
		projectFile = workspace.ProjectPolicyPath(root)
		project = load(projectFile, true)
	}
	eff := policy.Merge(user, project)
	lines := eff.Lines()
	if lines == nil {
		lines = []policy.Line{}
	}
	for _, f := range []*policy.File{user, project} {
		if f == nil {
			continue
		}
		what := "your policy"
		if f.Project {
			what = "the project's policy: it can forbid more than yours, never allow what yours forbids"
		}
		d.add("policy", e.Rel(f.Path), "ok", what, "")
	}
	if eff.Empty() && !d.failed("policy") {
		msg := "no policy file (" + e.ws.PolicyPath()
		if projectFile != "" {
			msg += ", " + e.Rel(projectFile)
		}
		d.add("policy", "policy", "ok", msg+"): the scan's default gate applies and every registry and source is allowed", "")
	}
	for _, l := range lines {
		msg := "from " + e.Rel(l.File)
		if l.Line > 0 {
			msg += ":" + strconv.Itoa(l.Line)
		}
		if l.Note != "" {
			msg += "; " + l.Note
		}
		d.add("policy", l.Key+" "+l.Value, "ok", msg, "")
	}
	return lines
}

// failed reports whether a check of area failed.
func (d *doctor) failed(area string) bool {
	for _, f := range d.findings {
		if f.Area == area && f.Status == "fail" {
			return true
		}
	}
	return false
}
