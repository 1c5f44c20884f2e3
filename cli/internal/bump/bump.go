package bump

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/Masterminds/semver/v3"
	"go.yaml.in/yaml/v3"

	"github.com/agent-skills/agent-skills/cli/internal/snapshot"
	"github.com/agent-skills/agent-skills/format"
)

// ReportSchema is the value of a report's "schema" field.
const ReportSchema = "agent-skills.bump-report/1"

// Side is one of the two packages compared.
type Side struct {
	// Label names the side as the caller gave it (name@version, a file or
	// folder name); it is printed, never read.
	Label string
	// Package is the observed package.
	Package snapshot.Observed
	// Content returns a file's bytes, or nil when they are not available
	// (an observation holds digests only). May be nil.
	Content func(path string) []byte
}

// SideInfo is a side as the report names it.
type SideInfo struct {
	Label   string `json:"label"`
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
	Digest  string `json:"digest"`
}

// Report is the comparison of two packages.
type Report struct {
	Schema string   `json:"schema"`
	Before SideInfo `json:"before"`
	After  SideInfo `json:"after"`
	// Recommendation is none, patch, minor, major or undetermined.
	Recommendation string `json:"recommendation"`
	// AtLeast is, when the recommendation is undetermined, the most severe
	// category the decided changes already need.
	AtLeast Category `json:"atLeast,omitempty"`
	// VersionStep is the category the step between the two versions
	// expresses, when both are versions and after is above before.
	VersionStep *VersionStep `json:"versionStep,omitempty"`
	// Changes are sorted by ID.
	Changes []Change `json:"changes"`
	// Missing says what keeps the recommendation undetermined.
	Missing []string   `json:"missing"`
	Review  *ReviewUse `json:"review,omitempty"`
}

// VersionStep is the release category a version step expresses and
// whether it is enough for the changes.
type VersionStep struct {
	Category Category `json:"category"`
	// Sufficient is false when the step is below the recommendation (or
	// below AtLeast); absent when that cannot be known yet.
	Sufficient *bool `json:"sufficient,omitempty"`
}

// ReviewUse says how a review was used.
type ReviewUse struct {
	Digest string `json:"digest"`
	// Used are the change ids whose verdict was applied.
	Used []string `json:"used"`
	// Unused are verdicts for ids the report does not have.
	Unused []string `json:"unused"`
	// Stale are verdicts given for other bytes than the change's (their
	// digest differs).
	Stale []string `json:"stale"`
	// Conflicts are ids with verdicts that disagree with each other or
	// are below what a rule decided.
	Conflicts []string `json:"conflicts"`
}

// Change is one difference between the two packages.
type Change struct {
	ID string `json:"id"`
	// Subject is "file" or "contract".
	Subject string `json:"subject"`
	// Before and After are the values compared (a range, a key), when the
	// change has some.
	Before string `json:"before,omitempty"`
	After  string `json:"after,omitempty"`
	// Digest identifies what a verdict is given for: the file after the
	// change (before it for a removed file); for a contract change, the
	// package after it.
	Digest string `json:"digest"`
	// Rule is the rule that classified the change, RuleCategory what it
	// decided (review: only a verdict can).
	Rule         string   `json:"rule"`
	RuleCategory Category `json:"ruleCategory"`
	// Category is the change's category after the review: the rule's, a
	// verdict's, or review when it still needs one.
	Category Category       `json:"category"`
	Detail   string         `json:"detail,omitempty"`
	Verdict  *ReviewVerdict `json:"verdict,omitempty"`
}

// Compare reports the changes from before to after and the
// recommendation, applying review (may be nil).
func Compare(before, after Side, review *Review) *Report {
	r := &Report{Schema: ReportSchema, Before: info(before), After: info(after), Changes: []Change{}, Missing: []string{}}
	c := &comparer{before: before, after: after, r: r}
	c.files()
	c.contract()
	slices.SortFunc(r.Changes, func(a, b Change) int { return strings.Compare(a.ID, b.ID) })
	applyReview(r, review)
	decide(r)
	return r
}

func info(s Side) SideInfo {
	return SideInfo{Label: s.Label, Name: s.Package.Contract.Name, Version: s.Package.Contract.Version, Digest: s.Package.Digest}
}

type comparer struct {
	before, after Side
	r             *Report
}

func (c *comparer) add(subject, id, rule, before, after, digest, detail string) {
	cat := ruleNamed(rule).Category
	c.r.Changes = append(c.r.Changes, Change{ID: id, Subject: subject, Before: before, After: after, Digest: digest,
		Rule: rule, RuleCategory: cat, Category: cat, Detail: detail})
}

func (c *comparer) contractChange(id, rule, before, after, detail string) {
	c.add("contract", "contract:"+id, rule, before, after, c.after.Package.Digest, detail)
}

func (c *comparer) files() {
	bf, af := fileMap(c.before.Package), fileMap(c.after.Package)
	linkers := map[string][]string{}
	for _, l := range c.before.Package.Contract.Links {
		if !slices.Contains(linkers[l.Target], l.From) {
			linkers[l.Target] = append(linkers[l.Target], l.From)
		}
	}
	for _, f := range c.before.Package.Files {
		a, ok := af[f.Path]
		switch {
		case !ok:
			var detail []string
			for _, g := range c.after.Package.Files {
				if _, was := bf[g.Path]; !was && g.Digest == f.Digest {
					detail = append(detail, "renamed to "+g.Path+" (the same bytes)")
					break
				}
			}
			rule := RuleFileRemoved
			if from := linkers[f.Path]; len(from) > 0 {
				rule = RuleLinkTargetRemoved
				detail = append(detail, "linked from "+strings.Join(from, ", "))
			}
			c.add("file", "file:"+f.Path+":removed", rule, "", "", f.Digest, strings.Join(detail, "; "))
		case a.Digest != f.Digest:
			rule, detail := RuleFileChanged, ""
			switch {
			case f.Path == format.ManifestFile:
				rule = RuleManifestChanged
			case f.Path == c.after.Package.Contract.Entrypoint && f.Path == c.before.Package.Contract.Entrypoint:
				if only, known := c.frontMatterOnly(f.Path); only {
					rule = RuleFrontMatterOnly
				} else if known {
					detail = "its instructions changed"
				}
			}
			c.add("file", "file:"+f.Path+":changed", rule, "", "", a.Digest, detail)
		}
	}
	for _, f := range c.after.Package.Files {
		if _, ok := bf[f.Path]; !ok {
			c.add("file", "file:"+f.Path+":added", RuleFileAdded, "", "", f.Digest, "")
		}
	}
}

// frontMatterOnly reports whether the entrypoint at p differs only in
// its front matter's name, version and description (each reported as a
// contract change of its own); known is false when the contents are not
// available.
func (c *comparer) frontMatterOnly(p string) (only, known bool) {
	if c.before.Content == nil || c.after.Content == nil {
		return false, false
	}
	b, a := c.before.Content(p), c.after.Content(p)
	if b == nil || a == nil {
		return false, false
	}
	fb, err1 := format.SplitFrontMatter(b)
	fa, err2 := format.SplitFrontMatter(a)
	if err1 != nil || err2 != nil || !fb.Present || !fa.Present || !bytes.Equal(fb.Body, fa.Body) {
		return false, true
	}
	var mb, ma map[string]any
	if yaml.Unmarshal(fb.Data, &mb) != nil || yaml.Unmarshal(fa.Data, &ma) != nil {
		return false, true
	}
	for _, k := range []string{"name", "version", "description"} {
		delete(mb, k)
		delete(ma, k)
	}
	return reflect.DeepEqual(mb, ma), true
}

func fileMap(p snapshot.Observed) map[string]snapshot.ObservedFile {
	m := make(map[string]snapshot.ObservedFile, len(p.Files))
	for _, f := range p.Files {
		m[f.Path] = f
	}
	return m
}

func (c *comparer) contract() {
	b, a := c.before.Package.Contract, c.after.Package.Contract
	if b.Name != a.Name {
		c.contractChange("name:changed", RuleNameChanged, b.Name, a.Name, "")
	}
	if b.Kind != a.Kind {
		c.contractChange("kind:changed", RuleKindChanged, b.Kind, a.Kind, "")
	}
	if b.Entrypoint != a.Entrypoint {
		c.contractChange("entrypoint:changed", RuleEntrypointChanged, b.Entrypoint, a.Entrypoint, "")
	}
	if b.Version != a.Version {
		c.contractChange("version:changed", RuleVersionChanged, b.Version, a.Version, "")
	}
	if b.Description != a.Description {
		c.contractChange("description:changed", RuleDescriptionChanged, b.Description, a.Description, "")
	}
	c.dependencies("dependencies", b.Dependencies, a.Dependencies,
		RuleDependencyRemoved, RuleDependencyAdded, RuleRangeNarrowed, RuleRangeWidened)
	c.dependencies("optionalDependencies", b.OptionalDependencies, a.OptionalDependencies,
		RuleOptionalRemoved, RuleOptionalAdded, RuleOptionalNarrowed, RuleOptionalWidened)
	c.set("suggests", b.Suggests, a.Suggests, RuleSuggestionRemoved, RuleSuggestionAdded)
	c.set("capabilities", b.Capabilities, a.Capabilities, RuleCapabilityRemoved, RuleCapabilityAdded)
	c.set("manifestKeys", uncovered(b.ManifestKeys), uncovered(a.ManifestKeys), RuleManifestKeyRemoved, RuleManifestKeyAdded)
	c.set("frontMatterKeys", b.FrontMatterKeys, a.FrontMatterKeys, RuleFrontMatterRemoved, RuleFrontMatterKeyAdded)
	c.compatibility(b.Compatibility, a.Compatibility)
}

func (c *comparer) dependencies(field string, before, after []snapshot.Dependency, removed, added, narrowed, widened string) {
	bm, am := map[string]string{}, map[string]string{}
	for _, d := range before {
		bm[d.Name] = d.Version
	}
	for _, d := range after {
		am[d.Name] = d.Version
	}
	for _, d := range before {
		ar, ok := am[d.Name]
		if !ok {
			c.contractChange(field+":"+d.Name+":removed", removed, d.Version, "", "")
			continue
		}
		switch rc, witness := CompareRanges(d.Version, ar); rc {
		case RangeNarrowed:
			c.contractChange(field+":"+d.Name+":narrowed", narrowed, d.Version, ar, witness+" was allowed and no longer is")
		case RangeWidened:
			c.contractChange(field+":"+d.Name+":widened", widened, d.Version, ar, witness+" is allowed now and was not")
		case RangeEquivalent:
			c.contractChange(field+":"+d.Name+":rewritten", RuleRangeEquivalent, d.Version, ar, "both allow the same versions")
		case RangeUnknown:
			c.contractChange(field+":"+d.Name+":changed", RuleRangeUnknown, d.Version, ar, "a range cannot be read as a semver range")
		}
	}
	for _, d := range after {
		if _, ok := bm[d.Name]; !ok {
			c.contractChange(field+":"+d.Name+":added", added, "", d.Version, "")
		}
	}
}

// itemized are the manifest keys whose items the report compares one by
// one: adding or removing the key is classified by its items (dropping
// every optional dependency is the removal of each, minor), not as a key.
var itemized = []string{"dependencies", "optionalDependencies", "suggests", "compatibility", "capabilities", "name", "kind", "version", "description"}

func uncovered(keys []string) []string {
	return slices.DeleteFunc(slices.Clone(keys), func(k string) bool { return slices.Contains(itemized, k) })
}

func (c *comparer) set(field string, before, after []string, removed, added string) {
	for _, s := range before {
		if !slices.Contains(after, s) {
			c.contractChange(field+":"+s+":removed", removed, s, "", "")
		}
	}
	for _, s := range after {
		if !slices.Contains(before, s) {
			c.contractChange(field+":"+s+":added", added, "", s, "")
		}
	}
}

// compatibility compares the agent lists; an empty list is every agent.
func (c *comparer) compatibility(before, after []snapshot.Compatibility) {
	agents := func(cs []snapshot.Compatibility) string {
		s := make([]string, len(cs))
		for i, x := range cs {
			s[i] = x.Agent
		}
		return strings.Join(s, ", ")
	}
	switch {
	case len(before) == 0 && len(after) == 0:
		return
	case len(before) == 0:
		c.contractChange("compatibility:restricted", RuleAgentRemoved, "every agent", agents(after), "only the listed agents are supported now")
		return
	case len(after) == 0:
		c.contractChange("compatibility:opened", RuleAgentAdded, agents(before), "every agent", "every agent is supported now")
		return
	}
	am := map[string]string{}
	for _, x := range after {
		am[x.Agent] = x.MinVersion
	}
	bm := map[string]bool{}
	for _, x := range before {
		bm[x.Agent] = true
		amin, ok := am[x.Agent]
		if !ok {
			c.contractChange("compatibility:"+x.Agent+":removed", RuleAgentRemoved, x.Agent, "", "")
			continue
		}
		if amin == x.MinVersion {
			continue
		}
		id := "compatibility:" + x.Agent
		switch cmp, ok := compareMin(x.MinVersion, amin); {
		case !ok:
			c.contractChange(id+":changed", RuleRangeUnknown, x.MinVersion, amin, "a minimum version cannot be read as a version")
		case cmp < 0:
			c.contractChange(id+":raised", RuleAgentMinRaised, x.MinVersion, amin, "")
		case cmp > 0:
			c.contractChange(id+":lowered", RuleAgentMinLowered, x.MinVersion, amin, "")
		}
	}
	for _, x := range after {
		if !bm[x.Agent] {
			c.contractChange("compatibility:"+x.Agent+":added", RuleAgentAdded, "", x.Agent, "")
		}
	}
}

// compareMin compares two minimum versions, "" being no minimum: -1 when
// before is lower (the minimum was raised), 1 when it was lowered.
func compareMin(before, after string) (int, bool) {
	switch {
	case before == "":
		return -1, true
	case after == "":
		return 1, true
	}
	b, err1 := semver.NewVersion(before)
	a, err2 := semver.NewVersion(after)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return b.Compare(a), true
}

// applyReview applies the verdicts of review to the changes.
func applyReview(r *Report, review *Review) {
	if review == nil {
		return
	}
	use := &ReviewUse{Digest: review.Digest(), Used: []string{}, Unused: []string{}, Stale: []string{}, Conflicts: []string{}}
	r.Review = use
	byID := map[string][]ReviewVerdict{}
	var order []string
	for _, v := range review.Verdicts {
		if v.Package != "" && v.Package != r.After.Name && v.Package != r.Before.Name {
			use.Unused = append(use.Unused, v.Package+":"+v.ID)
			continue
		}
		if _, ok := byID[v.ID]; !ok {
			order = append(order, v.ID)
		}
		byID[v.ID] = append(byID[v.ID], v)
	}
	index := map[string]int{}
	for i, ch := range r.Changes {
		index[ch.ID] = i
	}
	for _, id := range order {
		i, ok := index[id]
		if !ok {
			use.Unused = append(use.Unused, id)
			continue
		}
		ch := &r.Changes[i]
		var current []ReviewVerdict
		for _, v := range byID[id] {
			if v.Digest == "" || v.Digest == ch.Digest {
				current = append(current, v)
			}
		}
		if len(current) == 0 {
			use.Stale = append(use.Stale, id)
			continue
		}
		v := current[0]
		conflict := ""
		for _, o := range current[1:] {
			if o.Verdict != v.Verdict {
				conflict = fmt.Sprintf("%s: the review gives both %s and %s", id, v.Verdict, o.Verdict)
			}
		}
		if conflict == "" && ch.RuleCategory != NeedsReview && v.Verdict.rank() < ch.RuleCategory.rank() {
			conflict = fmt.Sprintf("%s: the review says %s, below the %s that rule %s decides", id, v.Verdict, ch.RuleCategory, ch.Rule)
		}
		if conflict != "" {
			use.Conflicts = append(use.Conflicts, id)
			r.Missing = append(r.Missing, "conflicting verdicts for "+conflict)
			continue
		}
		vv := v
		ch.Verdict = &vv
		if v.Verdict.rank() > ch.Category.rank() {
			ch.Category = v.Verdict
		}
		use.Used = append(use.Used, id)
	}
	for _, s := range []*[]string{&use.Used, &use.Unused, &use.Stale, &use.Conflicts} {
		slices.Sort(*s)
		*s = slices.Compact(*s)
	}
}

// decide sets the recommendation.
func decide(r *Report) {
	conflicted := map[string]bool{}
	if r.Review != nil {
		for _, id := range r.Review.Conflicts {
			conflicted[id] = true
		}
	}
	best := None
	for _, ch := range r.Changes {
		if ch.Category == NeedsReview && !conflicted[ch.ID] {
			r.Missing = append(r.Missing, ch.ID+": a review verdict (patch, minor or major); rule "+ch.Rule)
			continue
		}
		if ch.Category.rank() > best.rank() {
			best = ch.Category
		}
	}
	slices.Sort(r.Missing)
	r.Recommendation = string(best)
	if len(r.Missing) > 0 {
		r.Recommendation, r.AtLeast = Undetermined, best
	}
	if step, ok := VersionBump(r.Before.Version, r.After.Version); ok {
		r.VersionStep = &VersionStep{Category: step}
		switch {
		case r.Recommendation != Undetermined:
			ok := step.rank() >= best.rank()
			r.VersionStep.Sufficient = &ok
		case step.rank() < best.rank():
			no := false
			r.VersionStep.Sufficient = &no
		}
	}
}
