// Package scaffold generates new skill packages (skill, command or workflow)
// that pass strict validation, and adopts existing bare skills by writing a
// manifest that matches their front matter.
//
// The package is pure: New and Adopt return files as data ([]File, sorted
// by path, with their permission bits) and never write anything. The CLI's
// `agent-skills create` writes them atomically, so nothing is left behind
// on error or with --dry-run.
//
// # What New generates
//
// Every kind gets a skill.yaml with schemaVersion 1, name, kind, version,
// description, license, keywords (the meaningful words of the name), authors
// (when given) and files, each section preceded by a comment saying what it
// is for. Values are emitted through YAML nodes, so a description holding
// ": ", " #", quotes or a leading "-" cannot change the document's shape;
// long descriptions are written as folded ">-" blocks only when that
// represents them exactly.
//
//   - skill: SKILL.md with name and description front matter and the
//     Purpose / Workflow / Rules / References structure of DESIGN §3.2,
//     whose text tells the author what belongs in each section, and
//     references/REFERENCE.md, which SKILL.md links to with a relative link.
//   - command: COMMAND.md with description and argument-hint front matter
//     and a prompt that uses $ARGUMENTS; the manifest declares
//     compatibility with claude-code, the agent that has commands.
//   - workflow: WORKFLOW.js whose `export const meta = { name, description,
//     version }` is a pure literal of single-quoted strings (quotes,
//     backslashes, line breaks and U+2028/U+2029 escaped) and whose default
//     export is an async function running plan, carry-out and verify phases
//     through the runtime's agent() and phase() functions.
//
// # Inputs and their defaults
//
// The name must follow the package-name grammar (format.CheckName, applied
// through validate.CheckName: 1–64 characters of a-z, 0-9 and single inner
// hyphens; "@" and "/" reserved). An empty kind means skill. An empty
// description is replaced by one built from the name that says what the
// package covers and when to use it; a given description is trimmed and
// must be one line of printable text (no line breaks, tabs, control, format
// or bidirectional characters) of at most MaxDescriptionLen characters. The
// licence defaults to DefaultLicense and must pass validate.CheckLicense
// without even a warning: a current SPDX expression, LicenseRef-…, or
// UNLICENSED or SEE LICENSE IN <file>. The version defaults to DefaultVersion and must pass
// validate.CheckVersion (strict semver). Name, licence and version errors
// are validate's own messages, with its fix as the hint. The author is "Name", "Name <email>" or
// "Name <email> (url)" and is written in the mapping form.
//
// # Errors
//
// Every failure is an *Error: a stable code, a one-sentence Message, Detail
// lines and Try, the next actions, read through ErrorCode, ErrorDetail and
// ErrorTry; Error() is the message alone. ASK_USAGE is CodeUsage; the other
// codes are validate's and format's constants, the codes the same problems
// have under validation. Adopt's front-matter errors also keep format's
// Diagnostics. The CLI maps codes to exit statuses:
//
//	ASK_USAGE                      2  unknown kind; unusable description or author;
//	                                  Adopt on a folder that already has skill.yaml,
//	                                  or a --license that contradicts SKILL.md
//	ASK_NAME_INVALID               3  the name breaks the name grammar
//	ASK_NAME_MISMATCH              3  Adopt: SKILL.md name differs from the folder
//	ASK_VERSION_INVALID            3  the version is not strict semver
//	ASK_LICENSE_INVALID            3  the licence is not a valid licence expression;
//	                                  Adopt: SEE LICENSE IN a file the folder lacks
//	ASK_ENTRYPOINT_MISSING         3  Adopt: the folder has no SKILL.md
//	ASK_FRONTMATTER_INVALID        3  Adopt: SKILL.md front matter cannot be read
//	ASK_FRONTMATTER_FIELD_INVALID  3  Adopt: front matter lacks a usable name or description
//	ASK_PACKAGE_UNSAFE_FILE        5  Adopt: a symbolic link or special file at the top level
//	ASK_PACKAGE_TOO_LARGE          5  Adopt: SKILL.md is over format's entrypoint limit
//
// # Adopt
//
// Adopt reads a bare skill's SKILL.md with format.DecodeEntrypoint and
// returns an Adoption: a skill.yaml whose name, description (whitespace
// folded to single spaces), licence and version match the front matter, and
// notes for what it had to decide. The version is the front matter's
// version, else metadata.version when that is strict semver, else
// DefaultVersion: metadata is the Agent Skills specification's client
// metadata, so a `metadata.version: "1.0"` stays there and a note says the
// package starts at 0.1.0. The licence comes from AdoptOptions (which
// overrides free text) or the front matter; when neither has one the
// manifest declares none, because Adopt does not choose a licence for
// existing work. Front matter may hold free text ("Proprietary. LICENSE.txt
// has complete terms", the specification's example): it becomes
// "SEE LICENSE IN <file>" when it names a file of the folder, else
// "LicenseRef-<its words>", with a note and a comment in skill.yaml quoting
// the text. A value written as a licence but wrongly (a deprecated SPDX
// identifier, SEE LICENSE IN a missing file) is an error, not free text. The
// files list names every top-level file and folder except .git,
// node_modules, .agent-skills and .DS_Store, plus skill.yaml.
package scaffold
