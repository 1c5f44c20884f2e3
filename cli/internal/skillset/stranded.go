package skillset

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/resolve"
)

// This file keeps installed skills whose registry can no longer answer
// for them — the registry was removed from the configuration or renamed,
// cannot be reached, or no longer lists the installed version — where
// they are. Such a skill is "stranded": its receipt and skills.lock still
// say what it is, so it stays at its installed version while other skills
// are installed, updated or removed, and the run warns once per registry
// instead of failing on a registry it does not need. Only what needs the
// registry's bytes stops: restoring a stranded skill that is not in place
// (see restoreStranded).

// stranded is an installed skill whose registry cannot answer for it.
type stranded struct {
	resolve.Pin
	// gone says what is wrong with the registry; why says it in words.
	gone gone
	why  string
	// requires are the skill's relations as its installed copy declares
	// them, or the versions skills.lock or its receipt recorded.
	requires resolve.Requirements
}

// gone says why a registry cannot answer for an installed skill.
type gone int

const (
	notGone gone = iota
	// goneUnknown: the registry is not configured (removed, or renamed).
	goneUnknown
	// goneUnreachable: it is configured, and its index cannot be read.
	goneUnreachable
	// goneSkill: its index no longer lists the skill.
	goneSkill
	// goneVersion: its index lists the skill, not the installed version;
	// update can still move such a skill.
	goneVersion
)

// strandedSkills returns the installed skills of the scope whose registry
// cannot answer for them, by name, reading the registries' indexes once.
// The result is kept for the rest of the run. A cancelled run and an
// index that fails its checks (ASK_REGISTRY_INVALID_INDEX, a security
// failure) are errors, as they are for every other lookup.
func (p *op) strandedSkills() (map[string]*stranded, error) {
	if p.strandedCache != nil {
		return p.strandedCache, nil
	}
	installed, err := p.installedVersions()
	if err != nil {
		return nil, err
	}
	out := map[string]*stranded{}
	for _, name := range slices.Sorted(maps.Keys(installed)) {
		pin := installed[name]
		g, why, err := registryGone(p.ctx, p.Registries, pin.Registry, name, pin.Version)
		if err != nil {
			return nil, err
		}
		if g != notGone {
			out[name] = &stranded{Pin: pin, gone: g, why: why}
		}
	}
	if len(out) > 0 {
		if err := p.strandedRequirements(out); err != nil {
			return nil, err
		}
	}
	p.strandedCache = out
	return out, nil
}

// registryGone says whether and why registry reg cannot answer for
// name@version, in words for messages.
func registryGone(ctx context.Context, set *registry.Set, reg, name, version string) (gone, string, error) {
	r, ok := set.Get(reg)
	if !ok {
		return goneUnknown, fmt.Sprintf("registry %q is not configured", reg), nil
	}
	idx, err := r.Index(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return notGone, "", ctx.Err()
		}
		// An index that is there but cannot be trusted — malformed, unsigned,
		// wrongly signed — is a failure, never "cannot be reached": an
		// installed copy must not stay silently on a registry that fails
		// its checks.
		for _, code := range []string{registry.CodeRegistryInvalidIndex, registry.CodeSignatureMissing,
			registry.CodeSignatureInvalid, registry.CodeIntegrityMismatch} {
			if askerr.Is(err, code) {
				return notGone, "", err
			}
		}
		return goneUnreachable, fmt.Sprintf("registry %q cannot be reached (%s)", reg, firstLine(err.Error())), nil
	}
	if sk, ok := idx.Skill(name); !ok {
		return goneSkill, fmt.Sprintf("registry %q no longer lists %s", reg, name), nil
	} else if _, ok := sk.Version(version); !ok {
		return goneVersion, fmt.Sprintf("registry %q no longer lists %s %s", reg, name, version), nil
	}
	return notGone, "", nil
}

// strandedRequirements fills in what each stranded skill requires: the
// ranges of the skill.yaml of an installed copy at its version that its
// receipt says is unchanged, which are the bytes the registry published;
// failing that (a lock entry not installed here, a copy the user edited),
// the exact versions skills.lock or a receipt recorded for its
// dependencies, which is all that is known of them.
func (p *op) strandedRequirements(kept map[string]*stranded) error {
	found, err := p.scan()
	if err != nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(kept)) {
		s := kept[name]
		var recorded map[string]string
		if p.lock != nil {
			if l, ok := p.lock.Skills[name]; ok && l.Version == s.Version {
				recorded = l.Dependencies
			}
		}
		done := false
		for _, in := range found {
			if in.Name != name || in.Version != s.Version || in.State == install.StateUnmanaged || in.State == install.StateReceiptBroken {
				continue
			}
			if recorded == nil {
				recorded = in.Dependencies
			}
			if in.State != install.StateOK {
				continue
			}
			if req, ok := manifestRequirements(in); ok {
				s.requires, done = req, true
				break
			}
		}
		if !done {
			for _, d := range slices.Sorted(maps.Keys(recorded)) {
				s.requires.Dependencies = append(s.requires.Dependencies, resolve.Constraint{Name: d, Range: "=" + recorded[d]})
			}
		}
	}
	return nil
}

// manifestRequirements reads the relations an installed copy's
// skill.yaml declares, a regular file only. A copy without one (a bare
// skill, a file-shaped package) declares none only when its receipt
// recorded none either.
func manifestRequirements(in install.Installed) (resolve.Requirements, bool) {
	none := in.Dependencies != nil && len(in.Dependencies) == 0
	fi, err := os.Lstat(in.Dest)
	if err != nil || !fi.IsDir() {
		return resolve.Requirements{}, none
	}
	path := filepath.Join(in.Dest, "skill.yaml")
	fi, err = os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return resolve.Requirements{}, none
	}
	if err != nil || !fi.Mode().IsRegular() {
		return resolve.Requirements{}, false
	}
	f, err := os.Open(path)
	if err != nil {
		return resolve.Requirements{}, false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, format.DefaultMaxManifestSize+1))
	if err != nil || int64(len(data)) > format.DefaultMaxManifestSize {
		return resolve.Requirements{}, false
	}
	m, diags := format.DecodeManifest(data, "skill.yaml")
	if m == nil || diags.HasErrors() {
		return resolve.Requirements{}, false
	}
	conv := func(ds []format.Dependency) []resolve.Constraint {
		out := make([]resolve.Constraint, len(ds))
		for i, d := range ds {
			out[i] = resolve.Constraint{Name: d.Name, Range: d.Version}
		}
		return out
	}
	return resolve.Requirements{Dependencies: conv(m.Dependencies), Optional: conv(m.OptionalDependencies), Suggests: m.Suggests}, true
}

// keptSource is the resolver's view of the registries with the stranded
// skills in them: each is published, by the registry it was installed
// from, at its installed version only, requiring what its installed copy
// declares. Every other question goes to the registries.
type keptSource struct {
	setSource
	kept map[string]*stranded
}

func (k keptSource) Versions(ctx context.Context, reg, name string) (string, []resolve.Published, error) {
	if s, ok := k.kept[name]; ok && reg == s.Registry {
		return s.Registry, []resolve.Published{{Version: s.Version}}, nil
	}
	return k.setSource.Versions(ctx, reg, name)
}

func (k keptSource) Requirements(ctx context.Context, reg, name, version string) (resolve.Requirements, error) {
	if s, ok := k.kept[name]; ok && reg == s.Registry && version == s.Version {
		return s.requires, nil
	}
	return k.setSource.Requirements(ctx, reg, name, version)
}

// warnStranded warns, once per registry, that the named stranded skills
// stay at their installed versions, saying what would let them move.
func (p *op) warnStranded(kept map[string]*stranded, names []string) {
	byReg := map[string][]string{}
	for _, n := range names {
		if s, ok := kept[n]; ok && !p.strandedWarned[n] {
			byReg[s.Registry] = append(byReg[s.Registry], n)
		}
	}
	if p.strandedWarned == nil && len(byReg) > 0 {
		p.strandedWarned = map[string]bool{}
	}
	for _, reg := range slices.Sorted(maps.Keys(byReg)) {
		ns := byReg[reg]
		slices.Sort(ns)
		var skills []string
		for _, n := range ns {
			skills = append(skills, n+" "+kept[n].Version)
			p.strandedWarned[n] = true
		}
		s := kept[ns[0]]
		stays, it := "stays at its installed version", "it"
		if len(ns) > 1 {
			stays, it = "stay at their installed versions", "them"
		}
		var fix string
		switch s.gone {
		case goneUnknown:
			fix = fmt.Sprintf("agent-skills registry add %s <url> lets update move %s", reg, it)
		case goneVersion:
			fix = fmt.Sprintf("agent-skills update %s moves %s to a version %s lists", strings.Join(ns, " "), it, reg)
		case goneSkill:
			fix = fmt.Sprintf("install %s from another registry or source with --force to replace %s", it, it)
		default:
			fix = fmt.Sprintf("update moves %s once %s can be reached", it, reg)
		}
		p.warn("%s: %s %s (%s)", s.why, strings.Join(skills, ", "), stays, fix)
	}
}

// firstLine returns the first line of s.
func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// restoreStranded decides, before a restore fetches anything, what to do
// with the locked skills whose registry cannot answer for them. Those
// already in place for every selected agent that the lock lists (by their
// receipts: the locked version and digest) stay as they are, with a
// warning; wants keeps the others. A locked skill that is not in place and
// whose registry is not configured cannot be restored: that is one
// ASK_REGISTRY_UNKNOWN naming every such skill and registry, before
// anything is fetched. A registry that is configured but cannot be
// reached fails when the fetch asks it, as it would for any skill.
func (p *op) restoreStranded(wants []want) ([]want, error) {
	var out []want
	var found []install.Installed
	scanned := false
	var inPlace []string
	missing := map[string][]string{}
	kept := map[string]*stranded{}
	for _, w := range wants {
		g, why, err := registryGone(p.ctx, p.Registries, w.registry, w.name, w.version)
		if err != nil {
			return nil, err
		}
		if g == notGone {
			out = append(out, w)
			continue
		}
		if !scanned {
			if found, err = p.scan(); err != nil {
				return nil, err
			}
			scanned = true
		}
		if p.heldEverywhere(found, w) {
			kept[w.name] = &stranded{Pin: resolve.Pin{Version: w.version, Registry: w.registry}, gone: g, why: why}
			inPlace = append(inPlace, w.name)
			continue
		}
		if g != goneUnknown {
			out = append(out, w) // the fetch reports the registry's own failure
			continue
		}
		missing[w.registry] = append(missing[w.registry], w.name+" "+w.version)
	}
	if len(missing) > 0 {
		return nil, p.unknownRegistriesError(missing)
	}
	p.warnStranded(kept, inPlace)
	return out, nil
}

// heldEverywhere reports whether every selected agent the lock lists for
// w holds it as the lock records it: at w's version and digest, by a
// receipt that names w's registry.
func (p *op) heldEverywhere(found []install.Installed, w want) bool {
	var same []install.Installed
	for _, in := range found {
		if in.Registry == w.registry && in.Source == "" {
			same = append(same, in)
		}
	}
	held := heldBy(same, w.name, &lockEntry{Version: w.version, Integrity: w.integrity})
	var listed []string
	if p.lock != nil {
		listed = p.lock.Skills[w.name].Agents
	}
	some := false
	for _, a := range p.AgentIDs() {
		if len(listed) > 0 && !slices.Contains(listed, a) {
			continue
		}
		if !held[a] {
			return false
		}
		some = true
	}
	return some
}

// unknownRegistriesError is the ASK_REGISTRY_UNKNOWN of a restore that
// needs registries the configuration does not name (skills.lock records
// only their names; each entry's resolved field says where its bytes were
// fetched from, which is often enough to tell which registry it was).
func (p *op) unknownRegistriesError(missing map[string][]string) error {
	regs := slices.Sorted(maps.Keys(missing))
	var detail, try []string
	for _, reg := range regs {
		names := missing[reg]
		slices.Sort(names)
		for _, n := range names {
			line := fmt.Sprintf("%s comes from registry %q", n, reg)
			name, _, _ := strings.Cut(n, " ")
			if l, ok := p.lock.Skills[name]; ok && l.Resolved != "" {
				line += ", fetched from " + l.Resolved
			}
			detail = append(detail, line)
		}
		try = append(try, "agent-skills registry add "+reg+" <url>")
	}
	detail = append(detail, "Nothing was installed.")
	try = append(try, "agent-skills registry list   (renamed? add its URL again under the name skills.lock uses)")
	msg := fmt.Sprintf("skills.lock needs registry %q, which is not configured", regs[0])
	if len(regs) > 1 {
		quoted := make([]string, len(regs))
		for i, r := range regs {
			quoted[i] = fmt.Sprintf("%q", r)
		}
		msg = "skills.lock needs registries that are not configured: " + strings.Join(quoted, ", ")
	}
	return &askerr.Error{Code: registry.CodeRegistryUnknown, Message: msg, Detail: detail, Try: try}
}

// keptStranded returns the stranded skills that a resolution keeps where
// they are: all but those it moves.
func (p *op) keptStranded(moved map[string]bool) (map[string]*stranded, error) {
	all, err := p.strandedSkills()
	if err != nil {
		return nil, err
	}
	kept := map[string]*stranded{}
	for n, s := range all {
		if !moved[n] {
			kept[n] = s
		}
	}
	return kept, nil
}

// stayed returns the stranded skills that plan keeps, from the registry
// they were installed from (a qualified request may take one from
// another registry instead).
func stayed(plan *resolve.Plan, kept map[string]*stranded) []string {
	var out []string
	for _, sel := range plan.Skills {
		if s, ok := kept[sel.Name]; ok && s.Registry == sel.Registry && s.Version == sel.Version {
			out = append(out, sel.Name)
		}
	}
	return out
}

// strandedDetail adds to a version conflict, or a range nothing meets,
// which skills were held at their installed versions because their
// registries cannot answer: that is why the resolver saw one version of
// each.
func strandedDetail(err error, kept map[string]*stranded) error {
	if len(kept) == 0 || !askerr.Is(err, resolve.CodeDependencyConflict) && !askerr.Is(err, resolve.CodeVersionNotFound) {
		return err
	}
	var held []string
	for _, n := range slices.Sorted(maps.Keys(kept)) {
		held = append(held, fmt.Sprintf("%s %s (%s)", n, kept[n].Version, kept[n].why))
	}
	return askerr.WithHints(err, []string{"Held at their installed versions, since their registries cannot answer for them: " + strings.Join(held, ", ")}, nil)
}
