package publish

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/bump"

	"github.com/Masterminds/semver/v3"
	"go.yaml.in/yaml/v3"

	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/scan"
	"github.com/agent-skills/agent-skills/validate"
)

// Options tune Prepare.
type Options struct {
	// OverrideKeys is the agentOverrides allowlist of the agent adapters,
	// passed to validate (see validate.Options.OverrideKeys).
	OverrideKeys map[string][]string
	// AgentFrontMatterKeys lists the agent-specific front-matter keys; nil
	// means validate's defaults.
	AgentFrontMatterKeys map[string][]string
	// Load is passed to format.Load (the CLI sets Inspect to refuse hard
	// links).
	Load format.LoadOptions
	// KnownAgents lists the agent ids compatibility.agents may name; nil
	// skips the check.
	KnownAgents []string
	// Now returns the publication time written as publishedAt; nil leaves
	// publishedAt out, which keeps a generated index reproducible.
	Now func() time.Time
	// AllowRisk lists rule ids (publish --allow-risk) whose blocking
	// findings do not stop publishing. An id scan does not know is
	// ASK_USAGE.
	AllowRisk []string
	// Bump, when set, compares the package with the target's latest
	// version and refuses a version step below the recommendation
	// (ASK_PUBLISH_BUMP_TOO_SMALL); nil skips the comparison.
	Bump *BumpCheck
}

// Plan is a package ready to publish: what Prepare checked and computed,
// and what Target.Write needs.
type Plan struct {
	// Name and Version identify the package.
	Name    string `json:"name"`
	Version string `json:"version"`
	// Integrity is the canonical digest of the package's file set.
	Integrity string `json:"integrity"`
	// Path is the registry-relative folder the package is published to.
	Path string `json:"path"`
	// Files is the package's file set, sorted.
	Files []string `json:"files"`
	// Skill is the skills[] item of the index as publishing makes it:
	// name, description, keywords, the resulting latest, and only the new
	// version (Write merges it with the versions already listed).
	Skill *registry.Skill `json:"skill"`
	// Entry is Skill rendered as the YAML item of registry/skills.yaml.
	Entry []byte `json:"-"`
	// EntryJSON is Skill rendered as indented JSON.
	EntryJSON []byte `json:"-"`
	// Dependencies maps every skill the package needs, directly or not, to
	// the version the target registry would resolve it to.
	Dependencies map[string]string `json:"dependencies,omitempty"`
	// Warnings are problems that do not stop publishing, such as an
	// optional dependency the target registry cannot resolve.
	Warnings []string `json:"warnings,omitempty"`
	// Skipped names the checks that need a registry and were not run
	// because Prepare was given none (a package only packed).
	Skipped []string `json:"skipped,omitempty"`
	// Findings are what the content scan found: what users will see when
	// they install the package. Accepted are the ones that would block an
	// install and that AllowRisk let through.
	Findings []scan.Finding  `json:"findings,omitempty"`
	Accepted []scan.Accepted `json:"accepted,omitempty"`
	// Bump is the report of the package against the target's latest
	// version, when Options.Bump asked for it and there is one.
	Bump *bump.Report `json:"bump,omitempty"`
	// SignIndex, when set, signs the index document Write produces: its
	// result is written atomically beside the index as
	// registry/skills.yaml.sig (see Sign).
	SignIndex func(index []byte) ([]byte, error) `json:"-"`
}

// Sign records the package signatures of the new version (compact SSH
// signatures over registry.PackageStatement) and the index signer, and
// renders the entry again so that it shows them.
func (p *Plan) Sign(signatures []string, signIndex func([]byte) ([]byte, error)) error {
	p.NewVersion().Signatures = signatures
	p.SignIndex = signIndex
	p.Entry = encodeItem(p.Skill)
	j, err := json.MarshalIndent(p.Skill, "", "  ")
	if err != nil {
		return err
	}
	p.EntryJSON = append(j, '\n')
	return nil
}

// The checks Prepare skips without a target registry.
const (
	SkippedVersion      = "the version is new and above the registry's latest"
	SkippedDependencies = "every dependency resolves in the registry"
)

// NewVersion returns the index entry of the published version.
func (p *Plan) NewVersion() *registry.Version { return p.Skill.Versions[0] }

// Prepare checks the package in pkgDir for publication to target and
// returns its Plan, in the order of DESIGN §9:
//
//  1. strict validation (validate.Dir with Strict); any error is
//     ASK_VALIDATION_FAILED carrying every diagnostic;
//  2. the version is not in the target index (ASK_PUBLISH_VERSION_EXISTS)
//     and is greater than its latest, or than every version for a
//     prerelease (ASK_PUBLISH_VERSION_NOT_NEWER); with opts.Bump, the
//     version step from the latest is at least what the bump report
//     against the latest needs (ASK_PUBLISH_BUMP_TOO_SMALL, a *BumpError
//     carrying the report);
//  3. the dependency graph resolves against the target registry (the
//     resolver's errors, such as ASK_SKILL_NOT_FOUND); a missing optional
//     dependency is a warning;
//  4. every compatibility.agents[].id is in opts.KnownAgents
//     (ASK_AGENT_UNKNOWN);
//  5. the integrity is format.Digest over the file set;
//  6. the index entry is built, at the folder target.Locate chooses.
//
// Between 1 and 2 the content scanner runs (scan.Package) and the install
// gate (scan.DefaultGate) judges its findings: a finding that would block
// every user's install is ASK_CONTENT_RISK (a *RiskError carrying the
// findings) unless opts.AllowRisk accepts its rule. Every finding is in
// Plan.Findings.
//
// A nil target is a package prepared for no registry (publish --pack
// alone): checks 2 and 3, which need one, are skipped and listed in
// Plan.Skipped, and the entry has no path.
func Prepare(ctx context.Context, pkgDir string, target Target, opts Options) (*Plan, error) {
	abs, err := filepath.Abs(pkgDir)
	if err != nil {
		return nil, err
	}
	if info, err := os.Stat(abs); err != nil || !info.IsDir() {
		return nil, &Error{
			Code:    askerr.CodeUsage,
			Message: fmt.Sprintf("%s is not a package folder", pkgDir),
			Err:     err,
			Try:     []string{"agent-skills publish <folder holding skill.yaml>"},
		}
	}
	gate, err := riskGate(opts.AllowRisk)
	if err != nil {
		return nil, err
	}
	fsys := os.DirFS(abs)
	diags := validate.Dir(fsys, filepath.Base(abs), validate.Options{
		Gate:                 validate.GateStrict,
		OverrideKeys:         opts.OverrideKeys,
		AgentFrontMatterKeys: opts.AgentFrontMatterKeys,
		Load:                 opts.Load,
	})
	if diags.HasErrors() {
		n := 0
		for _, d := range diags {
			if d.Severity == format.SeverityError {
				n++
			}
		}
		return nil, &Error{
			Code:        askerr.CodeValidationFailed,
			Message:     fmt.Sprintf("%s is not publishable: %d validation error(s)", pkgDir, n),
			Diagnostics: diags,
			Try:         []string{"agent-skills validate --strict " + pkgDir, "fix every error, then publish again"},
		}
	}
	pkg, _ := format.Load(fsys, opts.Load)
	if pkg == nil || pkg.Manifest == nil {
		// Strict validation refuses a package without a decodable manifest.
		return nil, fmt.Errorf("publish: %s: the manifest cannot be read", pkgDir)
	}
	m := pkg.Manifest
	plan := &Plan{Name: m.Name, Version: m.Version, Files: pkg.Files}
	if err := checkContent(pkg, pkgDir, gate, plan); err != nil {
		return nil, err
	}
	idx := &registry.Index{}
	if target == nil {
		plan.Skipped = []string{SkippedVersion, SkippedDependencies}
	} else {
		if idx, err = target.Index(ctx); err != nil {
			return nil, err
		}
		if err := checkVersion(idx, m.Name, m.Version); err != nil {
			return nil, err
		}
		if opts.Bump != nil {
			if err := checkBump(ctx, target, idx, abs, fsys, opts.Load, m.Name, m.Version, opts.Bump, plan); err != nil {
				return nil, err
			}
		}
		if err := resolveDeps(ctx, target, idx, m, plan); err != nil {
			return nil, err
		}
	}
	if err := checkAgents(m, opts.KnownAgents); err != nil {
		return nil, err
	}
	plan.Integrity, err = format.Digest(pkg.FS, pkg.Files)
	if err != nil {
		return nil, fmt.Errorf("publish: digest of %s: %w", pkgDir, err)
	}
	if target != nil {
		if plan.Path, err = target.Locate(idx, m.Name, abs); err != nil {
			return nil, err
		}
	}
	v := &registry.Version{Version: m.Version, Path: plan.Path, Integrity: plan.Integrity}
	if opts.Now != nil {
		v.PublishedAt = opts.Now().UTC().Format(time.RFC3339)
	}
	plan.Skill = &registry.Skill{
		Name:        m.Name,
		Description: m.Description,
		Keywords:    slices.Clone(m.Keywords),
		Versions:    []*registry.Version{v},
	}
	var existing []*registry.Version
	if s, ok := idx.Skill(m.Name); ok {
		existing = s.Versions
	}
	plan.Skill.Latest = latestOf(append(slices.Clone(existing), v))
	plan.Entry = encodeItem(plan.Skill)
	plan.EntryJSON, err = json.MarshalIndent(plan.Skill, "", "  ")
	if err != nil {
		return nil, err
	}
	plan.EntryJSON = append(plan.EntryJSON, '\n')
	return plan, nil
}

// checkVersion applies the semver sanity rules of DESIGN §9 against the
// target index.
func checkVersion(idx *registry.Index, name, version string) error {
	s, ok := idx.Skill(name)
	if !ok {
		return nil
	}
	nv, err := semver.StrictNewVersion(version)
	if err != nil {
		return fmt.Errorf("publish: version %q: %w", version, err)
	}
	var newest *registry.Version
	for _, v := range s.Versions {
		sv := v.Semver()
		if sv == nil {
			continue
		}
		if sv.Compare(nv) == 0 {
			return &Error{
				Code:    CodePublishVersionExists,
				Message: fmt.Sprintf("%s@%s is already published in the target registry", name, v.Version),
				Detail:  []string{"published versions cannot be replaced: installs locked to it rely on its integrity"},
				Try:     []string{"raise version in skill.yaml (and SKILL.md if it declares one), then publish again"},
			}
		}
		if newest == nil || sv.GreaterThan(newest.Semver()) {
			newest = v
		}
	}
	bar, what := s.Latest, "the latest version"
	if nv.Prerelease() != "" && newest != nil {
		bar, what = newest.Version, "the highest published version (a prerelease must be above every version)"
	}
	if bar == "" {
		return nil
	}
	if lv, err := semver.StrictNewVersion(bar); err == nil && !nv.GreaterThan(lv) {
		return &Error{
			Code:    CodePublishVersionNotNewer,
			Message: fmt.Sprintf("%s@%s is not newer than %s@%s, %s in the target registry", name, version, name, bar, what),
			Try:     []string{fmt.Sprintf("set version in skill.yaml above %s, then publish again", bar)},
		}
	}
	return nil
}

// checkAgents refuses compatibility.agents ids that no adapter knows.
func checkAgents(m *format.Manifest, known []string) error {
	if known == nil {
		return nil
	}
	var unknown []string
	for _, a := range m.Compatibility.Agents {
		if !slices.Contains(known, a.ID) && !slices.Contains(unknown, a.ID) {
			unknown = append(unknown, a.ID)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sorted := slices.Clone(known)
	slices.Sort(sorted)
	return &Error{
		Code:    agents.CodeAgentUnknown,
		Message: fmt.Sprintf("compatibility.agents names unknown agent id(s): %s", strings.Join(unknown, ", ")),
		Detail:  []string{"known agent ids: " + strings.Join(sorted, ", ")},
		Try:     []string{"use one of the known ids in skill.yaml compatibility.agents, or drop the entry"},
	}
}

// latestOf returns the newest non-deprecated release, or the newest
// non-deprecated prerelease when there is no release: the rule
// registry.DecodeIndex applies when an index omits latest.
func latestOf(vs []*registry.Version) string {
	var rel, pre *semver.Version
	var relS, preS string
	for _, v := range vs {
		sv := v.Semver()
		if sv == nil || v.Deprecated {
			continue
		}
		if sv.Prerelease() == "" {
			if rel == nil || sv.GreaterThan(rel) {
				rel, relS = sv, v.Version
			}
		} else if pre == nil || sv.GreaterThan(pre) {
			pre, preS = sv, v.Version
		}
	}
	if rel != nil {
		return relS
	}
	return preS
}

// encodeItem renders a skill as one item of the skills list, indented as
// registry.Index.EncodeYAML writes it.
func encodeItem(s *registry.Skill) []byte {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode([]*registry.Skill{s}); err != nil {
		// Plain strings and bools always encode.
		panic("publish: encoding index entry: " + err.Error())
	}
	_ = enc.Close()
	return b.Bytes()
}
