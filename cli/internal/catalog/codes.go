package catalog

// Codes this package raises, besides askerr's; their exit codes are in the
// CLI's table and every one is documented in docs/errors.md.
const (
	CodeCatalogNotFound   = "ASK_CATALOG_NOT_FOUND"
	CodeCatalogReadDenied = "ASK_CATALOG_READ_DENIED"
)
