package source

// Codes this package raises, besides askerr's; their exit codes are in the
// CLI's table and every one is documented in docs/errors.md.
const (
	CodeSourceAmbiguous = "ASK_SOURCE_AMBIGUOUS"
	CodeSourceAuth      = "ASK_SOURCE_AUTH"
	// CodeSourceDuplicateSkill: folders of one source offer skills of one
	// name with different contents, and the name alone was used to pick.
	CodeSourceDuplicateSkill = "ASK_SOURCE_DUPLICATE_SKILL"
	CodeSourceInvalid        = "ASK_SOURCE_INVALID"
	CodeSourceNotFound       = "ASK_SOURCE_NOT_FOUND"
	CodeSourceTooLarge       = "ASK_SOURCE_TOO_LARGE"
	CodeSourceTooManySkills  = "ASK_SOURCE_TOO_MANY_SKILLS"
	CodeSourceUnavailable    = "ASK_SOURCE_UNAVAILABLE"
	// CodeSourceUnsupported: the source is reachable but cannot be
	// installed from as it is: an MCP server that does not declare the
	// skills extension, or a skill whose files are "dynamic" and so cannot
	// be verified.
	CodeSourceUnsupported = "ASK_SOURCE_UNSUPPORTED"
	// CodeSourceCommandUnapproved: skills.lock records an mcp: command,
	// and the user has not allowed restoring or updating from it to run
	// it (AGENT_SKILLS_ALLOW_MCP_COMMANDS=1).
	CodeSourceCommandUnapproved = "ASK_SOURCE_COMMAND_UNAPPROVED"
)
