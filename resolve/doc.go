// Package resolve chooses the versions of skills to install, and reads and
// writes skills.lock.
//
// It is pure: it reads registries only through the two-method Source
// interface, and touches no file system, clock or environment. Every call
// that may block takes a context.
//
// # Resolution
//
// Resolve takes requests ("[registry:]name[@range]", see ParseReference)
// and returns a Plan: one Selection per skill, sorted by name, each with
// its version, the registry that owns it, its Role (requested, suggested
// or dependency) and its direct dependencies. The same requests, pins and
// registry contents give the same plan byte for byte, whatever the order
// of the requests and of the versions a Source lists.
//
// Per name, every range placed on it by a request or a dependency must
// hold; the highest published version satisfying all of them is chosen.
// Deprecated versions are chosen only when a range names that exact version
// ("1.2.3" or "=1.2.3") or the lock pins it. Ranges follow Masterminds
// semver: "^1.2", "~1.1.0", ">=1 <2", "1.x", "1.2" (= 1.2.x), "a || b";
// "latest" and "" mean any version. Prereleases are chosen only by a range
// that itself names a prerelease ("^1.1.0-beta", ">=2.0.0-0"), and such a
// range admits every prerelease inside its bounds, not only those of the
// same major.minor.patch as npm does. Each range opts in on its own: a
// prerelease must be admitted by every range on its name.
//
// The search is breadth-first from the requests, names sorted at each
// fan-out, and each name takes its lock pin or else its highest eligible
// version: the greedy resolution of DESIGN §7, whose result stands whenever
// it succeeds. When a choice leads to a conflict, the search backtracks:
// it first guesses a consistent version per name (see narrow.go), then
// tries candidates in order with conflict-directed backjumping, skipping
// versions that can never work (a dependency published nowhere). Any graph
// with a solution gets one, within Options.MaxSteps backtracking steps
// (ASK_RESOLUTION_LIMIT beyond). Without one, the error explains the first
// conflict the greedy pass met, with the full chain of every range:
//
//	Version conflict for "java-basics"
//	  you requested java-performance@^1 → java-performance@1.0.0 requires java-basics ^1.2.0
//	  you requested jvm-gc-tuning@~2.1.0 → jvm-gc-tuning@2.1.0 requires java-basics ~1.1.0
//	  No published version satisfies both.
//	  Published versions: 1.1.0, 1.2.0, 1.2.3
//
// A dependency cycle among the chosen versions fails, rendered
// "a → b → c → a", unless other versions avoid it. Optional dependencies
// are installed when they fit and otherwise skipped with a warning
// (ASK_OPTIONAL_DEPENDENCY_SKIPPED), never fatal.
//
// # Lock pins
//
// Options.Pins carries skills.lock. A bare request (no range) for a pinned
// name resolves to exactly the pinned version; any other pinned name keeps
// its pinned version when that version satisfies every range on it. A
// request with an explicit range ignores the pinned version of its name.
// The pinned registry is where the name is looked up, so reordering the
// configured registries cannot redirect a locked install; only a
// qualified request ("company:name") overrides it.
//
// # Suggestions
//
// With Options.WithSuggests the requested skills are resolved first; then
// the direct suggestions of their selected versions (not those of
// dependencies, nor of suggestions) become extra requests, with the
// requested skills frozen at their selected versions and registries, and
// the whole is resolved again with ordinary dependencies and lock pins. A
// suggestion that conflicts with a frozen request is an error, not a
// reason to switch the request's version; a suggestion no registry
// publishes is a warning (ASK_SUGGESTION_NOT_FOUND). Suggestions are not
// dependency edges: reciprocal suggestions, and a suggested skill that
// depends on its origin, are fine. WithSuggests with NoDeps is a usage
// error (ASK_USAGE).
//
// # Errors
//
// Every failure this package raises is an *Error: a stable code (the Code
// constants), a one-line Message, Detail lines (requirement chains, the
// published versions, every problem of a lock file) and Try, the next
// actions. Error() returns the message only; the CLI reads the rest
// through the ErrorCode, ErrorDetail and ErrorTry methods and renders it.
// Resolve fails with ASK_SKILL_NOT_FOUND (errors.Is(err, ErrNotFound)
// holds), ASK_VERSION_NOT_FOUND, ASK_DEPENDENCY_CONFLICT,
// ASK_DEPENDENCY_CYCLE, ASK_RESOLUTION_LIMIT, ASK_DEPENDENCY_RANGE_INVALID,
// ASK_REFERENCE_INVALID or ASK_USAGE; ParseReference with
// ASK_REFERENCE_INVALID; DecodeLock with ASK_LOCK_INVALID or
// ASK_LOCK_UNSUPPORTED. A Source failure other than ErrNotFound, and a
// cancelled context, come back wrapped, not as *Error. Plan.Warnings carry
// ASK_SUGGESTION_NOT_FOUND, ASK_OPTIONAL_DEPENDENCY_SKIPPED and
// ASK_VERSION_DEPRECATED.
//
// # Lock file
//
// DecodeLock and Lock.Encode read and write skills.lock (DESIGN §6):
// a sorted map of skills with a fixed key order, so that an unchanged lock
// re-encodes to the same bytes and changing one skill changes only its
// block.
package resolve
