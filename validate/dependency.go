package validate

import (
	"fmt"
	"strings"
)

// Requirement is one entry of dependencies or optionalDependencies: a
// package name and the range of versions it accepts.
type Requirement struct {
	// Name is the required package's name.
	Name string
	// Range is a version constraint such as "^1.2.0".
	Range string
}

// CheckDependencies checks the dependencies and optionalDependencies of the
// package called self: every name valid, every range well-formed (see
// CheckRange), no entry naming self, and no name listed twice, within one
// list or across both. Every problem has code ASK_DEPENDENCY_INVALID and a
// field path such as "dependencies[1].version" or
// "optionalDependencies[0].name".
func CheckDependencies(self string, deps, optional []Requirement) []FieldProblem {
	var out []FieldProblem
	seen := map[string]string{}
	check := func(list string, reqs []Requirement) {
		for i, r := range reqs {
			at := fmt.Sprintf("%s[%d]", list, i)
			if r.Name == "" {
				out = append(out, depProblem(at+".name", fmt.Sprintf("%s has no name", at), "add the name of the package it requires"))
				continue
			}
			if err := CheckName(r.Name); err != nil {
				p := err.(*Problem)
				out = append(out, depProblem(at+".name", fmt.Sprintf("%s: %s", at, p.Message), p.Fix))
				continue
			}
			if r.Name == self {
				out = append(out, depProblem(at+".name", fmt.Sprintf("%s names the package itself (%q)", at, self), "remove the entry; a package cannot depend on itself"))
				continue
			}
			if prev, ok := seen[r.Name]; ok {
				out = append(out, depProblem(at+".name", fmt.Sprintf("%s repeats %q, already required by %s", at, r.Name, prev),
					"keep one entry per package; to widen the accepted versions combine the ranges, e.g. \">=1.2.0 <3.0.0\""))
			} else {
				seen[r.Name] = at
			}
			if err := CheckRange(r.Range); err != nil {
				p := err.(*Problem)
				out = append(out, depProblem(at+".version", fmt.Sprintf("%s (%s): %s", at, r.Name, p.Message), p.Fix))
			}
		}
	}
	check("dependencies", deps)
	check("optionalDependencies", optional)
	return out
}

// depProblem builds an ASK_DEPENDENCY_INVALID field problem.
func depProblem(field, msg, fix string) FieldProblem {
	return FieldProblem{Field: field, Problem: &Problem{Code: CodeDependencyInvalid, Message: msg, Fix: fix}}
}

// CheckSuggests checks the suggests list of the package called self: each
// entry a bare package name (no version range: suggestions are resolved by
// ordinary registry resolution), valid, not self, and not repeated. Every
// problem has code ASK_SUGGESTS_INVALID and a field path "suggests[i]".
func CheckSuggests(self string, suggests []string) []FieldProblem {
	var out []FieldProblem
	seen := map[string]int{}
	for i, s := range suggests {
		at := fmt.Sprintf("suggests[%d]", i)
		add := func(msg, fix string) {
			out = append(out, FieldProblem{Field: at, Problem: &Problem{Code: CodeSuggestsInvalid, Message: msg, Fix: fix}})
		}
		if name, ok := splitRange(s); ok {
			add(fmt.Sprintf("%s %q carries a version range; suggestions are bare names", at, s),
				fmt.Sprintf("write %q; to require a version, list it in dependencies or optionalDependencies", name))
			continue
		}
		if err := CheckName(s); err != nil {
			p := err.(*Problem)
			add(fmt.Sprintf("%s: %s", at, p.Message), p.Fix)
			continue
		}
		if s == self {
			add(fmt.Sprintf("%s names the package itself (%q)", at, s), "remove the entry")
			continue
		}
		if j, ok := seen[s]; ok {
			add(fmt.Sprintf("%s repeats %q, already at suggests[%d]", at, s, j), "remove the repeated entry")
			continue
		}
		seen[s] = i
	}
	return out
}

// splitRange recognises a name followed by a version range, in the forms
// "name@^1.0.0", "name ^1.0.0" and "name>=1", returning the name part.
func splitRange(s string) (name string, ok bool) {
	if i := strings.IndexAny(s, "@ ^~><="); i > 0 {
		name = strings.TrimSpace(s[:i])
		rng := strings.TrimSpace(strings.TrimPrefix(s[i:], "@"))
		if rng != "" && CheckName(name) == nil {
			return name, true
		}
	}
	return "", false
}
