// Package validate checks an agent skill package against every rule of the
// package format (DESIGN §3.3) and of the Agent Skills specification, and
// reports every problem at once as format.Diagnostics: file, line, column,
// severity, a stable ASK_* code, a message and a fix.
//
// The package is pure: packages come in as values over an fs.FS (see
// format.Load), agent knowledge (the agentOverrides allowlist, the
// agent-specific front-matter keys) is passed in through Options, and no
// function touches the OS, the clock or the environment. The only
// package-level variables are immutable (the shared Markdown parser and
// lookup tables).
//
// # Entry points
//
// Dir loads and validates one package folder; Package validates an already
// loaded format.Package; Collection finds every package below a root (a
// skills/ folder, a registry checkout) and validates them concurrently —
// with Options.Scan, also running package scan's content scanner on each
// package it loaded (Result.Scan). The
// rule families are also exported as plain functions over primitive values,
// for callers that need one rule: CheckName, CheckVersion, CheckRange,
// CheckLicense, CheckPath (format.CheckEntryPath as a Problem),
// CheckFiles, CheckDependencies, CheckSuggests, CheckOverrides,
// CheckEntrypoint and Links.
//
// # Rules, codes and gates
//
// All codes are validation failures (exit code 3 at the CLI), each a Code
// constant (CodeNameInvalid is ASK_NAME_INVALID, …). A code may cover
// several rules; Rules lists every rule with its code and its level —
// error, warning or off — at each Gate: GateDefault (`validate`,
// `install --strict`), GateStrict ("strict" below: `validate --strict`,
// and always during publish) and GateInstall (`install`, which refuses
// only what makes a package unsafe, unreadable to agent-skills or
// invisible to the agents, and warns about the rest). The levels are data,
// in one table, so that docs/manifest.md can show them and a test keep the
// two in step. The list below is at GateDefault:
//
//	ASK_REQUIRED_FIELD            name, version or description missing from skill.yaml,
//	                              or an empty description; name or description missing
//	                              from SKILL.md / WORKFLOW.js meta (a warning for a
//	                              COMMAND.md without description)
//	ASK_NAME_INVALID              the name grammar of format.CheckName: 1-64 characters of
//	                              a-z, 0-9 and "-", no hyphen at either end, no "--";
//	                              "@" and "/" are reserved for scoped names
//	ASK_NAME_MISMATCH             skill.yaml name ≠ directory name, or entrypoint name ≠
//	                              skill.yaml name (directory name for a bare skill)
//	ASK_KIND_UNKNOWN              kind is not skill, command or workflow
//	ASK_VERSION_INVALID           version is not strict semver (ranges get their own
//	                              message); a bad compatibility.agents[].minVersion range
//	ASK_VERSION_MISMATCH          the entrypoint declares a version other than skill.yaml's
//	ASK_LICENSE_INVALID           not an SPDX expression, LicenseRef-… or UNLICENSED;
//	                              a deprecated SPDX identifier is a warning
//	ASK_FILES_UNSAFE_PATH         a files entry that is absolute, a drive or UNC path,
//	                              traverses with "..", holds a backslash, an empty or "."
//	                              segment, a control character, a Windows-invalid
//	                              character or device name, a trailing dot or space, or is
//	                              too long (see CheckPath)
//	ASK_FILES_DUPLICATE           a files entry repeated, also as "dir" and "dir/" or
//	                              differing only in case
//	ASK_ENTRYPOINT_NOT_LISTED     files does not list the kind's entrypoint
//	ASK_DEPENDENCY_INVALID        a dependency with an invalid name or range, naming the
//	                              package itself, or listed twice (across dependencies and
//	                              optionalDependencies)
//	ASK_SUGGESTS_INVALID          a suggestion with a range, an invalid name, self, or twice
//	ASK_OVERRIDE_KEY_UNKNOWN      an agentOverrides agent or key outside the allowlist
//	                              passed in Options.OverrideKeys
//	ASK_MANIFEST_UNKNOWN_KEY      an unknown skill.yaml key: a warning, an error when strict
//	ASK_MANIFEST_MISSING          a bare skill (no skill.yaml), only when strict
//	ASK_FRONTMATTER_FIELD_INVALID a specification rule on name, description (1-1024
//	                              characters), compatibility (≤ 500), metadata (string
//	                              map), allowed-tools (a string; a list is a warning, an
//	                              error when strict), license or version
//	ASK_FRONTMATTER_UNKNOWN_KEY   a key outside the specification: a warning, an error
//	                              when strict; a known agent key (DefaultAgentFrontMatterKeys)
//	                              is accepted, and named as that agent's key in a warning
//	                              when strict
//	ASK_LINK_OUTSIDE_PACKAGE      a Markdown link or image with an absolute path or one
//	                              that leaves the package (a link into a sibling package
//	                              of Options.Siblings is a warning at GateInstall); a link
//	                              starting with {baseDir}/ resolves against the package root
//	ASK_LINK_BROKEN               a relative link or image whose target the package does
//	                              not ship: a warning, an error when strict
//
// Problems found while loading (YAML syntax, unsafe files, size limits, a
// missing entrypoint, a newer schemaVersion) carry format's own codes; Dir
// returns them together with validate's.
//
// # Errors
//
// An invalid package is not an error: Dir, Package and Collection report it
// as Diagnostics; only Collection returns an error, when the tree cannot be
// walked at all. The single-value checks (CheckName, CheckVersion, CheckRange,
// CheckLicense, CheckPath) return nil or a *Problem: a code, a message, a
// fix and whether it is only a warning, the same fields a Diagnostic has
// without the position.
//
// # Decisions
//
// UNLICENSED is accepted as a licence, as npm does: all rights reserved. So
// is npm's "SEE LICENSE IN <file>", for terms that have no SPDX identifier,
// when the package ships the file: it is what the free text of Anthropic's
// skills ("Proprietary. LICENSE.txt has complete terms") means.
// Front-matter licence values are not SPDX-checked, because the
// specification allows free text there; skill.yaml's license is. Link
// targets are checked against the package's file set, so a link to a file
// that exists on disk but is not listed in files is reported as broken: it
// would not be installed.
package validate
