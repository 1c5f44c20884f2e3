package bump

// Category is the release category a change implies.
type Category string

// The categories, in increasing order, and the two non-categories: None
// (the change needs no release of its own) and NeedsReview (only a reviewer's
// verdict can classify it).
const (
	None        Category = "none"
	Patch       Category = "patch"
	Minor       Category = "minor"
	Major       Category = "major"
	NeedsReview Category = "review"
)

// Undetermined is the recommendation when the evidence is missing,
// conflicting or incomplete.
const Undetermined = "undetermined"

// rank orders the decided categories; NeedsReview and unknown values are -1.
func (c Category) rank() int {
	switch c {
	case None:
		return 0
	case Patch:
		return 1
	case Minor:
		return 2
	case Major:
		return 3
	}
	return -1
}

// Verdict reports whether c is a category a review may give.
func (c Category) Verdict() bool { return c == Patch || c == Minor || c == Major }

// Rule is one classification rule: the kind of change it matches and the
// category it decides.
type Rule struct {
	ID       string   `json:"id"`
	Category Category `json:"category"`
	// Matches says which change the rule classifies.
	Matches string `json:"matches"`
	// Example is a change the rule classifies, as its id.
	Example string `json:"example"`
}

// Rule ids.
const (
	RuleLinkTargetRemoved   = "link-target-removed"
	RuleFileRemoved         = "file-removed"
	RuleFileAdded           = "file-added"
	RuleFileChanged         = "file-changed"
	RuleManifestChanged     = "manifest-changed"
	RuleFrontMatterOnly     = "entrypoint-front-matter-only"
	RuleNameChanged         = "name-changed"
	RuleKindChanged         = "kind-changed"
	RuleEntrypointChanged   = "entrypoint-changed"
	RuleDescriptionChanged  = "description-changed"
	RuleVersionChanged      = "version-changed"
	RuleDependencyRemoved   = "dependency-removed"
	RuleDependencyAdded     = "dependency-added"
	RuleRangeNarrowed       = "dependency-range-narrowed"
	RuleRangeWidened        = "dependency-range-widened"
	RuleRangeEquivalent     = "dependency-range-equivalent"
	RuleRangeUnknown        = "dependency-range-undetermined"
	RuleOptionalRemoved     = "optional-dependency-removed"
	RuleOptionalAdded       = "optional-dependency-added"
	RuleOptionalNarrowed    = "optional-dependency-range-narrowed"
	RuleOptionalWidened     = "optional-dependency-range-widened"
	RuleSuggestionAdded     = "suggestion-added"
	RuleSuggestionRemoved   = "suggestion-removed"
	RuleAgentRemoved        = "compatibility-agent-removed"
	RuleAgentAdded          = "compatibility-agent-added"
	RuleAgentMinRaised      = "compatibility-minimum-raised"
	RuleAgentMinLowered     = "compatibility-minimum-lowered"
	RuleCapabilityRemoved   = "capability-removed"
	RuleCapabilityAdded     = "capability-added"
	RuleManifestKeyRemoved  = "manifest-key-removed"
	RuleManifestKeyAdded    = "manifest-key-added"
	RuleFrontMatterRemoved  = "front-matter-key-removed"
	RuleFrontMatterKeyAdded = "front-matter-key-added"
)

// Rules is the classification table, most severe first; report bump
// --rules prints it and docs/maintenance.md documents each with an
// example.
var Rules = []Rule{
	{RuleLinkTargetRemoved, Major, "a file that a link of the previous version points to is gone (removed or renamed)", "file:references/setup.md:removed"},
	{RuleNameChanged, Major, "the package name changed", "contract:name:changed"},
	{RuleKindChanged, Major, "the package kind changed (skill, command, workflow)", "contract:kind:changed"},
	{RuleEntrypointChanged, Major, "the entrypoint file changed", "contract:entrypoint:changed"},
	{RuleDependencyRemoved, Major, "a required dependency was removed: another package may rely on it transitively", "contract:dependencies:java-basics:removed"},
	{RuleRangeNarrowed, Major, "a required dependency's range no longer allows a version it allowed", "contract:dependencies:java-basics:narrowed"},
	{RuleAgentRemoved, Major, "an agent was dropped from compatibility", "contract:compatibility:codex:removed"},
	{RuleAgentMinRaised, Major, "an agent's minimum version was raised", "contract:compatibility:claude-code:raised"},
	{RuleCapabilityRemoved, Major, "a declared capability was removed: the package stops doing something it said it does", "contract:capabilities:runs-scripts:removed"},
	{RuleManifestKeyRemoved, Major, "a top-level skill.yaml key was removed (keys whose items are compared one by one, such as dependencies, are classified by their items)", "contract:manifestKeys:agentOverrides:removed"},
	{RuleFrontMatterRemoved, Major, "a top-level front-matter key of the entrypoint was removed", "contract:frontMatterKeys:allowed-tools:removed"},
	{RuleFileAdded, Minor, "a file was added (a new reference, script or asset)", "file:references/gc-logs.md:added"},
	{RuleDependencyAdded, Minor, "a required dependency was added", "contract:dependencies:jvm-gc-tuning:added"},
	{RuleRangeWidened, Minor, "a required dependency's range allows more versions and none fewer", "contract:dependencies:java-basics:widened"},
	{RuleOptionalAdded, Minor, "an optional dependency was added", "contract:optionalDependencies:jvm-gc-tuning:added"},
	{RuleOptionalRemoved, Minor, "an optional dependency was removed (installs never relied on it)", "contract:optionalDependencies:jvm-gc-tuning:removed"},
	{RuleOptionalNarrowed, Minor, "an optional dependency's range no longer allows a version it allowed", "contract:optionalDependencies:jvm-gc-tuning:narrowed"},
	{RuleOptionalWidened, Minor, "an optional dependency's range allows more versions", "contract:optionalDependencies:jvm-gc-tuning:widened"},
	{RuleSuggestionAdded, Minor, "a suggestion was added", "contract:suggests:flame-graph-analysis:added"},
	{RuleAgentAdded, Minor, "an agent was added to compatibility", "contract:compatibility:gemini:added"},
	{RuleAgentMinLowered, Minor, "an agent's minimum version was lowered or dropped", "contract:compatibility:claude-code:lowered"},
	{RuleCapabilityAdded, Minor, "a capability was declared", "contract:capabilities:reads-source:added"},
	{RuleManifestKeyAdded, Minor, "a top-level skill.yaml key was added (a new optional field)", "contract:manifestKeys:keywords:added"},
	{RuleFrontMatterKeyAdded, Minor, "a top-level front-matter key of the entrypoint was added", "contract:frontMatterKeys:license:added"},
	{RuleSuggestionRemoved, Patch, "a suggestion was removed (suggestions are hints, never installed)", "contract:suggests:flame-graph-analysis:removed"},
	{RuleManifestChanged, Patch, "skill.yaml changed; its contract changes are listed as their own changes", "file:skill.yaml:changed"},
	{RuleFrontMatterOnly, Patch, "only the entrypoint's front matter changed, and only in version or description (each listed as its own change)", "file:SKILL.md:changed"},
	{RuleRangeEquivalent, None, "a dependency's range was rewritten but allows the same versions", "contract:dependencies:java-basics:rewritten"},
	{RuleVersionChanged, None, "the version changed: the outcome of a release, not a change to classify", "contract:version:changed"},
	{RuleFileChanged, NeedsReview, "a file's bytes changed (instruction text, a reference, a script): a review verdict decides", "file:references/checklist.md:changed"},
	{RuleFileRemoved, NeedsReview, "a file no link pointed to was removed: a review verdict decides", "file:scripts/old.sh:removed"},
	{RuleDescriptionChanged, NeedsReview, "the description changed (it decides when agents load the skill): a review verdict decides, usually patch", "contract:description:changed"},
	{RuleRangeUnknown, NeedsReview, "a dependency range or an agent's minimum version changed in a way that cannot be compared (the semver library cannot read it)", "contract:dependencies:java-basics:changed"},
}

// ruleNamed returns the rule id's entry.
func ruleNamed(id string) Rule {
	for _, r := range Rules {
		if r.ID == id {
			return r
		}
	}
	panic("bump: unknown rule " + id)
}

// Below reports whether category a is less severe than b (NeedsReview and
// unknown values are below everything).
func Below(a, b Category) bool { return a.rank() < b.rank() }
