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
// and a fix. The rules of the format — semver, SPDX licences, the Agent
// Skills front-matter rules — belong to package validate, which reads the
// values and positions decoded here (Manifest.Pos, Manifest.KeyPos,
// Manifest.Has, Entrypoint.Pos, …). Two rule sets are the exception,
// because every module needs them and none may disagree, so they live
// here, in the lowest module, once:
//
//   - the package-name grammar (CheckName, ValidName, SuggestName): 1 to 64
//     characters of a-z, 0-9 and single inner hyphens, the Agent Skills
//     specification's rule, used by validate, resolve (references and
//     skills.lock), registry (indexes), scaffold and the CLI;
//   - portable paths (CheckPath, CheckEntryPath, CheckPaths, FoldPath):
//     every reader of a package — Load, validate, the registry's extractor,
//     the CLI's source copier and the agents' layouts — needs them.
//
// The readers:
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
// Codes this package emits (the Code constants): ASK_MANIFEST_INVALID,
// ASK_MANIFEST_SCHEMA_UNSUPPORTED, ASK_FRONTMATTER_INVALID,
// ASK_WORKFLOW_META_INVALID, ASK_ENTRYPOINT_MISSING, ASK_FILES_MISSING,
// ASK_PACKAGE_UNSAFE_FILE and ASK_PACKAGE_TOO_LARGE.
//
// # Errors
//
// Problems with a package are Diagnostics, never errors. The few functions
// that return an error check one value and carry no code: SplitFrontMatter
// a *FrontMatterError with its line, CheckPath and CheckEntryPath a
// *PathError naming the rule (CheckPaths returns them all), ParseIntegrity
// and Digest a plain error. The modules above turn them into their own
// diagnostics or coded errors.
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
//
// # Portable paths
//
// Load also refuses, as ASK_PACKAGE_UNSAFE_FILE, every file of the file set
// whose path some supported system cannot create as itself (CheckPath: a
// Windows device name such as aux.md or COM¹, a character Windows refuses,
// a backslash, a trailing dot or space, …) or that would become the same
// file as another on a case-insensitive or normalising file system
// (CheckPaths: A.md and a.md, café in NFC and in NFD). Every such file is
// reported at once, each with its rule.
package format
