// Package format reads agent skill packages: the skill.yaml manifest, the
// kind-specific entrypoint (SKILL.md, COMMAND.md or WORKFLOW.js) and the file
// set a package ships. It is pure: it takes bytes or an fs.FS and returns
// values and Diagnostics, and never touches the OS, the clock or the
// environment.
//
// # Contract
//
// Decoding checks shape and types only and reports every problem found, each
// as a Diagnostic with a file, a 1-based line and column, a stable ASK_* code
// and a fix. The rules of the format — name grammar, semver, SPDX licences,
// path safety of `files`, the Agent Skills front-matter rules — belong to
// package validate, which reads the values and positions decoded here
// (Manifest.Pos, Manifest.KeyPos, Manifest.Has, Entrypoint.Pos, …).
//
//   - DecodeManifest decodes skill.yaml through a yaml.Node tree, rejecting
//     several documents, non-mapping roots, duplicate keys, aliases, merge
//     keys and excessive nesting. Unknown keys are recorded, not reported.
//   - SplitFrontMatter and DecodeEntrypoint read SKILL.md and COMMAND.md;
//     ReadWorkflowMeta reads the `export const meta = { … }` literal of
//     WORKFLOW.js statically, without running it.
//   - Load reads a package folder: skill.yaml if present, otherwise a bare
//     skill made of SKILL.md alone; the file set; the entrypoint.
//   - Digest computes the canonical integrity of a file set.
//
// Codes this package emits: ASK_MANIFEST_INVALID,
// ASK_MANIFEST_SCHEMA_UNSUPPORTED, ASK_FRONTMATTER_INVALID,
// ASK_WORKFLOW_META_INVALID, ASK_ENTRYPOINT_MISSING, ASK_FILES_MISSING,
// ASK_PACKAGE_UNSAFE_FILE and ASK_PACKAGE_TOO_LARGE.
//
// # Limits
//
// So that a hostile package cannot exhaust memory or time, Load enforces
// these limits (LoadOptions.Limits overrides them; DefaultLimits returns
// them); exceeding one is ASK_PACKAGE_TOO_LARGE naming the limit:
//
//	Limit                   Default     Field
//	files in a package      10,000      MaxFiles
//	one file                10 MiB      MaxFileSize
//	all files together      100 MiB     MaxTotalSize
//	skill.yaml              1 MiB       MaxManifestSize
//	entrypoint              1 MiB       MaxEntrypointSize
//	path length             1024 bytes  MaxPathLength
//	path depth              32 segments MaxDepth
//
// The decoders carry their own fixed limits: DecodeManifest,
// DecodeEntrypoint and ReadWorkflowMeta refuse input over 1 MiB, YAML
// nesting deeper than 64 levels and every alias (so no alias expansion can
// explode), and ReadWorkflowMeta refuses literals or template substitutions
// nested deeper than 64 levels.
//
// # Unsafe files
//
// Load accepts only regular files and folders. Symbolic links (including one
// on the way to a `files` entry, when the FS implements fs.ReadLinkFS as
// os.DirFS does), devices, sockets and pipes are ASK_PACKAGE_UNSAFE_FILE and
// are never followed. An fs.FS cannot see hard-link counts, so refusing hard
// links is the OS-level caller's job: the CLI passes LoadOptions.Inspect to
// refuse files whose link count is above one.
package format
