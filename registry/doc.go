// Package registry reads skill registries (DESIGN §4): the index
// document, the local, git, http, oci and bundled registry kinds behind one
// interface, precedence between registries, search, and safe packing and
// extraction of .tar.gz payloads.
//
// # Index
//
// DecodeIndex parses registry/skills.yaml (YAML: a fast path for the
// subset EncodeYAML writes, else through yaml.Node so that every problem
// has a line and column) or index.json (JSON, with encoding/json for
// speed) and validates it completely before anything touches the disk:
// skill names, strict semver versions, no duplicates, exactly one of path
// or tarball, safe relative paths, well-formed sha256 integrity strings,
// RFC 3339 time stamps, and size and count limits (DefaultIndexLimits).
// A skill's latest version defaults to its newest non-deprecated release.
// Every problem is reported in one ASK_REGISTRY_INVALID_INDEX error.
//
// Indexes above 1 MiB are cached in decoded, binary form under
// Options.CacheDir/index with the SHA-256 of the source and, for an index
// file, the file's identity (device, inode, size, mtime, ctime, mode): an
// unchanged identity loads the cached form without reading the file, any
// other makes it read and hash the file.
//
// # Kinds
//
// Open builds a Registry from a Spec; the kind is inferred from the URL
// when not given (InferKind). A local registry is read in place. A git
// registry is a depth-1 fetch into CacheDir/git/<sha256 of url#ref>, made
// with the system git through gitrun (hooks, symbolic links, fsmonitor,
// submodules, prompts and .gitattributes drivers disabled; refs and URLs
// checked before they reach git's command line), refreshed after
// Options.TTL and used as is, with a notice, when the network fails. An http registry fetches
// its index over HTTPS (plain http only to loopback or when explicitly
// allowed) through HTTPClient, with bounded retries with exponential
// backoff on 5xx and network errors, ETag revalidation and size caps; the
// last good index is kept in CacheDir/http/<hash> and used offline with a
// notice, and one that no longer decodes is dropped. A bundled registry
// serves an fs.FS, its index built by BuildIndex.
//
// # HTTP
//
// HTTPClient is the one HTTP policy of agent-skills, shared with archive
// sources: time limits on every phase of a request (HTTPTimeouts), plain
// http only to loopback, no redirect that downgrades https or leads from a
// remote host to loopback, a notice when a redirect changes host, and no
// credentials carried to another host.
//
// # Integrity
//
// Every payload is verified before use (Verify): format.Digest over
// format.Load's file set must equal the index integrity, and the manifest
// must name the requested name and version; otherwise
// ASK_INTEGRITY_MISMATCH with the expected and actual values. Fetch copies
// or extracts into a temporary directory beside the destination, verifies
// there, drops files outside the file set and renames; on failure nothing
// is left at the destination. An extracted tarball enters the payload
// cache only once verified, and is verified again, and evicted when it no
// longer matches, on every use. Snapshot is the one-pass form: the
// payload's bytes are read once into memory, loaded and digested once
// there, and that copy is what the caller installs; Set.Requirements
// verifies such a snapshot to read a package's dependencies and keeps it,
// within a budget, for Set.Snapshot, so a run digests each package once.
//
// # Archives
//
// Extract and ExtractZip accept only regular files and directories with
// safe paths, and enforce entry, file, total and compression-ratio limits
// while decompressing (DefaultExtractLimits), on the bytes really inflated
// and read, never on the sizes an archive declares. Pack writes
// reproducible archives. Paths are checked with format's portable-path
// rules (format.CheckPath, format.PathSet), the ones validation, the loader
// and the agents' layouts use: an absolute or escaping entry, a link or a
// duplicate entry is ASK_ARCHIVE_UNSAFE at once; entries whose names are
// merely not portable (a Windows device name, case or NFC/NFD twins, …)
// are not written and are all listed at the end as ASK_PACKAGE_UNSAFE_FILE.
//
// # Signatures
//
// A Spec with TrustedSigners (allowed_signers text, see sshsig) makes the
// registry signed: the index is used only when its detached SSH signature
// (the index file or URL + SignatureSuffix) verifies over its exact bytes,
// checked before decoding and again for every cached copy, and Package,
// Snapshot and Fetch read a version's payload only when one of its
// Signatures verifies over PackageStatement(name, version, integrity).
// Missing is ASK_SIGNATURE_MISSING, wrong ASK_SIGNATURE_INVALID. Without
// TrustedSigners no signature is fetched or checked.
//
// # Precedence
//
// A Set orders registries: the first trusted registry that has a name owns
// it, "registry:name" bypasses precedence, and a registry that cannot be
// asked never lets a later one take over a name (ASK_REGISTRY_UNAVAILABLE).
// Set.Versions and Set.Requirements have the shape of the resolver's
// Source.
//
// # Errors
//
// Every failure a user can see is an *Error: a stable code (the Code
// constants, or format's code for a payload with an unsafe file, a broken
// manifest or one over a size limit), a one-sentence Message, Detail lines
// (every problem of an index, the expected and actual digests, the names a
// package cannot ship) and Try, the next actions. Error() is the message
// and the wrapped cause; the CLI reads the rest through ErrorCode,
// ErrorDetail and ErrorTry. errors.Is(err, ErrNotFound) holds for
// ASK_SKILL_NOT_FOUND. The git runner's own errors (gitrun.CommandError,
// URLError, RefError) carry no code: they are the causes behind an
// ASK_REGISTRY_UNAVAILABLE or ASK_REGISTRY_CONFIG_INVALID error.
//
// Nothing in this package prints: notices go to Options.Notify and the
// notify function of NewSet.
package registry
