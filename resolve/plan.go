package resolve

import (
	"strings"
)

// Role says why a skill is in a Plan.
type Role string

const (
	// RoleRequested marks a skill the user named. A name that is both
	// requested and depended on is requested.
	RoleRequested Role = "requested"
	// RoleSuggested marks a direct suggestion of a requested skill, added
	// by Options.WithSuggests. A suggested name that is also a dependency
	// is suggested: the user asked for it explicitly through the flag.
	RoleSuggested Role = "suggested"
	// RoleDependency marks a skill installed only because another one in
	// the plan requires it (or optionally requires it).
	RoleDependency Role = "dependency"
)

// Pin is the version and registry skills.lock records for a name.
type Pin struct {
	Version  string
	Registry string
}

// Options tune one resolution.
type Options struct {
	// Pins are the versions recorded in skills.lock. A bare request for a
	// pinned name resolves to exactly the pinned version; any other pinned
	// name keeps its pinned version when that version satisfies every
	// constraint on it. A pin's registry is where its name is looked up,
	// unless a qualified request names another registry. `update` passes
	// no pins for the names it moves.
	Pins map[string]Pin
	// WithSuggests resolves the requested skills first, then adds the
	// direct suggestions of their selected versions as extra requests,
	// with the requested skills frozen at their selected versions and
	// registries.
	WithSuggests bool
	// NoDeps selects only the requested skills, ignoring their
	// dependencies. It cannot be combined with WithSuggests.
	NoDeps bool
	// MaxSteps bounds the backtracking search: the number of rejected
	// candidate versions plus undone choices. Zero means 10,000.
	MaxSteps int
	// Parallelism is how many Source calls may run at once while the
	// resolver prefetches versions and requirements it will probably need.
	// Zero means 8; 1 turns prefetching off.
	Parallelism int
}

// DefaultMaxSteps is the backtracking budget used when Options.MaxSteps
// is zero.
const DefaultMaxSteps = 10000

// Plan is the outcome of a resolution: every selected skill, sorted by
// name, and the warnings met on the way.
type Plan struct {
	Skills   []Selection `json:"skills"`
	Warnings []Warning   `json:"warnings"`
}

// Selection is one skill chosen for installation.
type Selection struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	// Registry is the registry that owns the name (the one that answered).
	Registry string `json:"registry"`
	Role     Role   `json:"role"`
	// Deprecated reports that the selected version is deprecated, which
	// happens only when a request, a dependency or a lock pin names it
	// exactly.
	Deprecated bool `json:"deprecated,omitempty"`
	// Dependencies maps the name of each direct dependency (including
	// optional ones that resolved) to its selected version. It is empty
	// under Options.NoDeps.
	Dependencies map[string]string `json:"dependencies"`
}

// Warning is a problem that did not stop the resolution, such as an
// optional dependency that was skipped.
type Warning struct {
	// Code is the stable ASK_* identifier of the warning.
	Code string `json:"code"`
	// Message states what happened.
	Message string `json:"message"`
	// Fix says what to do about it, when anything should be done.
	Fix string `json:"fix,omitempty"`
}

// String renders the warning as "CODE message".
func (w Warning) String() string { return w.Code + " " + w.Message }

// Lookup returns the selection for name and whether the plan has one.
func (p *Plan) Lookup(name string) (Selection, bool) {
	for _, s := range p.Skills {
		if s.Name == name {
			return s, true
		}
	}
	return Selection{}, false
}

// String renders the plan one skill per line as
// "name@version registry role", followed by "  -> dep@version" lines.
func (p *Plan) String() string {
	var b strings.Builder
	for _, s := range p.Skills {
		b.WriteString(s.Name + "@" + s.Version + " " + s.Registry + " " + string(s.Role) + "\n")
		for _, d := range sortedKeys(s.Dependencies) {
			b.WriteString("  -> " + d + "@" + s.Dependencies[d] + "\n")
		}
	}
	for _, w := range p.Warnings {
		b.WriteString("warning " + w.String() + "\n")
	}
	return b.String()
}
