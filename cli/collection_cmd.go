package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/atomicfile"
	"github.com/agent-skills/agent-skills/cli/internal/maintain"
	"github.com/agent-skills/agent-skills/cli/internal/ui"
)

type collectionCmd struct {
	Audit  collectionAuditCmd  `cmd:"" help:"Validate, check the catalog and scan a collection (read-only): bounded findings and a baseline of the inspected state."`
	Plan   collectionPlanCmd   `cmd:"" help:"Turn an audit into a plan bound to its baseline: automatic steps (catalog sync) and handoffs for people."`
	Evolve collectionEvolveCmd `cmd:"" help:"Preview a plan, or apply it (--apply) to an unchanged collection, with rollback and a receipt."`
}

type collectionAuditCmd struct {
	Collection  string `arg:"" optional:"" default:"." type:"path" help:"The collection folder (default: the current folder)."`
	Out         string `type:"path" placeholder:"FILE" help:"Write the audit document to this file, atomically (outside every package of the collection)."`
	Strict      bool   `help:"Validate at the strict gate, as validate --strict and publish do."`
	ID          string `name:"id" help:"The collection's logical id recorded in the audit (default: the folder's name)."`
	MaxFindings int    `default:"1000" help:"Keep at most this many findings (1-100000); the summary counts the rest."`
	FailOn      string `name:"fail-on" enum:"none,error,warning" default:"none" help:"Exit 3 when a finding is at or above this severity: error, warning, or none (never; the default)."`
	JSON        bool   `name:"json" help:"Print the audit document as JSON."`
}

func (c *collectionAuditCmd) Help() string {
	return `Runs, read-only, what a maintainer checks before a release: validate on every package
(--strict for the publishing gate), the freshness of skills-catalog.json (as catalog build
--check), and the content scanner (as audit). Every problem is a finding with a stable id,
its source (validate, catalog, security), code, severity, package, file and message.

The audit records a baseline: a digest of every package's canonical digest and of the
catalog file's bytes. collection plan binds to it, and collection evolve --apply refuses
a collection that no longer has it. The document (schema in docs/maintenance.md) is
written to --out, or printed with --json; the text form lists the findings and a summary.
The exit code is 0 when the audit ran, findings or not, unless --fail-on says otherwise.

Examples:
  agent-skills collection audit skills/ --out /tmp/audit.json
  agent-skills collection audit --strict --fail-on error`
}

func (c *collectionAuditCmd) Run(e *env) error {
	if c.MaxFindings < 1 || c.MaxFindings > maintain.MaxFindingsLimit {
		return askerr.Usage("--max-findings must be between 1 and %d", maintain.MaxFindingsLimit)
	}
	root, err := collectionRoot(e, c.Collection)
	if err != nil {
		return err
	}
	if err := checkCollectionID(c.ID); err != nil {
		return err
	}
	a, err := maintain.RunAudit(e.ctx, root, maintain.AuditOptions{ID: c.ID, Strict: c.Strict,
		Validate: e.ws.ValidateOptions(c.Strict), Catalog: e.ws.ValidateOptions(false), MaxFindings: c.MaxFindings})
	if err != nil {
		return err
	}
	if c.Out != "" {
		if err := writeDocument(e, root, a.Baseline, c.Out, maintain.Encode(a)); err != nil {
			return err
		}
	}
	if c.JSON {
		if err := e.JSON(a); err != nil {
			return err
		}
	} else {
		renderAudit(e, a)
		if c.Out != "" {
			e.Info("wrote %s", e.Rel(absPath(c.Out)))
		}
	}
	if c.FailOn != "none" {
		if n := a.AtLeast(c.FailOn); n > 0 {
			return &askerr.Error{Code: maintain.CodeFindings,
				Message: fmt.Sprintf("the audit of %s found %d %s at or above %s", a.Collection, n, ui.Plural(n, "finding", "findings"), c.FailOn),
				Try:     []string{"agent-skills collection plan <audit file>   to list what to do about each"}}
		}
	}
	return nil
}

type collectionPlanCmd struct {
	Audit string `arg:"" type:"path" help:"The audit file collection audit --out wrote."`
	Out   string `type:"path" placeholder:"FILE" help:"Write the plan to this file, atomically."`
	JSON  bool   `name:"json" help:"Print the plan as JSON."`
}

func (c *collectionPlanCmd) Help() string {
	return `Reads an audit (it reads nothing else) and derives the plan bound to its baseline:
automatic steps — only catalog synchronisation, when the catalog is stale or missing —
and semantic handoffs: every other finding that needs a person to change content, each
naming its package, file, code and what to do. Info findings ask for nothing and are
only counted. The plan is written to --out, or printed (text, or --json).

Examples:
  agent-skills collection plan /tmp/audit.json --out /tmp/plan.json
  agent-skills collection plan /tmp/audit.json --json`
}

func (c *collectionPlanCmd) Run(e *env) error {
	data, err := readDocument(e, c.Audit)
	if err != nil {
		return err
	}
	a, err := maintain.DecodeAudit(data, e.Rel(absPath(c.Audit)))
	if err != nil {
		return err
	}
	p := maintain.NewPlan(a)
	if c.Out != "" {
		out := absPath(c.Out)
		if err := atomicfile.WriteFile(out, maintain.Encode(p), 0o644); err != nil {
			return askerr.IO("cannot write "+e.Rel(out), err)
		}
	}
	if c.JSON {
		return e.JSON(p)
	}
	renderPlan(e, p)
	if c.Out != "" {
		e.Info("wrote %s", e.Rel(absPath(c.Out)))
	}
	return nil
}

type collectionEvolveCmd struct {
	Plan       string `arg:"" type:"path" help:"The plan file collection plan --out wrote."`
	Collection string `arg:"" optional:"" default:"." type:"path" help:"The collection folder (default: the current folder)."`
	Apply      bool   `help:"Apply the automatic steps; without it, only preview."`
	Receipt    string `type:"path" placeholder:"FILE" help:"With --apply: write the receipt to this file, atomically (outside every package of the collection); without it the receipt is printed."`
	ID         string `name:"id" help:"The collection's logical id, which must be the plan's (default: the folder's name)."`
	JSON       bool   `name:"json" help:"Print the preview or the receipt as JSON."`
}

func (c *collectionEvolveCmd) Help() string {
	return `Without --apply, previews: whether the collection still has the plan's baseline, the
steps that would run and the handoffs that remain. Nothing is written.

With --apply, the baseline is computed again: when any package or the catalog changed
since the audit, evolve refuses (exit 5, ASK_COLLECTION_CHANGED, naming what changed)
and writes nothing. Else it keeps the catalog's preimage, writes the synchronised
skills-catalog.json atomically and verifies it (a fresh build equals it, no package
digest changed); on any failure it restores the preimage byte for byte (or removes the
file when there was none) and exits 1 (ASK_COLLECTION_EVOLVE_FAILED). Packages are
never modified. The receipt — what was done, the verification, the catalog's digests
before and after, the handoffs that remain — is written to --receipt, else printed.

Examples:
  agent-skills collection evolve /tmp/plan.json skills/
  agent-skills collection evolve /tmp/plan.json skills/ --apply --receipt /tmp/receipt.json`
}

func (c *collectionEvolveCmd) Run(e *env) error {
	if c.Receipt != "" && !c.Apply {
		return askerr.Usage("--receipt records an applied plan: use it with --apply")
	}
	root, err := collectionRoot(e, c.Collection)
	if err != nil {
		return err
	}
	if err := checkCollectionID(c.ID); err != nil {
		return err
	}
	data, err := readDocument(e, c.Plan)
	if err != nil {
		return err
	}
	p, err := maintain.DecodePlan(data, e.Rel(absPath(c.Plan)))
	if err != nil {
		return err
	}
	opts := maintain.EvolveOptions{ID: c.ID, Catalog: e.ws.ValidateOptions(false), Fault: e.faultHook()}
	if !c.Apply {
		pv, err := maintain.RunPreview(root, p, opts)
		if err != nil {
			return err
		}
		if c.JSON {
			return e.JSON(pv)
		}
		renderPreview(e, pv)
		return nil
	}
	if c.Receipt != "" {
		// Checked before anything is written: a receipt that would land
		// in a package must not be discovered after the catalog changed.
		if err := checkOutput(e, root, p.Baseline, c.Receipt); err != nil {
			return err
		}
		if err := checkWritable(e, c.Receipt); err != nil {
			return err
		}
	}
	rc, runErr := maintain.Apply(e.ctx, root, p, opts)
	if rc == nil {
		return runErr
	}
	if c.Receipt != "" {
		out := absPath(c.Receipt)
		if err := atomicfile.WriteFile(out, maintain.Encode(rc), 0o644); err != nil {
			// The run happened: its record goes to standard output
			// rather than nowhere.
			werr := askerr.IO("cannot write the receipt "+e.Rel(out)+"; it is printed instead", err)
			if jerr := e.JSON(rc); jerr != nil {
				return jerr
			}
			if runErr != nil {
				e.Error(werr)
				return runErr
			}
			return werr
		}
	}
	switch {
	case c.JSON || c.Receipt == "" && e.Quiet():
		if err := e.JSON(rc); err != nil {
			return err
		}
	case c.Receipt == "":
		renderReceipt(e, rc)
		e.Note("the receipt was not written: --receipt FILE writes it; --json prints it")
	default:
		renderReceipt(e, rc)
		e.Info("wrote %s", e.Rel(absPath(c.Receipt)))
	}
	return runErr
}

// collectionRoot resolves and checks a collection folder argument.
func collectionRoot(e *env, arg string) (string, error) {
	root, err := filepath.Abs(arg)
	if err != nil {
		return "", askerr.Usage("cannot resolve %s", arg)
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return "", &askerr.Error{Code: askerr.CodeUsage, Message: fmt.Sprintf("%s is not a folder", e.Rel(root)),
			Try: []string{"give the collection's folder: a registry root, .agents/skills or any folder of packages"}}
	}
	return root, nil
}

// checkCollectionID checks an --id value.
func checkCollectionID(id string) error {
	if id != "" && (len(id) > 255 || id == "." || id == ".." || filepath.Base(id) != id || strings.ContainsFunc(id, unicode.IsControl) || strings.ContainsRune(id, '\\')) {
		return askerr.Usage("--id %q is not a folder name", id)
	}
	return nil
}

// readDocument reads an audit or plan file given on the command line,
// within maintain.MaxDocumentSize.
func readDocument(e *env, arg string) ([]byte, error) {
	file := absPath(arg)
	data, err := atomicfile.ReadPlain(file, true, maintain.MaxDocumentSize)
	switch {
	case errors.Is(err, atomicfile.ErrTooLarge):
		return nil, &askerr.Error{Code: maintain.CodeDocumentInvalid,
			Message: fmt.Sprintf("%s is larger than %d bytes", e.Rel(file), maintain.MaxDocumentSize)}
	case err != nil:
		return nil, askerr.IO("cannot read "+e.Rel(file), err)
	case data == nil:
		return nil, &askerr.Error{Code: askerr.CodeUsage, Message: e.Rel(file) + " does not exist",
			Try: []string{"agent-skills collection audit --out FILE, then collection plan FILE --out PLAN"}}
	}
	return data, nil
}

// writeDocument writes a document that must not change the collection's
// state b.
func writeDocument(e *env, root string, b maintain.Baseline, arg string, data []byte) error {
	if err := checkOutput(e, root, b, arg); err != nil {
		return err
	}
	out := absPath(arg)
	if err := atomicfile.WriteFile(out, data, 0o644); err != nil {
		return askerr.IO("cannot write "+e.Rel(out), err)
	}
	return nil
}

// checkOutput refuses an output file that would change the collection:
// inside one of its packages, on its catalog, or a SKILL.md/skill.yaml.
// Links in the folders on the way are resolved first.
func checkOutput(e *env, root string, b maintain.Baseline, arg string) error {
	out := absPath(arg)
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		realRoot = root
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(out))
	if err != nil {
		dir = filepath.Dir(out)
	}
	rel, err := filepath.Rel(realRoot, filepath.Join(dir, filepath.Base(out)))
	if err != nil {
		return nil // another volume: outside
	}
	if why := maintain.OutputConflict(b, filepath.ToSlash(rel)); why != "" {
		return &askerr.Error{Code: askerr.CodeUsage, Message: fmt.Sprintf("refusing to write %s: %s", e.Rel(out), why),
			Try: []string{"write it outside the collection's packages, e.g. --out /tmp/" + filepath.Base(out)}}
	}
	return nil
}

// checkWritable refuses an output whose folder does not exist or that is
// a folder itself, before anything else is written.
func checkWritable(e *env, arg string) error {
	out := absPath(arg)
	if fi, err := os.Stat(filepath.Dir(out)); err != nil || !fi.IsDir() {
		return askerr.Usage("cannot write %s: its folder does not exist", e.Rel(out))
	}
	if fi, err := os.Lstat(out); err == nil && fi.IsDir() {
		return askerr.Usage("cannot write %s: it is a folder", e.Rel(out))
	}
	return nil
}

// absPath makes a path flag absolute (kong's type:"path" already does;
// this only guards a value set another way).
func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}
