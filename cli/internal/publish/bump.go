package publish

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/bump"
	"github.com/agent-skills/agent-skills/cli/internal/snapshot"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/registry"
)

// BumpError is ASK_PUBLISH_BUMP_TOO_SMALL: the version step is below what
// the bump report needs. It carries the report, for the caller to show.
type BumpError struct {
	Err    *askerr.Error
	Report *bump.Report
}

// Error returns the message.
func (e *BumpError) Error() string { return e.Err.Error() }

// Unwrap returns the coded error.
func (e *BumpError) Unwrap() error { return e.Err }

// BumpCheck asks Prepare to compare the package with the target's latest
// version and to refuse a version step below the recommendation.
type BumpCheck struct {
	// Review is the reviewer's verdicts (publish --review), or nil.
	Review *bump.Review
	// Accept publishes whatever the report says (publish --accept-bump);
	// the report is still made and returned.
	Accept bool
}

// checkBump compares the package in fsys with the latest version of its
// name in idx, puts the report in plan.Bump, and refuses a version step
// below the recommendation, or below what the decided changes need when
// the recommendation is undetermined (which is only a warning otherwise:
// the missing verdicts could only raise it).
//
// A latest version that lives in pkgDir itself (a collection that is its
// own registry folder, published in place) has no bytes left to compare
// with: the check is skipped with a warning.
func checkBump(ctx context.Context, target Target, idx *registry.Index, pkgDir string, fsys fs.FS, load format.LoadOptions, name, version string, check *BumpCheck, plan *Plan) error {
	s, ok := idx.Skill(name)
	if !ok || s.Latest == "" {
		return nil
	}
	latest, ok := s.Version(s.Latest)
	if !ok {
		return nil
	}
	if ft, ok := target.(FolderTarget); ok && latest.Tarball == "" && latest.Path != "" &&
		sameDir(filepath.Join(ft.Root, filepath.FromSlash(strings.TrimSuffix(latest.Path, "/"))), pkgDir) {
		plan.Warnings = append(plan.Warnings, fmt.Sprintf("no bump report: %s@%s lives in the package folder itself, whose bytes are now %s's; "+
			"compare a snapshot or a copy of %s with agent-skills report bump <before> %s", name, latest.Version, version, latest.Version, name))
		return nil
	}
	var before bump.Side
	err := target.Published(ctx, name, latest, func(pkg *format.Package) error {
		var err error
		before, err = side(name+"@"+latest.Version, pkg.FS, load)
		return err
	})
	if err != nil {
		return err
	}
	after, err := side(filepath.Base(pkgDir), fsys, load)
	if err != nil {
		return err
	}
	r := bump.Compare(before, after, check.Review)
	plan.Bump = r
	step, ok := bump.VersionBump(latest.Version, version)
	if !ok {
		return nil // checkVersion decides about a version that is not newer
	}
	need, decided := bump.Category(r.Recommendation), true
	if r.Recommendation == bump.Undetermined {
		need, decided = r.AtLeast, false
	}
	if bump.Below(step, need) {
		if check.Accept {
			plan.Warnings = append(plan.Warnings, fmt.Sprintf("%s -> %s is a %s step and the changes need %s%s; published anyway (--accept-bump)",
				latest.Version, version, step, orAtLeast(decided), need))
			return nil
		}
		return &BumpError{Report: r, Err: &Error{Code: CodePublishBumpTooSmall,
			Message: fmt.Sprintf("%s %s -> %s is a %s step, and the changes since %s need %s%s", name, latest.Version, version, step, latest.Version, orAtLeast(decided), need),
			Detail:  bumpDetail(r, need),
			Try: []string{"raise version in skill.yaml (and SKILL.md if it declares one) to a " + string(need) + " step, then publish again",
				"agent-skills report bump " + name + "@" + latest.Version + " <package folder>   (the whole report)",
				"publish --accept-bump   (publish this version anyway)"}}}
	}
	if !decided && step != bump.Major && !check.Accept {
		plan.Warnings = append(plan.Warnings, fmt.Sprintf("the bump report against %s@%s is undetermined, so the %s step may be too small; missing: %s",
			name, latest.Version, step, joinSemi(r.Missing)))
	}
	return nil
}

func orAtLeast(decided bool) string {
	if decided {
		return ""
	}
	return "at least "
}

// bumpDetail lists the changes that need more than a smaller step.
func bumpDetail(r *bump.Report, need bump.Category) []string {
	var out []string
	for _, c := range r.Changes {
		if c.Category == need {
			out = append(out, fmt.Sprintf("%s: %s (rule %s)", c.ID, c.Category, c.Rule))
		}
	}
	for _, m := range r.Missing {
		out = append(out, "missing: "+m)
	}
	return out
}

func joinSemi(ss []string) string {
	out := ""
	for i, s := range ss {
		if i > 0 {
			out += "; "
		}
		out += s
	}
	return out
}

// side captures the package at the root of fsys as a side of a report.
func side(label string, fsys fs.FS, load format.LoadOptions) (bump.Side, error) {
	s, err := snapshot.CapturePackage(fsys, snapshot.Options{Load: load})
	if err != nil {
		return bump.Side{}, err
	}
	enc, err := snapshot.Encode(s)
	if err != nil {
		return bump.Side{}, err
	}
	o, err := s.Observe(enc, nil, nil)
	if err != nil {
		return bump.Side{}, err
	}
	p := &s.Packages[0]
	return bump.Side{Label: label, Package: o.Packages[0], Content: func(name string) []byte {
		if f := p.File(name); f != nil {
			return f.Content
		}
		return nil
	}}, nil
}
