package format

import "fmt"

// Limits bounds what Load accepts, so that a hostile package cannot exhaust
// memory or time. A zero field means "use the default" (see DefaultLimits).
type Limits struct {
	// MaxFiles is the most files a package may ship.
	MaxFiles int
	// MaxFileSize is the largest single file, in bytes.
	MaxFileSize int64
	// MaxTotalSize is the largest sum of all file sizes, in bytes.
	MaxTotalSize int64
	// MaxManifestSize is the largest skill.yaml, in bytes.
	MaxManifestSize int64
	// MaxEntrypointSize is the largest SKILL.md, COMMAND.md or WORKFLOW.js,
	// in bytes.
	MaxEntrypointSize int64
	// MaxPathLength is the longest package-relative path, in bytes.
	MaxPathLength int
	// MaxDepth is the most path segments a file path may have.
	MaxDepth int
}

// Default limit values; see DefaultLimits.
const (
	DefaultMaxFiles          = 10_000
	DefaultMaxFileSize       = 10 << 20
	DefaultMaxTotalSize      = 100 << 20
	DefaultMaxManifestSize   = 1 << 20
	DefaultMaxEntrypointSize = 1 << 20
	DefaultMaxPathLength     = 1024
	DefaultMaxDepth          = 32
)

// DefaultLimits returns the limits Load applies when LoadOptions leaves them
// zero: 10,000 files, 10 MiB per file, 100 MiB in total, 1 MiB for the
// manifest and for the entrypoint, 1024-byte paths and 32 path segments.
func DefaultLimits() Limits {
	return Limits{
		MaxFiles:          DefaultMaxFiles,
		MaxFileSize:       DefaultMaxFileSize,
		MaxTotalSize:      DefaultMaxTotalSize,
		MaxManifestSize:   DefaultMaxManifestSize,
		MaxEntrypointSize: DefaultMaxEntrypointSize,
		MaxPathLength:     DefaultMaxPathLength,
		MaxDepth:          DefaultMaxDepth,
	}
}

// withDefaults returns l with every zero or negative field replaced by its
// default.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.MaxFiles <= 0 {
		l.MaxFiles = d.MaxFiles
	}
	if l.MaxFileSize <= 0 {
		l.MaxFileSize = d.MaxFileSize
	}
	if l.MaxTotalSize <= 0 {
		l.MaxTotalSize = d.MaxTotalSize
	}
	if l.MaxManifestSize <= 0 {
		l.MaxManifestSize = d.MaxManifestSize
	}
	if l.MaxEntrypointSize <= 0 {
		l.MaxEntrypointSize = d.MaxEntrypointSize
	}
	if l.MaxPathLength <= 0 {
		l.MaxPathLength = d.MaxPathLength
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = d.MaxDepth
	}
	return l
}

// tooLarge builds the ASK_PACKAGE_TOO_LARGE diagnostic for one exceeded
// limit.
func tooLarge(file, what string, limit int64, unit string) Diagnostic {
	return Diagnostic{
		File:     file,
		Severity: SeverityError,
		Code:     CodePackageTooLarge,
		Message:  fmt.Sprintf("%s exceeds the limit of %s", what, humanLimit(limit, unit)),
		Fix:      "make the package smaller: drop generated or binary files from `files`, or split it into several packages",
	}
}

// humanLimit renders a limit with its unit, using MiB for byte sizes that
// are whole mebibytes.
func humanLimit(n int64, unit string) string {
	if unit == "bytes" && n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d %s", n, unit)
}
