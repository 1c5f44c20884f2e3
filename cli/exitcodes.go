package cli

import "github.com/agent-skills/agent-skills/cli/internal/askerr"

// Exit codes of the design's table.
const (
	exitOK         = 0
	exitFailure    = 1
	exitUsage      = 2
	exitValidation = 3
	exitResolution = 4
	exitIntegrity  = 5
	exitNoAgent    = 6

	// exitInterrupted is the one exit code outside the design's table:
	// 128 + SIGINT, the shell's convention for a process ended by Ctrl-C.
	exitInterrupted = 130
)

// exitCodes maps every ASK_* code whose exit code is not 1 to its exit code.
// docs/errors.md documents the same numbers; TestErrorCodesDocumented keeps
// the two in step.
var exitCodes = map[string]int{
	// usage
	"ASK_USAGE":                   exitUsage,
	"ASK_REFERENCE_INVALID":       exitUsage,
	"ASK_AGENT_UNKNOWN":           exitUsage,
	"ASK_CONFIG_INVALID":          exitUsage,
	"ASK_TARGET_EXISTS":           exitUsage,
	"ASK_LOCK_INVALID":            exitUsage,
	"ASK_LOCK_UNSUPPORTED":        exitUsage,
	"ASK_REGISTRY_CONFIG_INVALID": exitUsage,
	"ASK_REGISTRY_UNKNOWN":        exitUsage,
	"ASK_SOURCE_INVALID":          exitUsage,
	"ASK_SOURCE_AMBIGUOUS":        exitUsage,
	"ASK_SOURCE_DUPLICATE_SKILL":  exitUsage,

	// credentials (issue 11, B15)
	"ASK_REGISTRY_CREDENTIALS": exitUsage,

	// custom agents and install --dir (issue 16)
	"ASK_CUSTOM_AGENT_INVALID": exitUsage,
	"ASK_AGENT_ROOT_CONFLICT":  exitUsage,

	// setup: host settings files and receipts (issue 19)
	"ASK_SETUP_FILE_INVALID":    exitUsage,
	"ASK_SETUP_CONFLICT":        exitUsage,
	"ASK_SETUP_RECEIPT_INVALID": exitUsage,

	// a project's skills-registries.json (issue 14)
	"ASK_PROJECT_REGISTRIES_INVALID": exitUsage,

	// validation
	"ASK_VALIDATION_FAILED":           exitValidation,
	"ASK_MANIFEST_INVALID":            exitValidation,
	"ASK_MANIFEST_SCHEMA_UNSUPPORTED": exitValidation,
	"ASK_MANIFEST_UNKNOWN_KEY":        exitValidation,
	"ASK_MANIFEST_MISSING":            exitValidation,
	"ASK_REQUIRED_FIELD":              exitValidation,
	"ASK_FRONTMATTER_INVALID":         exitValidation,
	"ASK_FRONTMATTER_FIELD_INVALID":   exitValidation,
	"ASK_FRONTMATTER_UNKNOWN_KEY":     exitValidation,
	"ASK_WORKFLOW_META_INVALID":       exitValidation,
	"ASK_ENTRYPOINT_MISSING":          exitValidation,
	"ASK_ENTRYPOINT_NOT_LISTED":       exitValidation,
	"ASK_FILES_MISSING":               exitValidation,
	"ASK_FILES_UNSAFE_PATH":           exitValidation,
	"ASK_FILES_DUPLICATE":             exitValidation,
	"ASK_NAME_INVALID":                exitValidation,
	"ASK_NAME_MISMATCH":               exitValidation,
	"ASK_KIND_UNKNOWN":                exitValidation,
	"ASK_VERSION_INVALID":             exitValidation,
	"ASK_VERSION_MISMATCH":            exitValidation,
	"ASK_LICENSE_INVALID":             exitValidation,
	"ASK_DEPENDENCY_INVALID":          exitValidation,
	"ASK_SUGGESTS_INVALID":            exitValidation,
	"ASK_OVERRIDE_KEY_UNKNOWN":        exitValidation,
	"ASK_LINK_BROKEN":                 exitValidation,
	"ASK_LINK_OUTSIDE_PACKAGE":        exitValidation,
	"ASK_AGENT_CONSTRAINT":            exitValidation,
	"ASK_PUBLISH_VERSION_EXISTS":      exitValidation,
	"ASK_PUBLISH_VERSION_NOT_NEWER":   exitValidation,
	"ASK_CATALOG_STALE":               exitValidation,
	"ASK_HOOK_NOT_CONFIGURED":         exitValidation,

	// resolution
	"ASK_SKILL_NOT_FOUND":          exitResolution,
	"ASK_VERSION_NOT_FOUND":        exitResolution,
	"ASK_DEPENDENCY_CONFLICT":      exitResolution,
	"ASK_DEPENDENCY_CYCLE":         exitResolution,
	"ASK_RESOLUTION_LIMIT":         exitResolution,
	"ASK_DEPENDENCY_RANGE_INVALID": exitResolution,
	"ASK_CATALOG_NOT_FOUND":        exitResolution,
	"ASK_SOURCE_NOT_FOUND":         exitResolution,
	"ASK_SKILL_REQUIRED":           exitResolution,

	// warnings: reported, never returned as the command's error
	"ASK_SUGGESTION_NOT_FOUND":        exitOK,
	"ASK_OPTIONAL_DEPENDENCY_SKIPPED": exitOK,
	"ASK_VERSION_DEPRECATED":          exitOK,

	// integrity and security
	"ASK_INTEGRITY_MISMATCH":     exitIntegrity,
	"ASK_PACKAGE_UNSAFE_FILE":    exitIntegrity,
	"ASK_PACKAGE_TOO_LARGE":      exitIntegrity,
	"ASK_ARCHIVE_UNSAFE":         exitIntegrity,
	"ASK_ARCHIVE_TOO_LARGE":      exitIntegrity,
	"ASK_REGISTRY_INVALID_INDEX": exitIntegrity,
	"ASK_CATALOG_READ_DENIED":    exitIntegrity,
	"ASK_SOURCE_TOO_LARGE":       exitIntegrity,
	// agent folders and their .agent-skills metadata (issue 11, B02/B03)
	"ASK_ROOT_UNSAFE": exitIntegrity,

	// local sources and portability (issue 11)
	"ASK_SOURCE_TOO_MANY_SKILLS": exitIntegrity,

	// a lock that would move a registry's name (issue 14)
	"ASK_LOCK_REGISTRY_MISMATCH": exitIntegrity,

	// the user's and the project's policy (issue 17)
	"ASK_POLICY_VIOLATION": exitIntegrity,
	"ASK_POLICY_INVALID":   exitUsage,

	// content scanning (issue 17): install, update, restore, publish and
	// validate --strict refuse; audit's findings
	"ASK_CONTENT_RISK":   exitIntegrity,
	"ASK_AUDIT_FINDINGS": exitIntegrity,

	// a plugin submission that would run something (issue 19)
	"ASK_PLUGIN_NOT_INERT": exitIntegrity,

	// the evidence store (issue 20); ASK_EVIDENCE_STORE and
	// ASK_EVIDENCE_BUDGET are general failures (exit 1)
	"ASK_EVIDENCE_INVALID":    exitUsage,
	"ASK_EVIDENCE_CONFLICT":   exitIntegrity,
	"ASK_EVIDENCE_SCHEMA":     exitIntegrity,
	"ASK_EVIDENCE_SCHEMA_OLD": exitIntegrity,

	// snapshots (issue 21)
	"ASK_SNAPSHOT_INVALID":     exitValidation,
	"ASK_SNAPSHOT_DRIFT":       exitIntegrity,
	"ASK_SNAPSHOT_DEST_UNSAFE": exitIntegrity,

	// the catalog index across collections (issue 21); ASK_CATALOG_INDEX_STORE
	// and ASK_CATALOG_INDEX_NOT_FOUND are general failures (exit 1)
	"ASK_CATALOG_INDEX_PLACE":   exitUsage,
	"ASK_CATALOG_INDEX_SOURCE":  exitUsage,
	"ASK_CATALOG_INDEX_CATALOG": exitValidation,
	"ASK_CATALOG_INDEX_SCHEMA":  exitIntegrity,

	// collection audit, plan and evolve (issue 21); ASK_COLLECTION_EVOLVE_FAILED
	// is a general failure (exit 1)
	"ASK_COLLECTION_FINDINGS":         exitValidation,
	"ASK_COLLECTION_CHANGED":          exitIntegrity,
	"ASK_COLLECTION_DOCUMENT_INVALID": exitUsage,
	"ASK_COLLECTION_MISMATCH":         exitUsage,

	// bump reports (issue 21)
	"ASK_BUMP_REVIEW_INVALID":    exitValidation,
	"ASK_BUMP_INPUT_INVALID":     exitUsage,
	"ASK_BUMP_UNDETERMINED":      exitValidation,
	"ASK_PUBLISH_BUMP_TOO_SMALL": exitValidation,

	// SSH signatures of registry indexes and packages (issue 22)
	"ASK_SIGNATURE_MISSING": exitIntegrity,
	"ASK_SIGNATURE_INVALID": exitIntegrity,
	"ASK_TRUST_KEY_INVALID": exitUsage,
	"ASK_SIGN_KEY_INVALID":  exitUsage,

	// agents
	"ASK_NO_AGENT": exitNoAgent,

	// interrupted by SIGINT or SIGTERM
	"ASK_INTERRUPTED": exitInterrupted,

	// upstream provenance (issue 21); ASK_UPSTREAM_CHANGED is exit 1
	"ASK_UPSTREAM_LOCK_INVALID": exitUsage,
	"ASK_UPSTREAM_INVALID":      exitUsage,
	"ASK_UPSTREAM_UNCHECKED":    exitResolution,
}

// exitCodeOf maps an error to the process exit code of the design's table.
func exitCodeOf(err error) int {
	if err == nil {
		return exitOK
	}
	if n, ok := exitCodes[askerr.CodeOf(err)]; ok {
		return n
	}
	return exitFailure
}
