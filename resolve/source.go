package resolve

import (
	"context"
	"errors"
)

// ErrNotFound is the error a Source returns, possibly wrapped, when no
// registry it consults publishes the requested name. The resolver turns it
// into ASK_SKILL_NOT_FOUND for a required skill and into a warning for an
// optional dependency or a suggestion.
var ErrNotFound = errors.New("skill not found")

// Source answers the two questions resolution needs. Implementations may do
// slow network I/O: every call takes a context, and the resolver calls a
// Source from several goroutines at once, so implementations must be safe
// for concurrent use. Within one Resolve call each question is asked at most
// once, so a Source that changes while a resolution runs still yields one
// consistent view.
type Source interface {
	// Versions lists the published versions of name, in any order.
	// registry "" means "by precedence": the first configured registry that
	// publishes name answers. A non-empty registry restricts the lookup to
	// that registry. Owner names the registry that answered. A name no
	// consulted registry publishes yields an error wrapping ErrNotFound.
	Versions(ctx context.Context, registry, name string) (owner string, versions []Published, err error)
	// Requirements returns the dependencies, optional dependencies and
	// suggestions declared by one published version of name in registry.
	Requirements(ctx context.Context, registry, name, version string) (Requirements, error)
}

// Published is one version of a skill as its registry lists it.
type Published struct {
	// Version is a strict semantic version such as "1.2.3". Entries that do
	// not parse as strict semver are ignored.
	Version string
	// Deprecated versions stay resolvable for lock files and exact
	// requests but are never picked for a range.
	Deprecated bool
}

// Requirements are the relations one version of a skill declares.
type Requirements struct {
	// Dependencies must all be installed alongside the skill.
	Dependencies []Constraint
	// Optional dependencies are installed when they resolve, and skipped
	// with a warning when they are missing or conflict.
	Optional []Constraint
	// Suggests names companions without version ranges; they are installed
	// only on request (Options.WithSuggests) and never become dependency
	// edges.
	Suggests []string
}

// Constraint is a dependency on a name within a semver range such as
// "^1.2.0", "~1.1", ">=1 <2", "1.x" or an exact "1.2.3". An empty range
// means any version.
type Constraint struct {
	Name  string
	Range string
}
