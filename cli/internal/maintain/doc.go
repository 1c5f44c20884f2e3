// Package maintain is the use case of `agent-skills collection audit`,
// `collection plan` and `collection evolve`: a deterministic
// audit → plan → apply workflow over one collection folder.
//
// Audit inspects a collection read-only — validation of every package
// (package validate's collection walk), the freshness of its
// skills-catalog.json (package catalog) and the content scanner (package
// audit) — and returns bounded findings bound to a baseline: a digest of the
// exact inspected state, made of every package's canonical digest and the
// digest of the catalog file's bytes. NewPlan turns an audit into a plan:
// automatic steps, of which there is only one kind (synchronising the
// catalog), and semantic handoffs, the findings that need a person to change
// content. Preview and Apply carry a plan out: Apply refuses when the
// collection no longer has the plan's baseline, captures the catalog's
// preimage, writes the synchronised catalog atomically, verifies it and that
// no package changed, restores the preimage byte for byte on any failure,
// and returns a receipt of what was done and which handoffs remain.
//
// Nothing here modifies a package, runs a file, reads the clock or the
// environment, or prints: the command renders what these functions return.
// The documents (Audit, Plan, Receipt) are JSON with a stated schema; the
// ones read back are decoded strictly, within MaxDocumentSize.
package maintain
