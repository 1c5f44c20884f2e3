package resolve

// The stable codes of the errors and warnings this package raises,
// documented in docs/errors.md. Codes are append-only: a code keeps its
// meaning once released.
const (
	// CodeSkillNotFound reports that no registry publishes a requested or
	// required name.
	CodeSkillNotFound = "ASK_SKILL_NOT_FOUND"
	// CodeVersionNotFound reports that a name is published, but no eligible
	// version satisfies a range on it.
	CodeVersionNotFound = "ASK_VERSION_NOT_FOUND"
	// CodeDependencyConflict reports that the ranges on one name cannot all be
	// met.
	CodeDependencyConflict = "ASK_DEPENDENCY_CONFLICT"
	// CodeDependencyCycle reports that every choice of versions depends on
	// itself.
	CodeDependencyCycle = "ASK_DEPENDENCY_CYCLE"
	// CodeResolutionLimit reports that the search ran out of backtracking steps
	// (Options.MaxSteps).
	CodeResolutionLimit = "ASK_RESOLUTION_LIMIT"
	// CodeDependencyRangeInvalid reports that a published version declares a
	// range that does not parse.
	CodeDependencyRangeInvalid = "ASK_DEPENDENCY_RANGE_INVALID"
	// CodeReferenceInvalid reports that a reference is not
	// "[registry:]name[@range]".
	CodeReferenceInvalid = "ASK_REFERENCE_INVALID"
	// CodeUsage reports options that cannot go together: WithSuggests with
	// NoDeps, or WithSuggests without requests.
	CodeUsage = "ASK_USAGE"
	// CodeLockInvalid reports that skills.lock cannot be read.
	CodeLockInvalid = "ASK_LOCK_INVALID"
	// CodeLockUnsupported reports that skills.lock has a newer lockfileVersion.
	CodeLockUnsupported = "ASK_LOCK_UNSUPPORTED"

	// CodeSuggestionNotFound is a Warning: a suggested skill no registry
	// publishes was skipped.
	CodeSuggestionNotFound = "ASK_SUGGESTION_NOT_FOUND"
	// CodeOptionalDependencySkipped is a Warning: an optional dependency that
	// cannot be met was skipped.
	CodeOptionalDependencySkipped = "ASK_OPTIONAL_DEPENDENCY_SKIPPED"
	// CodeVersionDeprecated is a Warning: the plan selects a deprecated
	// version.
	CodeVersionDeprecated = "ASK_VERSION_DEPRECATED"
)

// Error is a user-facing resolution or lock-file problem: a stable ASK_*
// code, a one-line cause, lines of detail (requirement chains, the
// versions that exist) and the next actions to try.
//
// The CLI finds it with errors.As, reads it through the ErrorCode,
// ErrorDetail and ErrorTry methods and maps the code to an exit status.
type Error struct {
	// Code is the stable ASK_* identifier, one of the Code constants.
	Code string
	// Message is the one-line cause, e.g. `Version conflict for "java-basics"`.
	Message string
	// Detail holds further lines of explanation, one fact per line and
	// without indentation: the requirement chains, the published versions.
	Detail []string
	// Try lists the next actions, one command or instruction each.
	Try []string
	// Err is the underlying error, if any.
	Err error
}

// Error returns the message and, when there is one, ": " and the
// underlying error. Detail lines are not part of it: they are read with
// ErrorDetail.
func (e *Error) Error() string {
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

// Is reports whether target is ErrNotFound and e is an ASK_SKILL_NOT_FOUND
// error, so that errors.Is(err, ErrNotFound) holds for a resolution that
// failed on a name no registry publishes.
func (e *Error) Is(target error) bool {
	return target == ErrNotFound && e.Code == CodeSkillNotFound
}

// ErrorCode returns the stable ASK_* code.
func (e *Error) ErrorCode() string { return e.Code }

// ErrorDetail returns the lines that explain the cause.
func (e *Error) ErrorDetail() []string { return e.Detail }

// ErrorTry returns the next actions to try.
func (e *Error) ErrorTry() []string { return e.Try }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }
