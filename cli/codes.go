package cli

// Codes the command files raise themselves; the packages they call declare
// their own. Exit codes are in exitcodes.go, meanings in docs/errors.md.
const (
	// CodeBumpUndetermined is report bump --fail-on-undetermined's refusal.
	CodeBumpUndetermined    = "ASK_BUMP_UNDETERMINED"
	CodeCatalogStale        = "ASK_CATALOG_STALE"
	CodeDoctorFailed        = "ASK_DOCTOR_FAILED"
	CodeHookNotConfigured   = "ASK_HOOK_NOT_CONFIGURED"
	CodeInterrupted         = "ASK_INTERRUPTED"
	CodeRegistryCredentials = "ASK_REGISTRY_CREDENTIALS"
	CodeReleasesUnavailable = "ASK_RELEASES_UNAVAILABLE"
	CodeSelfUpdateFailed    = "ASK_SELF_UPDATE_FAILED"
	CodeSelfUpdateManual    = "ASK_SELF_UPDATE_MANUAL"
	CodeTargetExists        = "ASK_TARGET_EXISTS"
)
