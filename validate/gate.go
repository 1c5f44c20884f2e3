package validate

import (
	"fmt"
	"slices"

	"github.com/agent-skills/agent-skills/format"
)

// Gate is the rule set a validation run applies. Every rule keeps its code
// at every gate; the gate decides only how much it weighs: an error, a
// warning, or not reported (see Rules).
type Gate int

const (
	// GateDefault is `agent-skills validate` and `install --strict`: the
	// Agent Skills specification and the package format to the letter,
	// with the problems a publisher may leave for later (unknown keys, a
	// broken relative link) as warnings.
	GateDefault Gate = iota
	// GateStrict is `validate --strict` and `publish`: GateDefault with
	// those warnings as errors, and a bare skill (no skill.yaml) refused.
	GateStrict
	// GateInstall is `install`, `update` and restoring, from registries and
	// direct sources: only what makes a package unsafe to write, unreadable
	// to agent-skills or invisible to every agent is an error; everything
	// else is a warning shown in the install report. What one agent alone
	// cannot load is that agent's adapter's business (ASK_AGENT_CONSTRAINT).
	GateInstall
)

// String returns the gate's name: "default", "strict" or "install".
func (g Gate) String() string {
	switch g {
	case GateStrict:
		return "strict"
	case GateInstall:
		return "install"
	}
	return "default"
}

// Level is how much a rule weighs at one gate.
type Level int8

const (
	// LevelOff means the rule is not checked at that gate.
	LevelOff Level = iota
	// LevelWarning reports the problem without making the package invalid.
	LevelWarning
	// LevelError makes the package invalid.
	LevelError
)

// String returns "off", "warning" or "error".
func (l Level) String() string {
	switch l {
	case LevelWarning:
		return "warning"
	case LevelError:
		return "error"
	}
	return "off"
}

// Why says, for a rule that is an error at install, what kind of harm it
// prevents.
type Why string

// The reasons an install refuses a package.
const (
	// WhyUnsafe: writing the package could harm the machine (a path that
	// leaves the package, a link, a special file, an unportable or
	// oversized file).
	WhyUnsafe Why = "unsafe"
	// WhyIdentity: agent-skills cannot tell what the package is (its name,
	// version, kind or dependencies), so it can neither place, lock nor
	// resolve it.
	WhyIdentity Why = "identity"
	// WhyInvisible: the agents cannot load what would be installed (no
	// readable front matter, no description, an entrypoint that does not
	// ship).
	WhyInvisible Why = "invisible"
)

// Rule is one validation rule: a stable id, the code its diagnostics
// carry (several rules may share a code), what it checks, and its level at
// each gate.
type Rule struct {
	// ID names the rule in docs/manifest.md, such as "description-length".
	ID string
	// Code is the ASK_* code of the rule's diagnostics.
	Code string
	// Checks says what the rule checks, in a few words.
	Checks string
	// Default, Strict and Install are the rule's levels at GateDefault,
	// GateStrict and GateInstall.
	Default, Strict, Install Level
	// Why is, for a rule that is an error at install, the harm it prevents;
	// empty otherwise.
	Why Why
	// Instead says, for a rule that is only a warning at install, what the
	// install does about it (the projection writes the package name, the
	// link resolves only beside its sibling, …); empty otherwise.
	Instead string
	// Loading marks a rule that format.Load applies, before validate runs.
	Loading bool
}

// Level returns the rule's level at gate g.
func (r Rule) Level(g Gate) Level {
	switch g {
	case GateStrict:
		return r.Strict
	case GateInstall:
		return r.Install
	}
	return r.Default
}

// The ids of the rules this package checks. A problem names its rule when
// its code has several (see ruleOf).
const (
	ruleManifestNameMissing    = "manifest-name-missing"
	ruleManifestVersionMissing = "manifest-version-missing"
	ruleManifestDescription    = "manifest-description-missing"
	ruleNameFolder             = "name-folder-mismatch"
	ruleVersionInvalid         = "version-invalid"
	ruleMinVersionInvalid      = "min-version-invalid"
	ruleLicenseInvalid         = "license-invalid"
	ruleLicenseDeprecated      = "license-deprecated"
	ruleFrontMatterMissing     = "frontmatter-missing"
	ruleCommandFrontMatter     = "command-frontmatter-missing"
	ruleEntryNameMissing       = "entrypoint-name-missing"
	ruleEntryNameType          = "entrypoint-name-type"
	ruleEntryNameInvalid       = "entrypoint-name-invalid"
	ruleEntryNameMismatch      = "entrypoint-name-mismatch"
	ruleDescriptionMissing     = "description-missing"
	ruleDescriptionInvalid     = "description-invalid"
	ruleDescMissingManifest    = "description-missing-manifest-has"
	ruleDescInvalidManifest    = "description-invalid-manifest-has"
	ruleCommandDescription     = "command-description-missing"
	ruleDescriptionLength      = "description-length"
	ruleCompatibility          = "compatibility-invalid"
	ruleMetadataType           = "metadata-type"
	ruleMetadataValue          = "metadata-value-type"
	ruleAllowedToolsList       = "allowed-tools-list"
	ruleAllowedToolsInvalid    = "allowed-tools-invalid"
	ruleEntryLicenseType       = "entrypoint-license-type"
	ruleEntryVersionType       = "entrypoint-version-type"
	ruleEntryVersionInvalid    = "entrypoint-version-invalid"
	ruleFrontMatterUnknownKey  = "frontmatter-unknown-key"
	ruleFrontMatterAgentKey    = "frontmatter-agent-key"
	ruleLinkOutside            = "link-outside-package"
	ruleLinkSibling            = "link-to-sibling"
	ruleDependencyInvalid      = "dependency-invalid"
	ruleFilesDuplicate         = "files-duplicate"
	ruleEntrypointNotListed    = "entrypoint-not-listed"
	ruleFilesUnsafePath        = "files-unsafe-path"
	ruleOverrideKeyUnknown     = "override-key-unknown"
	ruleSuggestsInvalid        = "suggests-invalid"
	ruleManifestUnknownKey     = "manifest-unknown-key"
	ruleManifestMissing        = "manifest-missing"
	ruleNameInvalid            = "name-invalid"
	ruleKindUnknown            = "kind-unknown"
	ruleEntryVersionMismatch   = "entrypoint-version-mismatch"
	ruleLinkBroken             = "link-broken"
)

// Shorthands for the table below.
const (
	off  = LevelOff
	warn = LevelWarning
	fail = LevelError
)

// rules is every rule, in the order of docs/manifest.md's table: what
// format.Load checks first, then skill.yaml, then the entrypoint.
var rules = []Rule{
	// format.Load
	{ID: "manifest-yaml", Code: format.CodeManifestInvalid, Checks: "skill.yaml is one YAML mapping of the right types", Default: fail, Strict: fail, Install: fail, Why: WhyIdentity, Loading: true},
	{ID: "manifest-schema", Code: format.CodeManifestSchemaUnsupported, Checks: "schemaVersion is one this CLI knows", Default: fail, Strict: fail, Install: fail, Why: WhyIdentity, Loading: true},
	{ID: "frontmatter-yaml", Code: format.CodeFrontMatterInvalid, Checks: "the front matter is closed and is valid YAML", Default: fail, Strict: fail, Install: fail, Why: WhyInvisible, Loading: true},
	{ID: "workflow-meta", Code: format.CodeWorkflowMetaInvalid, Checks: "WORKFLOW.js exports a pure-literal meta", Default: fail, Strict: fail, Install: fail, Why: WhyInvisible, Loading: true},
	{ID: "entrypoint-missing", Code: format.CodeEntrypointMissing, Checks: "the kind's entrypoint exists", Default: fail, Strict: fail, Install: fail, Why: WhyInvisible, Loading: true},
	{ID: "files-missing", Code: format.CodeFilesMissing, Checks: "every files entry exists and can be read", Default: fail, Strict: fail, Install: fail, Why: WhyIdentity, Loading: true},
	{ID: "unsafe-file", Code: format.CodePackageUnsafeFile, Checks: "no symbolic link, special file or unportable file name", Default: fail, Strict: fail, Install: fail, Why: WhyUnsafe, Loading: true},
	{ID: "too-large", Code: format.CodePackageTooLarge, Checks: "the size limits", Default: fail, Strict: fail, Install: fail, Why: WhyUnsafe, Loading: true},

	// skill.yaml
	{ID: ruleManifestNameMissing, Code: CodeRequiredField, Checks: "skill.yaml has a name", Default: fail, Strict: fail, Install: fail, Why: WhyIdentity},
	{ID: ruleManifestVersionMissing, Code: CodeRequiredField, Checks: "skill.yaml has a version", Default: fail, Strict: fail, Install: fail, Why: WhyIdentity},
	{ID: ruleManifestDescription, Code: CodeRequiredField, Checks: "skill.yaml has a non-empty description", Default: fail, Strict: fail, Install: warn,
		Instead: "agents read the entrypoint's description, which another rule requires"},
	{ID: ruleNameInvalid, Code: CodeNameInvalid, Checks: "the package name follows the name grammar", Default: fail, Strict: fail, Install: fail, Why: WhyIdentity},
	{ID: ruleNameFolder, Code: CodeNameMismatch, Checks: "skill.yaml's name is the folder's (or the name asked for)", Default: fail, Strict: fail, Install: fail, Why: WhyIdentity},
	{ID: ruleKindUnknown, Code: CodeKindUnknown, Checks: "kind is skill, command or workflow", Default: fail, Strict: fail, Install: fail, Why: WhyIdentity},
	{ID: ruleVersionInvalid, Code: CodeVersionInvalid, Checks: "skill.yaml's version is strict semver", Default: fail, Strict: fail, Install: fail, Why: WhyIdentity},
	{ID: ruleMinVersionInvalid, Code: CodeVersionInvalid, Checks: "compatibility.agents[].minVersion is a version range", Default: fail, Strict: fail, Install: warn,
		Instead: "the unreadable minimum is not enforced"},
	{ID: ruleLicenseInvalid, Code: CodeLicenseInvalid, Checks: "skill.yaml's license is an SPDX expression", Default: fail, Strict: fail, Install: warn,
		Instead: "installed; the licence text is shown as written"},
	{ID: ruleLicenseDeprecated, Code: CodeLicenseInvalid, Checks: "the SPDX identifier is not deprecated", Default: warn, Strict: warn, Install: warn},
	{ID: ruleFilesUnsafePath, Code: CodeFilesUnsafePath, Checks: "files entries are relative, portable paths inside the package", Default: fail, Strict: fail, Install: fail, Why: WhyUnsafe},
	{ID: ruleFilesDuplicate, Code: CodeFilesDuplicate, Checks: "no files entry is listed twice", Default: fail, Strict: fail, Install: warn,
		Instead: "the file is installed once"},
	{ID: ruleEntrypointNotListed, Code: CodeEntrypointNotListed, Checks: "files lists the entrypoint", Default: fail, Strict: fail, Install: fail, Why: WhyInvisible},
	{ID: ruleDependencyInvalid, Code: CodeDependencyInvalid, Checks: "dependencies have valid names and ranges, once each", Default: fail, Strict: fail, Install: fail, Why: WhyIdentity},
	{ID: ruleSuggestsInvalid, Code: CodeSuggestsInvalid, Checks: "suggests holds bare, valid names, once each", Default: fail, Strict: fail, Install: warn,
		Instead: "an invalid suggestion is never installed"},
	{ID: ruleOverrideKeyUnknown, Code: CodeOverrideKeyUnknown, Checks: "agentOverrides names known agents and keys", Default: fail, Strict: fail, Install: warn,
		Instead: "the unknown override is not projected"},
	{ID: ruleManifestUnknownKey, Code: CodeManifestUnknownKey, Checks: "skill.yaml has no unknown key", Default: warn, Strict: fail, Install: warn},
	{ID: ruleManifestMissing, Code: CodeManifestMissing, Checks: "the package has a skill.yaml", Default: off, Strict: fail, Install: off},

	// the entrypoint
	{ID: ruleFrontMatterMissing, Code: CodeRequiredField, Checks: "SKILL.md starts with front matter", Default: fail, Strict: fail, Install: fail, Why: WhyInvisible},
	{ID: ruleCommandFrontMatter, Code: CodeRequiredField, Checks: "COMMAND.md starts with front matter", Default: warn, Strict: warn, Install: warn},
	{ID: ruleEntryNameMissing, Code: CodeRequiredField, Checks: "the front matter has a name", Default: fail, Strict: fail, Install: warn,
		Instead: "the installed SKILL.md gets the package name"},
	{ID: ruleEntryNameType, Code: CodeFrontMatterFieldInvalid, Checks: "the front-matter name is a string", Default: fail, Strict: fail, Install: warn,
		Instead: "the installed SKILL.md gets the package name"},
	{ID: ruleEntryNameInvalid, Code: CodeFrontMatterFieldInvalid, Checks: "the front-matter name follows the name grammar", Default: fail, Strict: fail, Install: warn,
		Instead: "the installed SKILL.md gets the package name; a bare skill's name is its package name, which name-invalid refuses"},
	{ID: ruleEntryNameMismatch, Code: CodeNameMismatch, Checks: "the front-matter name is the package's", Default: fail, Strict: fail, Install: warn,
		Instead: "the installed SKILL.md gets the package name"},
	{ID: ruleDescriptionMissing, Code: CodeRequiredField, Checks: "the front matter has a description", Default: fail, Strict: fail, Install: fail, Why: WhyInvisible},
	{ID: ruleDescriptionInvalid, Code: CodeFrontMatterFieldInvalid, Checks: "the description is non-empty text", Default: fail, Strict: fail, Install: fail, Why: WhyInvisible},
	{ID: ruleDescMissingManifest, Code: CodeRequiredField, Checks: "the front matter has a description, when skill.yaml has one", Default: fail, Strict: fail, Install: warn,
		Instead: "the installed SKILL.md gets skill.yaml's description"},
	{ID: ruleDescInvalidManifest, Code: CodeFrontMatterFieldInvalid, Checks: "the description is non-empty text, when skill.yaml has one", Default: fail, Strict: fail, Install: warn,
		Instead: "the installed SKILL.md gets skill.yaml's description"},
	{ID: ruleCommandDescription, Code: CodeRequiredField, Checks: "COMMAND.md has a description", Default: warn, Strict: warn, Install: warn},
	{ID: ruleDescriptionLength, Code: CodeFrontMatterFieldInvalid, Checks: "the description is at most 1024 characters", Default: fail, Strict: fail, Install: warn,
		Instead: "installed as written; an agent that refuses or cuts it says so (ASK_AGENT_CONSTRAINT)"},
	{ID: ruleCompatibility, Code: CodeFrontMatterFieldInvalid, Checks: "compatibility is non-empty text of at most 500 characters", Default: fail, Strict: fail, Install: warn,
		Instead: "installed as written"},
	{ID: ruleMetadataType, Code: CodeFrontMatterFieldInvalid, Checks: "metadata is a mapping", Default: fail, Strict: fail, Install: warn,
		Instead: "installed as written; Codex refuses it (ASK_AGENT_CONSTRAINT)"},
	{ID: ruleMetadataValue, Code: CodeFrontMatterFieldInvalid, Checks: "metadata values are strings", Default: fail, Strict: fail, Install: warn,
		Instead: "installed as written"},
	{ID: ruleAllowedToolsList, Code: CodeFrontMatterFieldInvalid, Checks: "allowed-tools is a string, not a list", Default: warn, Strict: fail, Install: warn},
	{ID: ruleAllowedToolsInvalid, Code: CodeFrontMatterFieldInvalid, Checks: "allowed-tools holds tool names", Default: fail, Strict: fail, Install: warn,
		Instead: "installed as written"},
	{ID: ruleEntryLicenseType, Code: CodeFrontMatterFieldInvalid, Checks: "the front-matter license is a string", Default: fail, Strict: fail, Install: warn,
		Instead: "installed as written"},
	{ID: ruleEntryVersionType, Code: CodeFrontMatterFieldInvalid, Checks: "the front-matter version is a scalar", Default: fail, Strict: fail, Install: warn,
		Instead: "the installed SKILL.md does not carry it; skill.yaml's version counts"},
	{ID: ruleEntryVersionInvalid, Code: CodeVersionInvalid, Checks: "a bare skill's front-matter version is strict semver", Default: fail, Strict: fail, Install: warn,
		Instead: "the version is taken from the source (tag, commit or content)"},
	{ID: ruleEntryVersionMismatch, Code: CodeVersionMismatch, Checks: "the front-matter version is skill.yaml's", Default: fail, Strict: fail, Install: warn,
		Instead: "skill.yaml's version counts"},
	{ID: ruleFrontMatterUnknownKey, Code: CodeFrontMatterUnknownKey, Checks: "the front matter has no key outside the specification", Default: warn, Strict: fail, Install: warn},
	{ID: ruleFrontMatterAgentKey, Code: CodeFrontMatterUnknownKey, Checks: "a key of one agent only (Claude Code's when_to_use, …)", Default: off, Strict: warn, Install: off},
	{ID: ruleLinkOutside, Code: CodeLinkOutsidePackage, Checks: "no link or image is absolute or leaves the package", Default: fail, Strict: fail, Install: fail, Why: WhyUnsafe},
	{ID: ruleLinkSibling, Code: CodeLinkOutsidePackage, Checks: "no link leaves the package for a sibling skill (../beta/SKILL.md)", Default: fail, Strict: fail, Install: warn,
		Instead: "the link resolves where the sibling is installed beside it"},
	{ID: ruleLinkBroken, Code: CodeLinkBroken, Checks: "relative links point at shipped files", Default: warn, Strict: fail, Install: warn},
}

// ruleIndex finds a rule by id; built once from rules and never changed.
var ruleIndex = func() map[string]int {
	m := make(map[string]int, len(rules))
	for i, r := range rules {
		if _, dup := m[r.ID]; dup {
			panic("validate: rule " + r.ID + " is listed twice")
		}
		m[r.ID] = i
	}
	return m
}()

// codeRule finds the rule of a code that only one rule has.
var codeRule = func() map[string]string {
	n := map[string]int{}
	for _, r := range rules {
		n[r.Code]++
	}
	m := map[string]string{}
	for _, r := range rules {
		if n[r.Code] == 1 {
			m[r.Code] = r.ID
		}
	}
	return m
}()

// Rules returns every rule, in the order docs/manifest.md lists them.
// Each call returns a new slice.
func Rules() []Rule { return slices.Clone(rules) }

// RuleByID returns the rule with the given id.
func RuleByID(id string) (Rule, bool) {
	i, ok := ruleIndex[id]
	if !ok {
		return Rule{}, false
	}
	return rules[i], true
}

// ruleOf returns the rule a problem was raised under: the one it names, or
// the only rule of its code. It panics for a problem of a shared code that
// names none, which is a bug in this package.
func ruleOf(p *Problem) Rule {
	id := p.rule
	if id == "" {
		id = codeRule[p.Code]
	}
	if id == "" && p.Code == CodeLicenseInvalid {
		id = ruleLicenseInvalid
		if p.Warning {
			id = ruleLicenseDeprecated
		}
	}
	r, ok := RuleByID(id)
	if !ok {
		panic(fmt.Sprintf("validate: a %s problem (%q) names no rule", p.Code, p.Message))
	}
	return r
}

// graded returns p at gate g: a copy whose Warning matches the rule's
// level, and false when the rule is off at g.
func graded(p *Problem, g Gate) (*Problem, bool) {
	r := ruleOf(p)
	lvl := r.Level(g)
	if lvl == LevelOff {
		return nil, false
	}
	q := *p
	q.rule = r.ID
	q.Warning = lvl == LevelWarning
	return &q, true
}
