package skillset

// Codes the use cases raise; their exit codes are in the CLI's table and
// every one is documented in docs/errors.md.
const (
	CodeJournalInvalid = "ASK_JOURNAL_INVALID"
	CodeLockFrozen     = "ASK_LOCK_FROZEN"
	CodeSkillRequired  = "ASK_SKILL_REQUIRED"
)
