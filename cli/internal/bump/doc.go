// Package bump compares two observed versions of a package and reports
// every contract change and every changed, added or removed file, each
// with a stable id, the rule that classified it and the release category
// it implies, and recommends patch, minor, major or undetermined.
//
// The rules are data (Rules). Content identity alone never decides a
// category: a changed file whose meaning no contract rule captures — the
// instruction text of SKILL.md, a reference — needs an explicit verdict
// from a review (see Review). Without one, or with conflicting verdicts,
// or where a rule cannot tell (a range it cannot compare), the
// recommendation is undetermined and the report lists what is missing.
//
// The package is pure: it reads the two observations, optional file
// contents and an optional review, and never changes a version or writes
// a file.
package bump
