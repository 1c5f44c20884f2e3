package bump

import (
	"slices"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/snapshot"
)

func base() snapshot.Observed {
	return snapshot.Observed{Path: ".", Digest: "sha256-before",
		Contract: snapshot.Contract{Name: "demo", Kind: "skill", Version: "1.0.0", Description: "Demo.", Entrypoint: "SKILL.md",
			Dependencies:         []snapshot.Dependency{{Name: "dep", Version: "^1.2.0"}},
			OptionalDependencies: []snapshot.Dependency{{Name: "opt", Version: "^1.0.0"}},
			Suggests:             []string{"hint"}, Capabilities: []string{"runs-scripts"},
			Compatibility:   []snapshot.Compatibility{{Agent: "claude-code", MinVersion: "1.0.0"}, {Agent: "codex"}},
			ManifestKeys:    []string{"compatibility", "dependencies", "description", "license", "name", "optionalDependencies", "version"},
			FrontMatterKeys: []string{"description", "name"},
			Links:           []snapshot.Link{{From: "SKILL.md", Target: "references/a.md"}}},
		Files: []snapshot.ObservedFile{{Path: "SKILL.md", Digest: "d-skill"}, {Path: "references/a.md", Digest: "d-a"},
			{Path: "scripts/run.sh", Digest: "d-run"}, {Path: "skill.yaml", Digest: "d-yaml"}}}
}

func clone(o snapshot.Observed) snapshot.Observed {
	c := o
	c.Digest = "sha256-after"
	c.Contract.Dependencies = slices.Clone(o.Contract.Dependencies)
	c.Contract.OptionalDependencies = slices.Clone(o.Contract.OptionalDependencies)
	c.Contract.Suggests = slices.Clone(o.Contract.Suggests)
	c.Contract.Capabilities = slices.Clone(o.Contract.Capabilities)
	c.Contract.Compatibility = slices.Clone(o.Contract.Compatibility)
	c.Contract.ManifestKeys = slices.Clone(o.Contract.ManifestKeys)
	c.Contract.FrontMatterKeys = slices.Clone(o.Contract.FrontMatterKeys)
	c.Contract.Links = slices.Clone(o.Contract.Links)
	c.Files = slices.Clone(o.Files)
	return c
}

func setFile(o *snapshot.Observed, p, digest string) {
	o.Files = slices.DeleteFunc(o.Files, func(f snapshot.ObservedFile) bool { return f.Path == p })
	if digest != "" {
		o.Files = append(o.Files, snapshot.ObservedFile{Path: p, Digest: digest})
		slices.SortFunc(o.Files, func(a, b snapshot.ObservedFile) int { return strings.Compare(a.Path, b.Path) })
	}
}

// TestRules proves every rule of the table classifies its kind of change:
// each case changes one thing and expects the change id, the rule and the
// recommendation.
func TestRules(t *testing.T) {
	for _, tc := range []struct {
		name   string
		edit   func(*snapshot.Observed)
		id     string
		rule   string
		recomm string
	}{
		{"linked file removed", func(o *snapshot.Observed) { setFile(o, "references/a.md", "") }, "file:references/a.md:removed", RuleLinkTargetRemoved, "major"},
		{"linked file renamed", func(o *snapshot.Observed) { setFile(o, "references/a.md", ""); setFile(o, "references/b.md", "d-a") }, "file:references/a.md:removed", RuleLinkTargetRemoved, "major"},
		{"unlinked file removed", func(o *snapshot.Observed) { setFile(o, "scripts/run.sh", "") }, "file:scripts/run.sh:removed", RuleFileRemoved, Undetermined},
		{"file added", func(o *snapshot.Observed) { setFile(o, "references/new.md", "d-new") }, "file:references/new.md:added", RuleFileAdded, "minor"},
		{"instructions changed", func(o *snapshot.Observed) { setFile(o, "SKILL.md", "d-skill2") }, "file:SKILL.md:changed", RuleFileChanged, Undetermined},
		{"manifest changed", func(o *snapshot.Observed) { setFile(o, "skill.yaml", "d-yaml2") }, "file:skill.yaml:changed", RuleManifestChanged, "patch"},
		{"name", func(o *snapshot.Observed) { o.Contract.Name = "other" }, "contract:name:changed", RuleNameChanged, "major"},
		{"kind", func(o *snapshot.Observed) { o.Contract.Kind = "command" }, "contract:kind:changed", RuleKindChanged, "major"},
		{"entrypoint", func(o *snapshot.Observed) { o.Contract.Entrypoint = "COMMAND.md" }, "contract:entrypoint:changed", RuleEntrypointChanged, "major"},
		{"description", func(o *snapshot.Observed) { o.Contract.Description = "Other." }, "contract:description:changed", RuleDescriptionChanged, Undetermined},
		{"version", func(o *snapshot.Observed) { o.Contract.Version = "1.0.1" }, "contract:version:changed", RuleVersionChanged, "none"},
		{"dependency removed", func(o *snapshot.Observed) { o.Contract.Dependencies = nil }, "contract:dependencies:dep:removed", RuleDependencyRemoved, "major"},
		{"dependency added", func(o *snapshot.Observed) {
			o.Contract.Dependencies = append(o.Contract.Dependencies, snapshot.Dependency{Name: "zdep", Version: "^2.0.0"})
		}, "contract:dependencies:zdep:added", RuleDependencyAdded, "minor"},
		{"range narrowed", func(o *snapshot.Observed) { o.Contract.Dependencies[0].Version = "^1.3.0" }, "contract:dependencies:dep:narrowed", RuleRangeNarrowed, "major"},
		{"range narrowed at the top", func(o *snapshot.Observed) { o.Contract.Dependencies[0].Version = ">=1.2.0 <1.9.0" }, "contract:dependencies:dep:narrowed", RuleRangeNarrowed, "major"},
		{"range widened", func(o *snapshot.Observed) { o.Contract.Dependencies[0].Version = ">=1.0.0 <3.0.0" }, "contract:dependencies:dep:widened", RuleRangeWidened, "minor"},
		{"range rewritten", func(o *snapshot.Observed) { o.Contract.Dependencies[0].Version = ">=1.2.0, <2.0.0" }, "contract:dependencies:dep:rewritten", RuleRangeEquivalent, "none"},
		{"range unreadable", func(o *snapshot.Observed) { o.Contract.Dependencies[0].Version = "latest-ish" }, "contract:dependencies:dep:changed", RuleRangeUnknown, Undetermined},
		{"optional removed", func(o *snapshot.Observed) { o.Contract.OptionalDependencies = nil }, "contract:optionalDependencies:opt:removed", RuleOptionalRemoved, "minor"},
		{"optional added", func(o *snapshot.Observed) {
			o.Contract.OptionalDependencies = append(o.Contract.OptionalDependencies, snapshot.Dependency{Name: "opt2", Version: "*"})
		}, "contract:optionalDependencies:opt2:added", RuleOptionalAdded, "minor"},
		{"optional narrowed", func(o *snapshot.Observed) { o.Contract.OptionalDependencies[0].Version = "~1.0.0" }, "contract:optionalDependencies:opt:narrowed", RuleOptionalNarrowed, "minor"},
		{"optional widened", func(o *snapshot.Observed) { o.Contract.OptionalDependencies[0].Version = "*" }, "contract:optionalDependencies:opt:widened", RuleOptionalWidened, "minor"},
		{"suggestion added", func(o *snapshot.Observed) { o.Contract.Suggests = append(o.Contract.Suggests, "more") }, "contract:suggests:more:added", RuleSuggestionAdded, "minor"},
		{"suggestion removed", func(o *snapshot.Observed) { o.Contract.Suggests = nil }, "contract:suggests:hint:removed", RuleSuggestionRemoved, "patch"},
		{"agent removed", func(o *snapshot.Observed) { o.Contract.Compatibility = o.Contract.Compatibility[:1] }, "contract:compatibility:codex:removed", RuleAgentRemoved, "major"},
		{"agent added", func(o *snapshot.Observed) {
			o.Contract.Compatibility = append(o.Contract.Compatibility, snapshot.Compatibility{Agent: "gemini"})
		}, "contract:compatibility:gemini:added", RuleAgentAdded, "minor"},
		{"agents opened", func(o *snapshot.Observed) { o.Contract.Compatibility = nil }, "contract:compatibility:opened", RuleAgentAdded, "minor"},
		{"minimum raised", func(o *snapshot.Observed) { o.Contract.Compatibility[0].MinVersion = "2.0.0" }, "contract:compatibility:claude-code:raised", RuleAgentMinRaised, "major"},
		{"minimum added", func(o *snapshot.Observed) { o.Contract.Compatibility[1].MinVersion = "0.5.0" }, "contract:compatibility:codex:raised", RuleAgentMinRaised, "major"},
		{"minimum lowered", func(o *snapshot.Observed) { o.Contract.Compatibility[0].MinVersion = "" }, "contract:compatibility:claude-code:lowered", RuleAgentMinLowered, "minor"},
		{"capability removed", func(o *snapshot.Observed) { o.Contract.Capabilities = nil }, "contract:capabilities:runs-scripts:removed", RuleCapabilityRemoved, "major"},
		{"capability added", func(o *snapshot.Observed) { o.Contract.Capabilities = append(o.Contract.Capabilities, "reads-source") }, "contract:capabilities:reads-source:added", RuleCapabilityAdded, "minor"},
		{"manifest key removed", func(o *snapshot.Observed) {
			o.Contract.ManifestKeys = slices.DeleteFunc(o.Contract.ManifestKeys, func(k string) bool { return k == "license" })
		}, "contract:manifestKeys:license:removed", RuleManifestKeyRemoved, "major"},
		{"itemized key removed", func(o *snapshot.Observed) {
			o.Contract.OptionalDependencies = nil
			o.Contract.ManifestKeys = slices.DeleteFunc(o.Contract.ManifestKeys, func(k string) bool { return k == "optionalDependencies" })
		}, "contract:optionalDependencies:opt:removed", RuleOptionalRemoved, "minor"},
		{"manifest key added", func(o *snapshot.Observed) { o.Contract.ManifestKeys = append(o.Contract.ManifestKeys, "keywords") }, "contract:manifestKeys:keywords:added", RuleManifestKeyAdded, "minor"},
		{"front-matter key removed", func(o *snapshot.Observed) { o.Contract.FrontMatterKeys = o.Contract.FrontMatterKeys[1:] }, "contract:frontMatterKeys:description:removed", RuleFrontMatterRemoved, "major"},
		{"front-matter key added", func(o *snapshot.Observed) { o.Contract.FrontMatterKeys = append(o.Contract.FrontMatterKeys, "license") }, "contract:frontMatterKeys:license:added", RuleFrontMatterKeyAdded, "minor"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, after := base(), clone(base())
			tc.edit(&after)
			r := Compare(Side{Label: "v1", Package: before}, Side{Label: "v2", Package: after}, nil)
			i := slices.IndexFunc(r.Changes, func(c Change) bool { return c.ID == tc.id })
			if i < 0 {
				t.Fatalf("Compare() changes = %v, want %s", ids(r), tc.id)
			}
			if got := r.Changes[i].Rule; got != tc.rule {
				t.Errorf("Compare() %s rule = %s, want %s", tc.id, got, tc.rule)
			}
			if r.Recommendation != tc.recomm {
				t.Errorf("Compare() recommendation = %s, want %s (changes %v, missing %v)", r.Recommendation, tc.recomm, ids(r), r.Missing)
			}
		})
	}
}

func TestCompatibilityRestricted(t *testing.T) {
	before, after := base(), clone(base())
	before.Contract.Compatibility = nil
	r := Compare(Side{Package: before}, Side{Package: after}, nil)
	if !slices.Contains(ids(r), "contract:compatibility:restricted") || r.Recommendation != "major" {
		t.Errorf("Compare() = %v %s, want contract:compatibility:restricted, major", ids(r), r.Recommendation)
	}
}

// TestRulesTable checks the table itself: unique ids, a known category
// and an example id of the shape a report uses.
func TestRulesTable(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Rules {
		if seen[r.ID] {
			t.Errorf("rule %s is listed twice", r.ID)
		}
		seen[r.ID] = true
		if r.Category.rank() < 0 && r.Category != NeedsReview {
			t.Errorf("rule %s has category %q", r.ID, r.Category)
		}
		if !strings.HasPrefix(r.Example, "file:") && !strings.HasPrefix(r.Example, "contract:") || r.Matches == "" {
			t.Errorf("rule %s: example %q or matches %q is not usable", r.ID, r.Example, r.Matches)
		}
	}
}

func ids(r *Report) []string {
	var out []string
	for _, c := range r.Changes {
		out = append(out, c.ID)
	}
	return out
}

func TestReview(t *testing.T) {
	before, after := base(), clone(base())
	setFile(&after, "SKILL.md", "d-skill2")
	setFile(&after, "references/a.md", "")
	review := func(js string) *Review {
		r, err := DecodeReview(strings.NewReader(js), "review.json")
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, tc := range []struct {
		name, review, recomm string
		conflicts, unused    []string
	}{
		{"no review", "", Undetermined, nil, nil},
		{"verdict", `{"schema":"agent-skills.bump-review/1","verdicts":[{"id":"file:SKILL.md:changed","verdict":"patch"},{"id":"file:gone:changed","verdict":"patch"}]}`, "major", []string{}, []string{"file:gone:changed"}},
		{"raises", `{"schema":"agent-skills.bump-review/1","verdicts":[{"id":"file:SKILL.md:changed","verdict":"major","digest":"d-skill2"}]}`, "major", []string{}, []string{}},
		{"stale", `{"schema":"agent-skills.bump-review/1","verdicts":[{"id":"file:SKILL.md:changed","verdict":"patch","digest":"d-old"}]}`, Undetermined, []string{}, []string{}},
		{"two verdicts", `{"schema":"agent-skills.bump-review/1","verdicts":[{"id":"file:SKILL.md:changed","verdict":"patch"},{"id":"file:SKILL.md:changed","verdict":"minor"}]}`, Undetermined, []string{"file:SKILL.md:changed"}, []string{}},
		{"below the rule", `{"schema":"agent-skills.bump-review/1","verdicts":[{"id":"file:SKILL.md:changed","verdict":"patch"},{"id":"file:references/a.md:removed","verdict":"minor"}]}`, Undetermined, []string{"file:references/a.md:removed"}, []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var rv *Review
			if tc.review != "" {
				rv = review(tc.review)
			}
			r := Compare(Side{Package: before}, Side{Package: after}, rv)
			if r.Recommendation != tc.recomm {
				t.Errorf("Compare() = %s, want %s (missing %v)", r.Recommendation, tc.recomm, r.Missing)
			}
			if rv == nil {
				if r.AtLeast != Major {
					t.Errorf("Compare() atLeast = %s, want major", r.AtLeast)
				}
				return
			}
			if !slices.Equal(r.Review.Conflicts, tc.conflicts) || !slices.Equal(r.Review.Unused, tc.unused) {
				t.Errorf("Compare() conflicts %v unused %v, want %v %v", r.Review.Conflicts, r.Review.Unused, tc.conflicts, tc.unused)
			}
		})
	}
}

func TestDecodeReviewRefuses(t *testing.T) {
	for _, js := range []string{
		`{"schema":"other","verdicts":[]}`,
		`{"schema":"agent-skills.bump-review/1","verdicts":[{"id":"x","verdict":"huge"}]}`,
		`{"schema":"agent-skills.bump-review/1","verdicts":[{"id":"","verdict":"patch"}]}`,
		`{"schema":"agent-skills.bump-review/1","extra":1}`,
		`{"schema":"agent-skills.bump-review/1"} {}`,
		strings.Repeat(" ", MaxReview+1),
	} {
		if _, err := DecodeReview(strings.NewReader(js), "r.json"); err == nil {
			t.Errorf("DecodeReview(%.60q) = nil error, want %s", js, CodeReviewInvalid)
		}
	}
}

func TestFrontMatterOnly(t *testing.T) {
	before, after := base(), clone(base())
	setFile(&after, "SKILL.md", "d-skill2")
	after.Contract.Version = "1.0.1"
	content := func(m map[string]string) func(string) []byte {
		return func(p string) []byte {
			if s, ok := m[p]; ok {
				return []byte(s)
			}
			return nil
		}
	}
	b := content(map[string]string{"SKILL.md": "---\nname: demo\nversion: 1.0.0\n---\n# Demo\n"})
	for _, tc := range []struct{ after, rule string }{
		{"---\nname: demo\nversion: 1.0.1\n---\n# Demo\n", RuleFrontMatterOnly},
		{"---\nname: demo\nversion: 1.0.1\n---\n# Demo, reworded\n", RuleFileChanged},
		{"---\nname: demo\nversion: 1.0.1\nallowed-tools: Bash\n---\n# Demo\n", RuleFileChanged},
	} {
		r := Compare(Side{Package: before, Content: b}, Side{Package: after, Content: content(map[string]string{"SKILL.md": tc.after})}, nil)
		i := slices.IndexFunc(r.Changes, func(c Change) bool { return c.ID == "file:SKILL.md:changed" })
		if i < 0 || r.Changes[i].Rule != tc.rule {
			t.Errorf("Compare(%q) = %v, want rule %s", tc.after, r.Changes, tc.rule)
		}
	}
}

func TestCompareRanges(t *testing.T) {
	for _, tc := range []struct {
		before, after string
		want          RangeChange
	}{
		{"^1.2.0", "^1.2.0", RangeSame},
		{"^1.2.0", ">=1.2.0 <2.0.0", RangeEquivalent},
		{"^1.2.0", "^1.2.5", RangeNarrowed},
		{"^1.2.0", "~1.2.0", RangeNarrowed},
		{"~1.2.0", "^1.2.0", RangeWidened},
		{"^1.2.0", "^1.0.0 || ^2.0.0", RangeWidened},
		{"^1.0.0 || ^2.0.0", "^2.0.0", RangeNarrowed},
		{"^1.2.0", "^2.0.0", RangeNarrowed},
		{"", "^1.0.0", RangeNarrowed},
		{"^1.0.0", "*", RangeWidened},
		{"^0.2.0", "^0.2.1", RangeNarrowed},
		{"^1", "not a range", RangeUnknown},
	} {
		if got, _ := CompareRanges(tc.before, tc.after); got != tc.want {
			t.Errorf("CompareRanges(%q, %q) = %s, want %s", tc.before, tc.after, got, tc.want)
		}
	}
}

func TestVersionBump(t *testing.T) {
	for _, tc := range []struct {
		before, after string
		want          Category
		ok            bool
	}{
		{"1.2.3", "1.2.4", Patch, true},
		{"1.2.3", "1.3.0", Minor, true},
		{"1.2.3", "2.0.0", Major, true},
		{"0.2.3", "0.2.4", Minor, true},
		{"0.2.3", "0.3.0", Major, true},
		{"0.0.3", "0.0.4", Major, true},
		{"1.2.3", "1.2.3", "", false},
		{"1.2.3", "1.0.0", "", false},
		{"x", "1.0.0", "", false},
	} {
		got, ok := VersionBump(tc.before, tc.after)
		if got != tc.want || ok != tc.ok {
			t.Errorf("VersionBump(%q, %q) = %s, %v, want %s, %v", tc.before, tc.after, got, ok, tc.want, tc.ok)
		}
	}
}

func TestCompareCollections(t *testing.T) {
	a1, a2 := base(), clone(base())
	setFile(&a2, "SKILL.md", "d-skill2")
	b1 := base()
	b1.Contract.Name = "other"
	gone := base()
	gone.Contract.Name = "gone"
	added := base()
	added.Contract.Name = "new"
	rv, err := DecodeReview(strings.NewReader(`{"schema":"agent-skills.bump-review/1","verdicts":[
		{"package":"demo","id":"file:SKILL.md:changed","verdict":"patch"},
		{"id":"file:SKILL.md:changed","verdict":"major"},
		{"package":"other","id":"file:x:changed","verdict":"minor"},
		{"package":"nowhere","id":"file:SKILL.md:changed","verdict":"minor"}]}`), "r.json")
	if err != nil {
		t.Fatal(err)
	}
	c := CompareCollections("v1", []Side{{Package: a1}, {Package: b1}, {Package: gone}}, "v2", []Side{{Package: added}, {Package: b1}, {Package: a2}}, rv)
	if len(c.Packages) != 2 || c.Packages[0].After.Name != "demo" || c.Packages[0].Recommendation != "patch" || c.Packages[1].Recommendation != "none" {
		t.Fatalf("CompareCollections() packages = %+v, want demo patch, other none", c.Packages)
	}
	if len(c.Added) != 1 || c.Added[0].Name != "new" || len(c.Removed) != 1 || c.Removed[0].Name != "gone" {
		t.Errorf("CompareCollections() added %v removed %v, want new, gone", c.Added, c.Removed)
	}
	want := []string{":file:SKILL.md:changed", "nowhere:file:SKILL.md:changed", "other:file:x:changed"}
	if !slices.Equal(c.Review.Unused, want) {
		t.Errorf("CompareCollections() unused = %v, want %v", c.Review.Unused, want)
	}
	if c.Summary["patch"] != 1 || c.Summary["none"] != 1 || c.Undetermined() {
		t.Errorf("CompareCollections() summary = %v", c.Summary)
	}
}
