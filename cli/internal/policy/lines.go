package policy

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/agent-skills/agent-skills/scan"
)

// Line is one line of the effective policy, for doctor: the key, its
// value, the file and line it comes from, and a note when the merge
// changes what it does (a project acceptance the user's policy
// overrides).
type Line struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	Origin
	Note string `json:"note,omitempty"`
}

// Lines returns every line of the effective policy: the user's file's,
// then the project's, each in the file's order of keys.
func (e *Effective) Lines() []Line {
	var out []Line
	for _, f := range e.files() {
		out = append(out, e.fileLines(f)...)
	}
	return out
}

func (e *Effective) fileLines(f *File) []Line {
	var out []Line
	list := func(key string, l List, note string) {
		if !l.Set {
			return
		}
		if len(l.Patterns) == 0 {
			out = append(out, Line{Key: key, Value: "[] (empty)", Origin: l.Origin, Note: note})
		}
		for _, p := range l.Patterns {
			out = append(out, Line{Key: key, Value: p.Glob, Origin: p.Origin, Note: note})
		}
	}
	boolean := func(key string, b Bool, note string) {
		if b.Set {
			out = append(out, Line{Key: key, Value: strconv.FormatBool(b.Value), Origin: b.Origin, Note: note})
		}
	}
	list("registries.allow", f.Registries.Allow, "a registry must match every file's allow list")
	list("registries.deny", f.Registries.Deny, "")
	boolean("sources.direct", f.Sources.Direct, "")
	list("sources.allowHosts", f.Sources.AllowHosts, "a source must match every file's allow list")
	list("sources.denyHosts", f.Sources.DenyHosts, "")
	if f.Scan.BlockAtSet {
		out = append(out, Line{Key: "scan.blockAt", Value: f.Scan.BlockAt.String(), Origin: f.Scan.BlockAtOrigin})
	}
	list("scan.block", f.Scan.Block, "")
	for _, a := range f.Scan.Accept {
		v := a.Rule
		if len(a.Skills) > 0 {
			v += " for " + strings.Join(a.Skills, ", ")
		}
		v += fmt.Sprintf(" (%s)", a.Reason)
		note := ""
		if f == e.Project {
			note = e.projectAcceptNote(a)
		}
		out = append(out, Line{Key: "scan.accept", Value: v, Origin: a.Origin, Note: note})
	}
	boolean("scan.allowRiskFlag", f.Scan.AllowRiskFlag, "")
	boolean("scan.acceptFromProject", f.Scan.AcceptFromProject, "")
	boolean("capabilities.required", f.Capabilities.Required, "")
	list("capabilities.deny", f.Capabilities.Deny, "")
	return out
}

// projectAcceptNote says how the user's policy limits a project
// acceptance, or "".
func (e *Effective) projectAcceptNote(a Accept) string {
	if !e.projectAccepts() {
		return "ignored: the user's policy sets scan.acceptFromProject to false"
	}
	var blocked []string
	for _, r := range scan.Rules() {
		if matchName(a.Rule, r.ID) && e.userBlocks(r) {
			blocked = append(blocked, r.ID)
		}
	}
	if len(blocked) > 0 {
		return "not for " + strings.Join(blocked, ", ") + ": the user's policy blocks them"
	}
	return ""
}
