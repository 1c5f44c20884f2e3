package source

// Codes this package raises, besides askerr's; their exit codes are in the
// CLI's table and every one is documented in docs/errors.md.
const (
	CodeSourceAmbiguous     = "ASK_SOURCE_AMBIGUOUS"
	CodeSourceAuth          = "ASK_SOURCE_AUTH"
	CodeSourceInvalid       = "ASK_SOURCE_INVALID"
	CodeSourceNotFound      = "ASK_SOURCE_NOT_FOUND"
	CodeSourceTooLarge      = "ASK_SOURCE_TOO_LARGE"
	CodeSourceTooManySkills = "ASK_SOURCE_TOO_MANY_SKILLS"
	CodeSourceUnavailable   = "ASK_SOURCE_UNAVAILABLE"
)
