package skillset

// Codes the use cases raise; their exit codes are in the CLI's table and
// every one is documented in docs/errors.md.
const (
	CodeIntegrityMismatch = "ASK_INTEGRITY_MISMATCH"
	CodeJournalInvalid    = "ASK_JOURNAL_INVALID"
	CodeLockFrozen        = "ASK_LOCK_FROZEN"
	CodeNotInstalled      = "ASK_NOT_INSTALLED"
	CodeRegistryUnknown   = "ASK_REGISTRY_UNKNOWN"
	CodeSkillRequired     = "ASK_SKILL_REQUIRED"
	CodeSourceNotFound    = "ASK_SOURCE_NOT_FOUND"
	CodeValidationFailed  = "ASK_VALIDATION_FAILED"
)
