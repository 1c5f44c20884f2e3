// Package publish prepares a skill package for a registry and, when asked,
// writes it there (DESIGN §9, prepare-and-emit).
//
// Prepare runs the publish checks in the design's order — strict validation,
// semver sanity against the target index, dependency resolvability against
// the target registry, known agent ids, the canonical integrity — and returns
// a Plan holding the index entry to print. Target is the port a registry is
// written through: FolderTarget patches a registry folder on disk (its
// registry/skills.yaml in place, keeping comments and order), GitTarget does
// the same on a branch of a fresh clone and commits it for a pull request.
// Pack writes the reproducible .tar.gz of a package.
//
// # Decisions
//
//   - The index is patched as text at the positions yaml.Node reports, so
//     every byte outside the edited entries stays as it was (comments, line
//     wrapping, quoting). The result is decoded again and compared with the
//     intended index; when the text patch cannot express an edit (flow-style
//     lists, say) the yaml.Node tree is edited and re-encoded instead, which
//     keeps comments and order but may re-wrap long strings.
//   - A new version goes where its semantic-version order puts it in the
//     file's own order (newest first unless the file lists oldest first);
//     a new skill goes before the first skill whose name sorts after it.
//   - latest becomes the newest non-deprecated release (a prerelease only
//     when no release exists), the rule registry.DecodeIndex applies to an
//     index without latest; a file that omits latest keeps omitting it. The
//     skill's description and keywords are refreshed only when the new
//     version becomes latest.
//   - Replacing the folder an older version lives in archives that version
//     first (registry.Pack into archive/<name>-<version>.tar.gz, its entry
//     rewritten to that tarball, integrity unchanged) when the folder still
//     holds its bytes; when it does not, the entry is dropped with a warning.
//   - Errors are *Error values with a stable ASK_* code (ErrorCode) and the
//     next actions (ErrorTry); resolution and registry failures keep the
//     resolver's and the registry's own error values.
package publish
