package config

// Codes this package raises, besides askerr's; their exit codes are in the
// CLI's table and every one is documented in docs/errors.md.
const (
	CodeConfigInvalid            = "ASK_CONFIG_INVALID"
	CodeProjectRegistriesInvalid = "ASK_PROJECT_REGISTRIES_INVALID"
)
