package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/Masterminds/semver/v3"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/atomicfile"
	"github.com/agent-skills/agent-skills/cli/internal/bump"
	"github.com/agent-skills/agent-skills/cli/internal/snapshot"
	"github.com/agent-skills/agent-skills/cli/internal/workspace"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/resolve"
	"github.com/agent-skills/agent-skills/validate"
)

type reportCmd struct {
	Bump reportBumpCmd `cmd:"" help:"Compare two versions of a package and recommend patch, minor, major or undetermined (read-only)."`
}

type reportBumpCmd struct {
	Before string `arg:"" optional:"" help:"The previous version: a package folder, a snapshot or observation file, or a published name@version."`
	After  string `arg:"" optional:"" help:"The new version, in the same forms."`
	Review string `type:"path" placeholder:"FILE" help:"A review file of per-change verdicts (see docs/maintenance.md, Bump reports)."`
	JSON   bool   `name:"json" help:"Print the report as JSON."`
	Out    string `type:"path" placeholder:"FILE" help:"Also write the JSON report to FILE (atomically)."`
	Rules  bool   `help:"Print the classification rules and exit."`
	// FailOnUndetermined makes an undetermined recommendation an error.
	FailOnUndetermined bool `name:"fail-on-undetermined" help:"Exit 3 (ASK_BUMP_UNDETERMINED) when the recommendation is undetermined, after printing the report."`
}

func (c *reportBumpCmd) Help() string {
	return `Compares two versions of one package and lists every contract change (name, kind,
dependencies and their ranges, compatibility, capabilities, manifest and front-matter
keys) and every added, removed or changed file, each with a stable id, the rule that
classified it and its category. The recommendation is the most severe category, or
undetermined when a change needs a review verdict it does not have (changed instruction
text always does), when verdicts conflict, or when a rule cannot tell; the report then
lists what is missing. Each side is a package folder, a snapshot or observation file,
or a published name@version from the configured registries. It never changes a version
and writes no file but --out. The exit code is 0 whatever the recommendation, unless
--fail-on-undetermined.

Examples:
  agent-skills report bump java-basics@1.2.0 ./java-basics
  agent-skills report bump v1.observation.json v2.observation.json --review review.json
  agent-skills report bump skills-last-release/ skills/ --fail-on-undetermined
  agent-skills report bump --rules`
}

func (c *reportBumpCmd) Run(e *env) error {
	if c.Rules {
		if c.JSON {
			return e.JSON(bump.Rules)
		}
		e.renderBumpRules()
		return nil
	}
	if c.Before == "" || c.After == "" {
		return askerr.Usage("report bump needs two sides: agent-skills report bump <before> <after>")
	}
	rep, err := e.bumpReport(e.ctx, c.Before, c.After, c.Review)
	if err != nil {
		return err
	}
	if c.Out != "" {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return askerr.Internal("cannot encode the report", err)
		}
		if err := atomicfile.WriteFile(c.Out, append(b, '\n'), 0o644); err != nil {
			return askerr.IO("cannot write "+e.Rel(c.Out), err)
		}
	}
	if c.JSON {
		if err := e.JSON(rep); err != nil {
			return err
		}
	}
	var missing []string
	undetermined := false
	switch r := rep.(type) {
	case *bump.Report:
		if !c.JSON {
			e.renderBumpReport(e.Out, r)
		}
		undetermined, missing = r.Recommendation == bump.Undetermined, r.Missing
	case *bump.CollectionReport:
		if !c.JSON {
			e.renderBumpCollection(e.Out, r)
		}
		undetermined = r.Undetermined()
		for _, p := range r.Packages {
			for _, m := range p.Missing {
				missing = append(missing, p.After.Name+": "+m)
			}
		}
	}
	if c.FailOnUndetermined && undetermined {
		return &askerr.Error{Code: CodeBumpUndetermined, Message: "the recommendation is undetermined",
			Detail: missing, Try: []string{"give the missing verdicts in a review file: --review FILE"}}
	}
	return nil
}

// bumpInput is one side of a report: one package, or the packages of a
// collection.
type bumpInput struct {
	label      string
	collection bool
	sides      []bump.Side
}

// bumpReport builds the report of two sides, the same for the command
// and the MCP tool; reviewPath may be empty. Two packages give a
// *bump.Report, two collections a *bump.CollectionReport.
func (e *env) bumpReport(ctx context.Context, before, after, reviewPath string) (any, error) {
	var review *bump.Review
	if reviewPath != "" {
		f, err := os.Open(reviewPath)
		if err != nil {
			return nil, askerr.IO("cannot read review "+e.Rel(reviewPath), err)
		}
		review, err = bump.DecodeReview(f, e.Rel(reviewPath))
		f.Close()
		if err != nil {
			return nil, err
		}
	}
	b, err := e.bumpInput(ctx, before)
	if err != nil {
		return nil, err
	}
	a, err := e.bumpInput(ctx, after)
	if err != nil {
		return nil, err
	}
	switch {
	case !b.collection && !a.collection:
		return bump.Compare(b.sides[0], a.sides[0], review), nil
	case b.collection && a.collection:
		return bump.CompareCollections(b.label, b.sides, a.label, a.sides, review), nil
	}
	kind := func(in bumpInput) string {
		if in.collection {
			return "a collection"
		}
		return "one package"
	}
	return nil, &askerr.Error{Code: bump.CodeInputInvalid,
		Message: fmt.Sprintf("%s is %s and %s is %s: a report compares a package with a package, or a collection with a collection", b.label, kind(b), a.label, kind(a)),
		Try:     []string{"name the package folder inside the collection, e.g. agent-skills report bump name@1.2.0 skills/name"}}
}

// bumpInput reads one side of a report: a folder (captured now: a
// package, or a collection when its root is no package), a snapshot or
// observation file, or a published name@version.
func (e *env) bumpInput(ctx context.Context, arg string) (bumpInput, error) {
	if fi, err := os.Stat(arg); err == nil {
		if fi.IsDir() {
			return e.folderInput(arg)
		}
		return e.fileInput(arg)
	}
	if strings.Contains(arg, "@") {
		s, err := e.publishedSide(ctx, arg)
		return bumpInput{label: s.Label, sides: []bump.Side{s}}, err
	}
	return bumpInput{}, &askerr.Error{Code: bump.CodeInputInvalid,
		Message: fmt.Sprintf("%s is neither a folder, a file nor a published name@version", arg),
		Try:     []string{"agent-skills report bump <name>@<version> <package folder>"}}
}

// observedInput turns a snapshot into sides whose files' contents are
// known; encoded are its bytes (nil: encode it).
func observedInput(label string, s *snapshot.Snapshot, encoded []byte) (bumpInput, error) {
	if encoded == nil {
		var err error
		if encoded, err = snapshot.Encode(s); err != nil {
			return bumpInput{}, askerr.Internal("cannot encode a snapshot", err)
		}
	}
	o, err := s.Observe(encoded, nil, nil)
	if err != nil {
		return bumpInput{}, err
	}
	in := bumpInput{label: label, collection: s.Kind == "collection"}
	for i := range s.Packages {
		p := &s.Packages[i]
		side := bump.Side{Label: label, Package: o.Packages[i], Content: func(name string) []byte {
			if f := p.File(name); f != nil {
				return f.Content
			}
			return nil
		}}
		if in.collection {
			side.Label = p.Path
		}
		in.sides = append(in.sides, side)
	}
	if !in.collection && len(in.sides) != 1 {
		return bumpInput{}, onePackage(label, len(in.sides))
	}
	return in, nil
}

func onePackage(label string, n int) error {
	return &askerr.Error{Code: bump.CodeInputInvalid,
		Message: fmt.Sprintf("%s holds %d packages where one package was expected", label, n),
		Try:     []string{"capture the package itself: agent-skills snapshot capture <package folder>"}}
}

func (e *env) folderInput(dir string) (bumpInput, error) {
	label := filepath.ToSlash(e.Rel(dir))
	if abs, err := filepath.Abs(dir); err == nil && label == abs {
		label = filepath.Base(abs) // no local path in a report
	}
	fsys := os.DirFS(dir)
	dirs, err := validate.PackageDirs(fsys)
	if err != nil {
		return bumpInput{}, askerr.IO("cannot list the packages of "+e.Rel(dir), err)
	}
	if len(dirs) == 0 || slices.Contains(dirs, ".") {
		s, err := captureSide(label, fsys, "agent-skills validate "+e.Rel(dir))
		return bumpInput{label: label, sides: []bump.Side{s}}, err
	}
	for _, d := range dirs {
		sub, err := fs.Sub(fsys, d)
		if err != nil {
			return bumpInput{}, askerr.IO("cannot open "+d, err)
		}
		if err := loadable(label+"/"+d, sub, "agent-skills validate "+e.Rel(filepath.Join(dir, d))); err != nil {
			return bumpInput{}, err
		}
	}
	s, err := snapshot.CaptureCollection(fsys, snapshot.Options{Load: workspace.LoadOptions()})
	if err != nil {
		return bumpInput{}, err
	}
	return observedInput(label, s, nil)
}

// captureSide captures the package at the root of fsys.
func captureSide(label string, fsys fs.FS, try string) (bump.Side, error) {
	if err := loadable(label, fsys, try); err != nil {
		return bump.Side{}, err
	}
	s, err := snapshot.CapturePackage(fsys, snapshot.Options{Load: workspace.LoadOptions()})
	if err != nil {
		return bump.Side{}, err
	}
	in, err := observedInput(label, s, nil)
	if err != nil {
		return bump.Side{}, err
	}
	return in.sides[0], nil
}

// loadable refuses a package whose manifest or entrypoint does not load:
// its contract is not known, and comparing it would report every field
// as removed.
func loadable(label string, fsys fs.FS, try string) error {
	_, ds := format.Load(fsys, workspace.LoadOptions())
	if !ds.HasErrors() {
		return nil
	}
	e := &askerr.Error{Code: askerr.CodeValidationFailed, Diagnostics: ds,
		Message: fmt.Sprintf("%s cannot be compared: its package does not load", label), Try: []string{try}}
	for _, d := range ds {
		if d.Severity == format.SeverityError {
			e.Detail = append(e.Detail, d.String())
		}
	}
	return e
}

func (e *env) fileInput(file string) (bumpInput, error) {
	label := filepath.Base(file)
	b, err := atomicfile.ReadPlain(file, true, snapshot.MaxSize)
	if errors.Is(err, atomicfile.ErrTooLarge) {
		return bumpInput{}, &askerr.Error{Code: snapshot.CodeInvalid, Message: label + " is larger than a snapshot can be"}
	}
	if err != nil {
		return bumpInput{}, askerr.IO("cannot read "+e.Rel(file), err)
	}
	var head struct {
		Schema string `json:"schema"`
	}
	_ = json.Unmarshal(b, &head)
	switch head.Schema {
	case snapshot.ObservationSchema:
		o, err := snapshot.DecodeObservation(bytes.NewReader(b), label)
		if err != nil {
			return bumpInput{}, err
		}
		in := bumpInput{label: label, collection: o.Kind == "collection"}
		for _, p := range o.Packages {
			side := bump.Side{Label: label, Package: p}
			if in.collection {
				side.Label = p.Path
			}
			in.sides = append(in.sides, side)
		}
		if !in.collection && len(in.sides) != 1 {
			return bumpInput{}, onePackage(label, len(in.sides))
		}
		return in, nil
	case snapshot.Schema:
		s, err := snapshot.Decode(bytes.NewReader(b), label)
		if err != nil {
			return bumpInput{}, err
		}
		return observedInput(label, s, b)
	}
	return bumpInput{}, &askerr.Error{Code: bump.CodeInputInvalid,
		Message: fmt.Sprintf("%s is neither a snapshot (%s) nor an observation (%s)", label, snapshot.Schema, snapshot.ObservationSchema),
		Try:     []string{"agent-skills snapshot capture <package folder> --out FILE"}}
}

// publishedSide fetches name@version (a version, a range or latest) from
// the configured registries, verified against its index integrity.
func (e *env) publishedSide(ctx context.Context, arg string) (bump.Side, error) {
	ref, err := resolve.ParseReference(arg)
	if err != nil {
		return bump.Side{}, err
	}
	set, _, err := e.ws.Configured()
	if err != nil {
		return bump.Side{}, err
	}
	reg, sk, err := set.Lookup(ctx, ref.Registry, ref.Name)
	if err != nil {
		return bump.Side{}, err
	}
	v, err := pickVersion(sk, ref.Range)
	if err != nil {
		return bump.Side{}, err
	}
	pkg, _, _, err := set.Fetch(ctx, reg.Name(), ref.Name, v)
	if err != nil {
		return bump.Side{}, err
	}
	return captureSide(ref.Name+"@"+v, pkg.FS, "agent-skills info "+ref.Name+"@"+v)
}

// pickVersion returns the published version r names: itself, the latest
// for "" or latest, else the highest version the range allows.
func pickVersion(sk *registry.Skill, r string) (string, error) {
	if r == "" || r == "latest" {
		if sk.Latest != "" {
			return sk.Latest, nil
		}
	} else if v, ok := sk.Version(r); ok {
		return v.Version, nil
	}
	c, err := semver.NewConstraint(orDefault(r, "*"))
	if err == nil {
		for _, v := range sk.Sorted() {
			if sv := v.Semver(); sv != nil && c.Check(sv) {
				return v.Version, nil
			}
		}
	}
	return "", &askerr.Error{Code: registry.CodeVersionNotFound,
		Message: fmt.Sprintf("%s has no published version %q", sk.Name, r),
		Try:     []string{"agent-skills info " + sk.Name + "   (lists its versions)"}}
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
