package validate

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/format"
)

// manifestFor is a minimal valid skill.yaml for a package named name with
// extra lines appended.
func manifestFor(name, extra string) string {
	return "schemaVersion: 1\nname: " + name + "\nkind: skill\nversion: 1.0.0\ndescription: A skill. Use it.\nfiles:\n  - SKILL.md\n  - skill.yaml\n" + extra
}

// bareFS is a bare skill holding only SKILL.md.
func bareFS(skill string) fstest.MapFS {
	return fstest.MapFS{"SKILL.md": {Data: []byte(skill)}}
}

// gateCase is one package and the rule it breaks.
type gateCase struct {
	rule     string
	fsys     fstest.MapFS
	siblings []string
}

// gateCorpus breaks every rule that validate checks, one package each.
func gateCorpus() []gateCase {
	fm := func(lines string) string {
		return "---\nname: pkg\ndescription: A skill. Use it.\n" + lines + "---\n# Body\n"
	}
	withManifest := func(extra, skill string) fstest.MapFS {
		return fstest.MapFS{"skill.yaml": {Data: []byte(manifestFor("pkg", extra))}, "SKILL.md": {Data: []byte(skill)}}
	}
	manifest := func(yaml string) fstest.MapFS {
		return fstest.MapFS{"skill.yaml": {Data: []byte(yaml)}, "SKILL.md": {Data: []byte(fm(""))}}
	}
	good := fm("")
	return []gateCase{
		{rule: ruleFrontMatterMissing, fsys: bareFS("# No front matter\n")},
		{rule: ruleEntryNameMissing, fsys: bareFS("---\ndescription: A skill. Use it.\n---\n")},
		{rule: ruleEntryNameType, fsys: bareFS("---\nname: 42\ndescription: A skill. Use it.\n---\n")},
		{rule: ruleEntryNameInvalid, fsys: bareFS("---\nname: Bad_Name\ndescription: A skill. Use it.\n---\n")},
		{rule: ruleEntryNameMismatch, fsys: bareFS("---\nname: other\ndescription: A skill. Use it.\n---\n")},
		{rule: ruleDescriptionMissing, fsys: bareFS("---\nname: pkg\n---\n")},
		{rule: ruleDescriptionInvalid, fsys: bareFS("---\nname: pkg\ndescription: 12\n---\n")},
		{rule: ruleDescriptionLength, fsys: bareFS("---\nname: pkg\ndescription: " + strings.Repeat("x", 1068) + "\n---\n")},
		{rule: ruleCompatibility, fsys: bareFS(fm("compatibility: [a]\n"))},
		{rule: ruleMetadataType, fsys: bareFS(fm("metadata: hello\n"))},
		{rule: ruleMetadataValue, fsys: bareFS(fm("metadata:\n  version: 1.0\n"))},
		{rule: ruleAllowedToolsList, fsys: bareFS(fm("allowed-tools: [Read]\n"))},
		{rule: ruleAllowedToolsInvalid, fsys: bareFS(fm("allowed-tools: true\n"))},
		{rule: ruleEntryLicenseType, fsys: bareFS(fm("license: 3\n"))},
		{rule: ruleEntryVersionType, fsys: bareFS(fm("version: [1]\n"))},
		{rule: ruleEntryVersionInvalid, fsys: bareFS(fm("version: 1.0\n"))},
		{rule: ruleFrontMatterUnknownKey, fsys: bareFS(fm("foo: bar\n"))},
		{rule: ruleFrontMatterAgentKey, fsys: bareFS(fm("when_to_use: Always.\n"))},
		{rule: ruleLinkOutside, fsys: bareFS(good + "See [x](../x.md).\n")},
		{rule: ruleLinkSibling, fsys: bareFS(good + "See [beta](../beta/SKILL.md).\n"), siblings: []string{"beta"}},
		{rule: ruleLinkBroken, fsys: bareFS(good + "See [x](missing.md).\n")},
		{rule: ruleManifestMissing, fsys: bareFS(good)},

		{rule: ruleManifestNameMissing, fsys: manifest("schemaVersion: 1\nkind: skill\nversion: 1.0.0\ndescription: A skill.\nfiles: [SKILL.md, skill.yaml]\n")},
		{rule: ruleManifestVersionMissing, fsys: manifest("schemaVersion: 1\nname: pkg\nkind: skill\ndescription: A skill.\nfiles: [SKILL.md, skill.yaml]\n")},
		{rule: ruleManifestDescription, fsys: manifest("schemaVersion: 1\nname: pkg\nkind: skill\nversion: 1.0.0\nfiles: [SKILL.md, skill.yaml]\n")},
		{rule: ruleNameInvalid, fsys: manifest(strings.Replace(manifestFor("pkg", ""), "name: pkg", "name: Bad_Name", 1))},
		{rule: ruleNameFolder, fsys: manifest(manifestFor("other", ""))},
		{rule: ruleKindUnknown, fsys: manifest(strings.Replace(manifestFor("pkg", ""), "kind: skill", "kind: thing", 1))},
		{rule: ruleVersionInvalid, fsys: manifest(strings.Replace(manifestFor("pkg", ""), "version: 1.0.0", "version: '1.0'", 1))},
		{rule: ruleMinVersionInvalid, fsys: manifest(manifestFor("pkg", "compatibility:\n  agents:\n    - id: codex\n      minVersion: newest\n"))},
		{rule: ruleLicenseInvalid, fsys: manifest(manifestFor("pkg", "license: Nope\n"))},
		{rule: ruleLicenseDeprecated, fsys: manifest(manifestFor("pkg", "license: GPL-2.0\n"))},
		{rule: ruleFilesUnsafePath, fsys: manifest(manifestFor("pkg", "  - ../x\n"))},
		{rule: ruleFilesDuplicate, fsys: manifest(manifestFor("pkg", "  - SKILL.md\n"))},
		{rule: ruleEntrypointNotListed, fsys: manifest(strings.Replace(manifestFor("pkg", ""), "  - SKILL.md\n", "", 1))},
		{rule: ruleDependencyInvalid, fsys: manifest(manifestFor("pkg", "dependencies:\n  - name: pkg\n    version: ^1.0.0\n"))},
		{rule: ruleSuggestsInvalid, fsys: manifest(manifestFor("pkg", "suggests:\n  - other@^1\n"))},
		{rule: ruleOverrideKeyUnknown, fsys: manifest(manifestFor("pkg", "agentOverrides:\n  nope:\n    x: 1\n"))},
		{rule: ruleManifestUnknownKey, fsys: manifest(manifestFor("pkg", "bogus: 1\n"))},
		{rule: ruleDescMissingManifest, fsys: withManifest("", "---\nname: pkg\n---\n")},
		{rule: ruleDescInvalidManifest, fsys: withManifest("", "---\nname: pkg\ndescription: ''\n---\n")},
		{rule: ruleEntryVersionMismatch, fsys: withManifest("", fm("version: 2.0.0\n"))},
	}
}

// rulesOf returns the rules a package breaks, whatever the gate.
func rulesOf(t *testing.T, c gateCase) []string {
	t.Helper()
	pkg, loaded := format.Load(c.fsys, format.LoadOptions{})
	if loaded.HasErrors() {
		t.Fatalf("%s: format.Load = %v", c.rule, loaded)
	}
	var seen []string
	ch := &checker{pkg: pkg, opts: Options{DirName: "pkg", Siblings: c.siblings, OverrideKeys: map[string][]string{"codex": {"interface"}}},
		seen: func(r string) { seen = append(seen, r) }}
	ch.run()
	return seen
}

// TestEveryRuleIsReachable proves the table has no dead row: each rule
// that validate checks is raised by a package of the corpus, at the level
// the table gives at every gate.
func TestEveryRuleIsReachable(t *testing.T) {
	covered := map[string]bool{}
	for _, c := range gateCorpus() {
		if got := rulesOf(t, c); !slices.Contains(got, c.rule) {
			t.Errorf("package for %s breaks %v, not %s", c.rule, got, c.rule)
		}
		covered[c.rule] = true
		r, _ := RuleByID(c.rule)
		pkg, _ := format.Load(c.fsys, format.LoadOptions{})
		for _, g := range []Gate{GateDefault, GateStrict, GateInstall} {
			ds := Package(pkg, Options{Gate: g, DirName: "pkg", Siblings: c.siblings, OverrideKeys: map[string][]string{"codex": {"interface"}}})
			found := slices.ContainsFunc(ds, func(d format.Diagnostic) bool {
				return d.Code == r.Code && d.Severity == severityOf(r.Level(g))
			})
			if found != (r.Level(g) != LevelOff) {
				t.Errorf("%s at gate %s: diagnostics %v, want a %s %s", c.rule, g, ds, r.Level(g), r.Code)
			}
		}
	}
	for _, ep := range []string{"Release it.\n", "---\nargument-hint: x\n---\n"} {
		e := decode(t, format.KindCommand, ep)
		for _, p := range checkEntrypoint(e, nil) {
			covered[p.rule] = true
		}
	}
	for _, r := range Rules() {
		if !r.Loading && !covered[r.ID] {
			t.Errorf("rule %s is raised by no package of the corpus", r.ID)
		}
	}
}

// severityOf maps a level that is not off onto format's severities.
func severityOf(l Level) format.Severity {
	if l == LevelWarning {
		return format.SeverityWarning
	}
	return format.SeverityError
}

// TestRuleTable checks the table's own consistency: every code has a rule,
// every refusal at install says why, and every rule a publisher must fix
// but an install lets through says what the install does instead.
func TestRuleTable(t *testing.T) {
	codes := []string{CodeRequiredField, CodeNameInvalid, CodeNameMismatch, CodeKindUnknown, CodeVersionInvalid,
		CodeVersionMismatch, CodeLicenseInvalid, CodeFilesUnsafePath, CodeFilesDuplicate, CodeEntrypointNotListed,
		CodeDependencyInvalid, CodeSuggestsInvalid, CodeOverrideKeyUnknown, CodeManifestUnknownKey, CodeManifestMissing,
		CodeFrontMatterFieldInvalid, CodeFrontMatterUnknownKey, CodeLinkOutsidePackage, CodeLinkBroken,
		format.CodeManifestInvalid, format.CodeManifestSchemaUnsupported, format.CodeFrontMatterInvalid,
		format.CodeWorkflowMetaInvalid, format.CodeEntrypointMissing, format.CodeFilesMissing,
		format.CodePackageUnsafeFile, format.CodePackageTooLarge}
	for _, code := range codes {
		if !slices.ContainsFunc(Rules(), func(r Rule) bool { return r.Code == code }) {
			t.Errorf("no rule has code %s", code)
		}
	}
	for _, r := range Rules() {
		if !slices.Contains(codes, r.Code) {
			t.Errorf("rule %s has the unknown code %q", r.ID, r.Code)
		}
		switch {
		case r.Install == LevelError && r.Why == "":
			t.Errorf("rule %s refuses an install without saying why", r.ID)
		case r.Install != LevelError && r.Why != "":
			t.Errorf("rule %s says why it refuses an install (%s), but it does not", r.ID, r.Why)
		case r.Install == LevelWarning && r.Default == LevelError && r.Instead == "":
			t.Errorf("rule %s lets an install through without saying what happens instead", r.ID)
		}
		if r.Strict < r.Default {
			t.Errorf("rule %s is weaker under --strict (%s) than by default (%s)", r.ID, r.Strict, r.Default)
		}
		if r.Install > r.Default {
			t.Errorf("rule %s is stronger at install (%s) than in validate (%s)", r.ID, r.Install, r.Default)
		}
	}
}

// TestInstallGate shows the install gate on the packages of issue 13:
// what validate refuses, install takes with a warning, unless it makes
// the package unsafe, unreadable or invisible.
func TestInstallGate(t *testing.T) {
	tests := []struct {
		name     string
		fsys     fstest.MapFS
		siblings []string
		dflt     []string // "SEVERITY CODE" at GateDefault
		install  []string // at GateInstall
	}{
		{"metadata number (c2 bad-a)", bareFS("---\nname: pkg\ndescription: A skill. Use it.\nmetadata:\n  version: 1.0\n---\n"), nil,
			[]string{"error ASK_FRONTMATTER_FIELD_INVALID"}, []string{"warning ASK_FRONTMATTER_FIELD_INVALID"}},
		{"1,068-character description (claude-api)", bareFS("---\nname: pkg\ndescription: " + strings.Repeat("d", 1068) + "\n---\n"), nil,
			[]string{"error ASK_FRONTMATTER_FIELD_INVALID"}, []string{"warning ASK_FRONTMATTER_FIELD_INVALID"}},
		{"sibling link (c1 alpha)", bareFS("---\nname: pkg\ndescription: A skill. Use it.\n---\nSee [beta](../beta/SKILL.md).\n"), []string{"beta"},
			[]string{"error ASK_LINK_OUTSIDE_PACKAGE"}, []string{"warning ASK_LINK_OUTSIDE_PACKAGE"}},
		{"link to a folder that is no sibling", bareFS("---\nname: pkg\ndescription: A skill. Use it.\n---\nSee [beta](../beta/SKILL.md).\n"), []string{"gamma"},
			[]string{"error ASK_LINK_OUTSIDE_PACKAGE"}, []string{"error ASK_LINK_OUTSIDE_PACKAGE"}},
		{"link two levels up", bareFS("---\nname: pkg\ndescription: A skill. Use it.\n---\nSee [x](../../beta/SKILL.md).\n"), []string{"beta"},
			[]string{"error ASK_LINK_OUTSIDE_PACKAGE"}, []string{"error ASK_LINK_OUTSIDE_PACKAGE"}},
		{"no description", bareFS("---\nname: pkg\n---\n"), nil,
			[]string{"error ASK_REQUIRED_FIELD"}, []string{"error ASK_REQUIRED_FIELD"}},
		{"no front matter", bareFS("# pkg\n"), nil,
			[]string{"error ASK_REQUIRED_FIELD"}, []string{"error ASK_REQUIRED_FIELD"}},
		{"description only in skill.yaml", fstest.MapFS{"skill.yaml": {Data: []byte(manifestFor("pkg", ""))}, "SKILL.md": {Data: []byte("---\nname: pkg\n---\n")}}, nil,
			[]string{"error ASK_REQUIRED_FIELD"}, []string{"warning ASK_REQUIRED_FIELD"}},
		{"name differs from the folder", bareFS("---\nname: other\ndescription: A skill. Use it.\n---\n"), nil,
			[]string{"error ASK_NAME_MISMATCH"}, []string{"warning ASK_NAME_MISMATCH"}},
		{"unsafe files entry", fstest.MapFS{"skill.yaml": {Data: []byte(manifestFor("pkg", "  - ../etc/passwd\n"))}, "SKILL.md": {Data: []byte("---\nname: pkg\ndescription: A skill. Use it.\n---\n")}}, nil,
			[]string{"error ASK_FILES_UNSAFE_PATH"}, []string{"error ASK_FILES_UNSAFE_PATH"}},
		{"agent key", bareFS("---\nname: pkg\ndescription: A skill. Use it.\nwhen_to_use: Always.\n---\n"), nil, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, g := range []struct {
				gate Gate
				want []string
			}{{GateDefault, tt.dflt}, {GateInstall, tt.install}} {
				pkg, _ := format.Load(tt.fsys, format.LoadOptions{})
				var got []string
				for _, d := range Package(pkg, Options{Gate: g.gate, DirName: "pkg", Siblings: tt.siblings}) {
					got = append(got, d.Severity.String()+" "+d.Code)
				}
				if !slices.Equal(got, g.want) {
					t.Errorf("Package(%s, gate %s) = %q, want %q", tt.name, g.gate, got, g.want)
				}
			}
		})
	}
}

func TestGateAndLevelNames(t *testing.T) {
	for g, want := range map[Gate]string{GateDefault: "default", GateStrict: "strict", GateInstall: "install"} {
		if g.String() != want {
			t.Errorf("Gate(%d).String() = %q, want %q", g, g.String(), want)
		}
	}
	for l, want := range map[Level]string{LevelOff: "off", LevelWarning: "warning", LevelError: "error"} {
		if l.String() != want {
			t.Errorf("Level(%d).String() = %q, want %q", l, l.String(), want)
		}
	}
	if _, ok := RuleByID("no-such-rule"); ok {
		t.Errorf("RuleByID(no-such-rule) found a rule")
	}
}
