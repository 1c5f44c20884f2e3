package publish

// Codes this package raises, besides askerr's; their exit codes are in the
// CLI's table and every one is documented in docs/errors.md.
const (
	CodePublishGitFailed       = "ASK_PUBLISH_GIT_FAILED"
	CodePublishGitIdentity     = "ASK_PUBLISH_GIT_IDENTITY"
	CodePublishIndexPatch      = "ASK_PUBLISH_INDEX_PATCH"
	CodePublishPathConflict    = "ASK_PUBLISH_PATH_CONFLICT"
	CodePublishVersionExists   = "ASK_PUBLISH_VERSION_EXISTS"
	CodePublishVersionNotNewer = "ASK_PUBLISH_VERSION_NOT_NEWER"
	// CodePublishBumpTooSmall is the refusal of a version step below what
	// the bump report against the target's latest version needs.
	CodePublishBumpTooSmall = "ASK_PUBLISH_BUMP_TOO_SMALL"
	// CodeContentRisk is publish's refusal of a package with content-scan
	// findings that would block its install (the install gate raises the
	// same code).
	CodeContentRisk = "ASK_CONTENT_RISK"
	// CodeTargetExists is registry init's refusal of a folder that is
	// already a registry (or, with --git, not empty); create raises the
	// same code.
	CodeTargetExists = "ASK_TARGET_EXISTS"
)
