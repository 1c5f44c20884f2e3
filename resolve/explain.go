package resolve

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// maxListedVersions caps the "Published versions" line of a conflict.
const maxListedVersions = 12

// constraintText renders a dependency as "name range", or just "name"
// when any version will do.
func constraintText(c Constraint) string {
	if normRange(c.Range) == "*" {
		return c.Name
	}
	return c.Name + " " + strings.TrimSpace(c.Range)
}

// publishedLine lists the versions of e, lowest first, marking deprecated
// ones, and keeping the newest maxListedVersions.
func publishedLine(e *catalogEntry) string {
	if len(e.vers) == 0 {
		return fmt.Sprintf("%q has no published versions.", e.name)
	}
	var list []string
	for i := len(e.vers) - 1; i >= 0; i-- {
		v := e.vers[i].raw
		if e.vers[i].deprecated {
			v += " (deprecated)"
		}
		list = append(list, v)
	}
	prefix := ""
	if extra := len(list) - maxListedVersions; extra > 0 {
		list = list[extra:]
		prefix = fmt.Sprintf("%d older, ", extra)
	}
	return "Published versions: " + prefix + strings.Join(list, ", ")
}

// conflictError explains why no version of m can satisfy its constraints
// plus extra: ASK_VERSION_NOT_FOUND when extra alone matches nothing,
// ASK_DEPENDENCY_CONFLICT otherwise.
func (s *solver) conflictError(m *node, extra pconstraint) *Error {
	name := m.e.name
	alone := &node{e: m.e, level: -1, sel: -1}
	if !anyAllowed(alone, extra.m, false) {
		return versionNotFoundError(m.e, extra.why)
	}
	all := append(slices.Clip(m.cons), extra)
	var lines []string
	for _, c := range all {
		line := c.why.render()
		if !slices.Contains(lines, line) {
			lines = append(lines, line)
		}
	}
	var fitting []string
	probe := &node{e: m.e, cons: all, level: -1, sel: -1}
	for i := range m.e.vers {
		if allowed(probe, i, nil, false) {
			fitting = append(fitting, m.e.vers[i].raw)
		}
	}
	switch {
	case len(fitting) > 0:
		slices.Reverse(fitting)
		lines = append(lines, fmt.Sprintf("The versions that satisfy all of these (%s) conflict with other requirements of the plan.", strings.Join(fitting, ", ")))
	case len(lines) == 2:
		lines = append(lines, "No published version satisfies both.")
	default:
		lines = append(lines, "No published version satisfies all of them.")
	}
	lines = append(lines, publishedLine(m.e))
	try := []string{fmt.Sprintf("agent-skills info %s to see available versions", name)}
	// A newer release of a skill that imposes one of the ranges may
	// relax it.
	newer := map[string]string{}
	for _, c := range all {
		if c.level < 0 {
			continue
		}
		p := s.queue[c.level]
		if p.sel < 0 {
			continue
		}
		for _, v := range p.e.vers {
			if !v.deprecated && !v.pre {
				if compareVersions(v.version(), p.e.vers[p.sel].version()) > 0 {
					newer[p.e.name] = v.raw
				}
				break
			}
		}
	}
	for _, p := range slices.Sorted(maps.Keys(newer)) {
		try = append(try, fmt.Sprintf("agent-skills install %s@^%s (newer versions may relax this)", p, newer[p]))
	}
	for _, c := range all {
		if name := c.why.lockedName(); name != "" {
			try = append(try, fmt.Sprintf("agent-skills update %s to move the version locked in skills.lock", name))
		}
	}
	return &Error{
		Code:    CodeDependencyConflict,
		Message: fmt.Sprintf("Version conflict for %q", name),
		Detail:  lines,
		Try:     slices.Compact(try),
	}
}

// versionNotFoundError explains a single range that no eligible version
// of e satisfies.
func versionNotFoundError(e *catalogEntry, why *step) *Error {
	try := []string{fmt.Sprintf("agent-skills info %s to see available versions", e.name)}
	if name := why.lockedName(); name != "" {
		try = append(try, fmt.Sprintf("agent-skills update %s to move the version locked in skills.lock", name))
	}
	return &Error{
		Code:    CodeVersionNotFound,
		Message: fmt.Sprintf("No matching version of %q", e.name),
		Detail: []string{
			why.render(),
			publishedLine(e),
			"Deprecated versions are used only when named exactly; prereleases only when the range names one.",
		},
		Try: try,
	}
}

// notFoundError explains a required name that no registry publishes. The
// Source's own not-found error is not wrapped: it says nothing this one
// does not, and Error.Is keeps errors.Is(err, ErrNotFound) true.
func notFoundError(name string, why *step) *Error {
	details := []string{fmt.Sprintf("No configured registry publishes %q.", name)}
	if why != nil {
		details = append(details, why.render())
	}
	return &Error{
		Code:    CodeSkillNotFound,
		Message: fmt.Sprintf("Skill %q not found", name),
		Detail:  details,
		Try: []string{
			fmt.Sprintf("agent-skills search %s to find similar names", name),
			"agent-skills registry list to check the configured registries",
		},
	}
}

// cycleError renders a dependency cycle as "a → b → c → a", starting at
// the name closest to the requests.
func cycleError(cyc []edge) *Error {
	start := 0
	for i, e := range cyc {
		if e.to.level >= 0 && (cyc[start].to.level < 0 || e.to.level < cyc[start].to.level) {
			start = i
		}
	}
	// Rotate so that the edge entering the first name comes last.
	rot := append(slices.Clone(cyc[start+1:]), cyc[:start+1]...)
	first := rot[len(rot)-1].to
	names := []string{first.e.name}
	details := []string{first.chain().render()}
	for _, e := range rot {
		names = append(names, e.to.e.name)
		details = append(details, e.why.label())
	}
	details = append(details, "A skill cannot depend on itself, directly or through others.")
	return &Error{
		Code:    CodeDependencyCycle,
		Message: "Dependency cycle: " + strings.Join(names, " → "),
		Detail:  details,
		Try: []string{
			fmt.Sprintf("agent-skills info %s to see its dependencies", first.e.name),
			"turn one dependency of the cycle into a suggestion (suggests: in skill.yaml)",
		},
	}
}

// limitError reports that the search ran out of backtracking budget.
func limitError(limit int, first *Error) *Error {
	e := &Error{
		Code:    CodeResolutionLimit,
		Message: fmt.Sprintf("Resolution gave up after %d backtracking steps", limit),
		Try: []string{
			"request exact versions for some skills (agent-skills install name@1.2.3) to narrow the search",
		},
	}
	if first != nil {
		e.Detail = append(e.Detail, "The first conflict met was:", first.Message)
		e.Detail = append(e.Detail, first.Detail...)
	}
	return e
}

// rangeError reports a dependency range that does not parse.
func rangeError(name, version string, d Constraint, err error) *Error {
	return &Error{
		Code:    CodeDependencyRangeInvalid,
		Message: fmt.Sprintf("%s@%s declares an invalid range %q for %s", name, version, d.Range, d.Name),
		Detail:  []string{err.Error()},
		Try: []string{
			fmt.Sprintf("request another version of %s, or ask its maintainers to fix the range", name),
		},
	}
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.SortedFunc(maps.Keys(m), cmp.Compare[string])
}
