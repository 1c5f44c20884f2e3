package maintain

// Codes this package raises, besides askerr's; their exit codes are in the
// CLI's table and every one is documented in docs/errors.md.
const (
	// CodeFindings: audit --fail-on found a finding at or above its level.
	CodeFindings = "ASK_COLLECTION_FINDINGS"
	// CodeChanged: the collection is no longer in the state a plan is
	// bound to (or changed while it was audited).
	CodeChanged = "ASK_COLLECTION_CHANGED"
	// CodeDocumentInvalid: an audit or plan file is not one this
	// agent-skills wrote (malformed, another schema, inconsistent).
	CodeDocumentInvalid = "ASK_COLLECTION_DOCUMENT_INVALID"
	// CodeMismatch: a plan names another collection than the one given.
	CodeMismatch = "ASK_COLLECTION_MISMATCH"
	// CodeEvolveFailed: applying a plan failed after it started writing;
	// the catalog was restored (or the receipt says why not).
	CodeEvolveFailed = "ASK_COLLECTION_EVOLVE_FAILED"
)

// FaultAfterCatalogWrite is the fault-injection point Apply passes to its
// Fault hook right after the synchronised catalog is written, before it is
// verified: a failure there must restore the preimage.
const FaultAfterCatalogWrite = "evolve-after-catalog-write"
