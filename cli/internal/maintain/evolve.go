package maintain

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/atomicfile"
	"github.com/agent-skills/agent-skills/cli/internal/catalog"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/validate"
)

// ReceiptSchema names the receipt's format; ReceiptVersion is its version.
const (
	ReceiptSchema  = "agent-skills/collection-receipt"
	ReceiptVersion = 1
)

// The outcomes of an applied plan.
const (
	// OutcomeApplied: the catalog was written and verified.
	OutcomeApplied = "applied"
	// OutcomeNothingToApply: the plan has no automatic step.
	OutcomeNothingToApply = "nothing-to-apply"
	// OutcomeRolledBack: a step failed and the catalog's preimage was
	// restored (Rollback says whether the restore was verified).
	OutcomeRolledBack = "rolled-back"
)

// EvolveOptions are the choices of Preview and Apply.
type EvolveOptions struct {
	// ID is the collection's logical id, which must be the plan's
	// (default: the folder's name).
	ID string
	// Catalog are the options catalog build uses.
	Catalog validate.Options
	// Fault, when set, is called at each fault-injection point (see
	// FaultAfterCatalogWrite); an error it returns fails the run there.
	Fault func(point string) error
}

// Preview is what applying a plan would do, computed read-only.
type Preview struct {
	Collection string `json:"collection"`
	// Baseline is the plan's baseline digest; Current says whether the
	// collection is still in that state, and Drift, when not, what changed.
	Baseline string   `json:"baseline"`
	Current  bool     `json:"current"`
	Drift    []string `json:"drift"`
	// Steps would be applied (none when not Current); Handoffs remain.
	Steps    []Step    `json:"steps"`
	Handoffs []Handoff `json:"handoffs"`
}

// Receipt records an applied plan.
type Receipt struct {
	// Schema is ReceiptSchema and SchemaVersion ReceiptVersion.
	Schema        string `json:"schema"`
	SchemaVersion int    `json:"schemaVersion"`
	Collection    string `json:"collection"`
	// Baseline is the plan's baseline digest, which the collection had
	// when the run began.
	Baseline string `json:"baseline"`
	// Outcome is OutcomeApplied, OutcomeNothingToApply or OutcomeRolledBack.
	Outcome string `json:"outcome"`
	// Steps are the plan's steps, each with what became of it.
	Steps []StepResult `json:"steps"`
	// Catalog has the catalog file's digests before and after the run
	// (CatalogAbsent when there was, or is, none).
	Catalog CatalogDigests `json:"catalog"`
	// Verification is what was checked after the write.
	Verification Verification `json:"verification"`
	// Rollback is set when the preimage had to be restored.
	Rollback *Rollback `json:"rollback,omitempty"`
	// Failure says why the run failed; empty when it did not.
	Failure string `json:"failure,omitempty"`
	// Handoffs are the plan's handoffs: all remain, since no step
	// changes content.
	Handoffs []Handoff `json:"handoffs"`
}

// StepResult is one step of a receipt.
type StepResult struct {
	Step
	// Status is "done", "rolled-back" or "failed".
	Status string `json:"status"`
}

// CatalogDigests are a catalog file's digests around a run.
type CatalogDigests struct {
	Before string `json:"before"`
	After  string `json:"after"`
	// Written is the digest of the catalog the run wrote, also when it
	// was rolled back; empty when nothing was written.
	Written string `json:"written,omitempty"`
	// Skills is how many packages the written catalog lists.
	Skills int `json:"skills"`
}

// Verification is the check after the write.
type Verification struct {
	// Ran says the verification ran (a failure before it stops it).
	Ran bool `json:"ran"`
	// CatalogFresh: a fresh build equals the file on disk byte for byte.
	CatalogFresh bool `json:"catalogFresh"`
	// PackagesUnchanged: every package digest is the baseline's.
	PackagesUnchanged bool `json:"packagesUnchanged"`
	// Packages is how many packages were compared.
	Packages int `json:"packages"`
	// Problems lists what the verification found wrong.
	Problems []string `json:"problems,omitempty"`
}

// Rollback is the restore of the catalog's preimage.
type Rollback struct {
	// Restored: the file is again byte for byte what it was (or absent,
	// as it was), read back and compared.
	Restored bool `json:"restored"`
	// Error says why the restore failed.
	Error string `json:"error,omitempty"`
	// Preimage is the catalog's original bytes, kept in the receipt only
	// when the restore failed, so that a person can put them back.
	Preimage []byte `json:"preimage,omitempty"`
}

// checkPlanFor refuses a plan made for another collection.
func checkPlanFor(root string, p *Plan, opts *EvolveOptions) error {
	if opts.ID == "" {
		opts.ID = filepath.Base(root)
	}
	if p.Collection != opts.ID {
		return &askerr.Error{Code: CodeMismatch,
			Message: fmt.Sprintf("the plan is for the collection %q, not %q", p.Collection, opts.ID),
			Try:     []string{"give the collection the plan was made for", "--id " + p.Collection + "   when the folder was renamed"}}
	}
	return nil
}

// RunPreview says what Apply would do to the collection at root, an
// absolute folder, without writing anything.
func RunPreview(root string, p *Plan, opts EvolveOptions) (*Preview, error) {
	if err := checkPlanFor(root, p, &opts); err != nil {
		return nil, err
	}
	st, err := inspect(root, opts.Catalog.Load)
	if err != nil {
		return nil, err
	}
	pv := &Preview{Collection: p.Collection, Baseline: p.Baseline.Digest, Drift: Drift(p.Baseline, st.baseline),
		Steps: p.Steps, Handoffs: p.Handoffs}
	pv.Current = len(pv.Drift) == 0
	if !pv.Current {
		pv.Steps = []Step{}
	}
	return pv, nil
}

// Apply carries out the plan's automatic steps on the collection at root,
// an absolute folder. It refuses (CodeChanged, nothing written) when the
// collection is not in the plan's baseline state. Else it keeps the
// catalog's preimage, writes the synchronised catalog atomically, and
// verifies that a fresh build equals it and that no package changed; on
// any failure after the write it restores the preimage byte for byte (or
// removes the file when there was none) and returns the receipt with a
// CodeEvolveFailed error. The receipt is returned whenever the run got
// past the baseline check.
func Apply(ctx context.Context, root string, p *Plan, opts EvolveOptions) (*Receipt, error) {
	if err := checkPlanFor(root, p, &opts); err != nil {
		return nil, err
	}
	pre, err := inspect(root, opts.Catalog.Load)
	if err != nil {
		return nil, err
	}
	if d := Drift(p.Baseline, pre.baseline); len(d) > 0 {
		return nil, &askerr.Error{Code: CodeChanged,
			Message: "the collection changed since it was audited: the plan no longer applies, and nothing was written",
			Detail:  d,
			Try:     []string{"audit the collection as it is now (collection audit --out F), plan again, then apply the new plan"}}
	}
	rc := &Receipt{Schema: ReceiptSchema, SchemaVersion: ReceiptVersion, Collection: p.Collection,
		Baseline: p.Baseline.Digest, Steps: []StepResult{}, Handoffs: p.Handoffs,
		Catalog: CatalogDigests{Before: pre.baseline.Catalog, After: pre.baseline.Catalog}}
	if len(p.Steps) == 0 {
		rc.Outcome = OutcomeNothingToApply
		return rc, nil
	}
	if pre.unreadable {
		// A plan has a sync step only for a catalog that was readable;
		// the baseline check makes this unreachable, but never overwrite
		// what could not be read.
		return nil, &askerr.Error{Code: CodeChanged, Message: catalog.FileName + " cannot be read; nothing was written"}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	copts := opts.Catalog
	copts.DirName = filepath.Base(root)
	cat, err := catalog.Build(os.DirFS(root), copts)
	if err != nil {
		return nil, err
	}
	want := cat.Encode()
	file := filepath.Join(root, catalog.FileName)
	mode := fs.FileMode(0o644)
	if pre.present {
		mode = pre.mode
	}
	step := StepResult{Step: p.Steps[0], Status: "failed"}
	rc.Catalog.Skills = len(cat.Skills)
	if err := atomicfile.WriteFile(file, want, mode); err != nil {
		// WriteFile leaves the file as it was when it fails.
		rc.Steps = append(rc.Steps, step)
		rc.Outcome, rc.Failure = OutcomeRolledBack, "writing "+catalog.FileName+": "+err.Error()
		rc.Rollback = restore(file, pre)
		return rc, failed(rc)
	}
	rc.Catalog.After, _ = format.FileDigest(bytes.NewReader(want))
	rc.Catalog.Written = rc.Catalog.After
	failure := ""
	if opts.Fault != nil {
		if err := opts.Fault(FaultAfterCatalogWrite); err != nil {
			failure = "after writing " + catalog.FileName + ": " + err.Error()
		}
	}
	if failure == "" {
		rc.Verification = verify(root, file, want, p.Baseline, copts)
		if len(rc.Verification.Problems) > 0 {
			failure = "verification failed: " + rc.Verification.Problems[0]
		}
	}
	if failure == "" {
		step.Status = "done"
		rc.Steps = append(rc.Steps, step)
		rc.Outcome = OutcomeApplied
		return rc, nil
	}
	step.Status = "rolled-back"
	rc.Steps = append(rc.Steps, step)
	rc.Outcome, rc.Failure = OutcomeRolledBack, failure
	rc.Rollback = restore(file, pre)
	rc.Catalog.After = pre.baseline.Catalog
	if !rc.Rollback.Restored {
		rc.Catalog.After = "unknown"
	}
	return rc, failed(rc)
}

// verify checks the written catalog and the packages.
func verify(root, file string, want []byte, base Baseline, copts validate.Options) Verification {
	v := Verification{Ran: true}
	problem := func(format string, args ...any) { v.Problems = append(v.Problems, fmt.Sprintf(format, args...)) }
	got, err := atomicfile.ReadPlain(file, false, catalog.MaxCatalogSize)
	switch {
	case err != nil:
		problem("cannot read %s back: %v", catalog.FileName, err)
	case !bytes.Equal(got, want):
		problem("%s on disk is not the bytes written", catalog.FileName)
	default:
		cat, err := catalog.Build(os.DirFS(root), copts)
		if err != nil {
			problem("the catalog cannot be built again: %s", firstLine(err.Error()))
		} else if ch := catalog.Check(got, cat); len(ch) > 0 {
			problem("%s is not fresh: %s", catalog.FileName, ch[0].String())
		} else {
			v.CatalogFresh = true
		}
	}
	st, err := inspect(root, copts.Load)
	if err != nil {
		problem("cannot read the packages again: %v", err)
		return v
	}
	v.Packages = len(st.baseline.Packages)
	cur := st.baseline
	cur.Catalog = base.Catalog // the catalog is meant to have changed
	if d := Drift(base, cur); len(d) > 0 {
		for _, line := range d {
			problem("%s", line)
		}
	} else {
		v.PackagesUnchanged = true
	}
	return v
}

// restore puts the catalog's preimage back: its bytes and mode, or no
// file when there was none, and reads the result back to prove it.
func restore(file string, pre *state) *Rollback {
	rb := &Rollback{}
	var err error
	if pre.present {
		err = atomicfile.WriteFile(file, pre.catalog, pre.mode)
	} else if err = os.Remove(file); errors.Is(err, fs.ErrNotExist) {
		err = nil
	}
	if err == nil {
		got, rerr := atomicfile.ReadPlain(file, false, catalog.MaxCatalogSize)
		switch {
		case rerr != nil:
			err = rerr
		case !pre.present && got != nil:
			err = errors.New(catalog.FileName + " still exists")
		case pre.present && !bytes.Equal(got, pre.catalog):
			err = errors.New(catalog.FileName + " does not read back as its preimage")
		}
	}
	if err != nil {
		rb.Error = err.Error()
		if pre.present {
			rb.Preimage = pre.catalog
		}
		return rb
	}
	rb.Restored = true
	return rb
}

// failed is the error of a run that was rolled back.
func failed(rc *Receipt) error {
	e := &askerr.Error{Code: CodeEvolveFailed, Message: "collection evolve failed: " + rc.Failure}
	if rc.Rollback != nil && rc.Rollback.Restored {
		e.Detail = []string{catalog.FileName + " was restored to its preimage (" + rc.Catalog.Before + "), read back and compared"}
		e.Try = []string{"fix the cause, then run collection evolve --apply again"}
	} else {
		e.Detail = []string{catalog.FileName + " could NOT be restored: " + rollbackError(rc)}
		e.Try = []string{"put the preimage back by hand: the receipt holds its bytes (rollback.preimage, base64) and digest (catalog.before)"}
	}
	return e
}

func rollbackError(rc *Receipt) string {
	if rc.Rollback == nil {
		return "no rollback ran"
	}
	return rc.Rollback.Error
}
