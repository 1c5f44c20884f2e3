package publish

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/resolve"
)

// OCITarget publishes into an OCI registry: the package is pushed as an
// artifact and the index artifact is updated with optimistic concurrency
// (registry.OCIWriter.UpdateIndex). Publishing pushes at once: there is
// no branch to review, so --write implies --push.
type OCITarget struct {
	// Writer pushes to the registry.
	Writer *registry.OCIWriter
	// Reader reads published versions, for their requirements.
	Reader registry.Registry
	// Load is passed to format.Load when the package is read again to be
	// packed.
	Load format.LoadOptions
}

// Index reads the registry's current index; empty when it has none yet.
func (t OCITarget) Index(ctx context.Context) (*registry.Index, error) {
	idx, _, err := t.Writer.Index(ctx)
	return idx, err
}

// Locate returns "": an OCI registry has no folders; the package lives in
// repository <path>/<name> under the tag <version>.
func (t OCITarget) Locate(*registry.Index, string, string) (string, error) { return "", nil }

// Requirements reads the edges of a published version from its verified
// payload.
func (t OCITarget) Requirements(ctx context.Context, name string, v *registry.Version) (resolve.Requirements, error) {
	return RegistryTarget{Registry: t.Reader}.Requirements(ctx, name, v)
}

// Published hands use a published version's verified payload, for the
// bump report against the registry's latest.
func (t OCITarget) Published(ctx context.Context, name string, v *registry.Version, use func(*format.Package) error) error {
	return RegistryTarget{Registry: t.Reader}.Published(ctx, name, v, use)
}

// Write packs the package at pkgDir — after checking it still has the
// digest Prepare computed — pushes it and lists it in the index.
func (t OCITarget) Write(ctx context.Context, plan *Plan, pkgDir string) (*WriteResult, error) {
	abs, err := filepath.Abs(pkgDir)
	if err != nil {
		return nil, err
	}
	pkg, diags := format.Load(os.DirFS(abs), t.Load)
	if pkg == nil || diags.HasErrors() {
		return nil, &Error{Code: askerr.CodeValidationFailed, Message: pkgDir + " changed while publishing and no longer loads", Diagnostics: diags}
	}
	sum, err := format.Digest(pkg.FS, pkg.Files)
	if err != nil {
		return nil, err
	}
	if !format.SameIntegrity(sum, plan.Integrity) {
		return nil, &Error{Code: registry.CodeIntegrityMismatch,
			Message: fmt.Sprintf("%s changed while publishing (digest %s, checked %s)", pkgDir, sum, plan.Integrity),
			Try:     []string{"publish again once nothing writes to the folder"}}
	}
	// The plan's index signer signs every index the update writes (its
	// retries included); the signature is pushed as a referrer of the
	// index manifest before the index tag moves.
	w := *t.Writer
	w.SignIndex = plan.SignIndex
	v, upd, err := w.Publish(ctx, pkg, plan.Skill, plan.NewVersion())
	if err != nil {
		return nil, err
	}
	res := &WriteResult{
		Path:   t.Writer.Loc.URL() + "/" + plan.Name + "@" + v.Manifest,
		Copied: true,
		Index:  fmt.Sprintf("%s:%s@%s", t.Writer.Loc.URL(), registry.OCIIndexTag, upd.Digest),
		Pushed: true,
	}
	if upd.Signature != "" {
		res.Signature = t.Writer.Loc.URL() + "@" + upd.Signature
	}
	if upd.Attempts > 1 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("the index changed while publishing; merged and written again (%d attempts)", upd.Attempts))
	}
	return res, nil
}
