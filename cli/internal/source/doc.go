// Package source installs skills straight from where people share them: a
// GitHub or GitLab repository (owner/repo shorthands and web URLs), any git
// URL, a local folder, a .zip, .tar.gz, .tgz or .skill archive, or an MCP
// server that serves skills (SEP-2640: mcp:<command> over stdio,
// mcp+https:// over streamable HTTP; see mcpfetch.go).
//
// # API
//
//	Parse(ref, cwd, isDir) (Ref, bool, error)   // is it a source, and which
//	Fetch(ctx, Ref, Options) (*Result, error)    // resolve, discover, materialise
//	Restore(ctx, Pin, Options) (*Package, error) // exactly what a lock recorded
//	Identity(Ref, getenv) string                 // the canonical source id
//	Record(Ref, getenv) string                   // the source as skills.lock records it (ssh kept)
//	SameSource(a, b) bool                        // two records of one source
//	Tags(ctx, Ref, Options) ([]string, error)    // semver tags, newest first
//	PseudoVersion(time, sha) string              // 0.0.0-<yyyymmddhhmmss>-<sha12>
//	(zip extraction is registry.ExtractZip, shared with the registries)
//
// Parse never touches the network; ok=false means "not a source: treat it
// as a registry reference" (name, name@1.2, reg:name).
//
// Fetch resolves a git reference to a commit with the system git through
// the hardened runner gitrun (shallow, blob-filtered, sparse when a
// sub-path is given, hooks, submodules and .gitattributes drivers off, no
// prompts, every ref checked and passed after --end-of-options, tokens
// passed through the environment and never on the command line),
// discovers the skills the source offers (docs/sources.md gives the
// order), and materialises each chosen one as a package folder under
// Options.Dir/<name>. A bare skill (SKILL.md only) gets a synthesised
// skill.yaml whose bytes depend only on the skill and the version, so the
// integrity of the result is reproducible. Every package is loaded with
// format.Load, validated with validate.Package and digested with
// format.Digest; unsafe content is refused whatever the caller asks.
//
// Discovery reports, as data, what it does not offer as a skill of its
// own: Found.Nested (a SKILL.md inside a skill's folder, part of that
// package), Found.Copies (folders holding the same package under one
// name) and Found.Conflicts (folders offering one name with different
// packages). A name with conflicts picks nothing — ASK_SOURCE_DUPLICATE_SKILL
// lists the folders, and a folder path picks one — and a "*" selection
// skips every such folder into Result.Skipped (name, path, code, reason),
// which the caller reports; Fetch itself prints nothing.
//
// Restore fetches exactly the commit (or archive, or folder) and sub-path a
// lock entry records and checks the digest, so a force-pushed branch cannot
// change a locked install.
//
// Every failure is an *Error with a stable ASK_* code; no error message
// carries a URL's user information or a token.
package source
