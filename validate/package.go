package validate

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/agent-skills/agent-skills/format"
)

// Options tunes a validation run.
type Options struct {
	// Gate is the rule set: GateDefault (`validate`), GateStrict
	// (`validate --strict`, `publish`: the warnings a publisher must fix
	// become errors, and a bare skill without skill.yaml is refused) or
	// GateInstall (only what makes a package unsafe, unreadable or
	// invisible is an error). Rules lists every rule's level at each.
	Gate Gate
	// DirName is the name of the package's directory, which the package
	// name must equal. An fs.FS has no name of its own, so the caller
	// passes it; empty skips the comparison. Dir and Collection set it.
	DirName string
	// OverrideKeys is the agentOverrides allowlist the agent adapters
	// declare: agent id → accepted keys. validate knows no agents; a nil
	// map skips the agentOverrides check, a non-nil map rejects every agent
	// and key it does not list.
	OverrideKeys map[string][]string
	// AgentFrontMatterKeys lists, by agent id, the front-matter keys an
	// agent understands beyond the Agent Skills specification; nil means
	// DefaultAgentFrontMatterKeys.
	AgentFrontMatterKeys map[string][]string
	// Siblings are the folder names of the other packages beside this one
	// in its collection. A link that leaves the package for one of them
	// ("../beta/SKILL.md") resolves wherever both are installed, so it is
	// reported under its own rule (link-to-sibling). Collection sets it.
	Siblings []string
	// Load is passed to format.Load by Dir and Collection.
	Load format.LoadOptions
	// Scan makes Collection also run the content scanner (package scan)
	// on every package it loads, in the same worker, so that a command
	// that shows both reads each package once; the report is Result.Scan.
	Scan bool

	// licenses caches CheckLicense results across the packages of one
	// Collection call, where the same few expressions repeat; nil outside.
	licenses *sync.Map
}

// Package checks a loaded package against every rule of the package format
// (DESIGN §3.3) and of the Agent Skills specification, and returns every
// problem found, sorted, each with the package-relative File it is in:
//
//   - manifest: name, version and description present (ASK_REQUIRED_FIELD);
//     name grammar (ASK_NAME_INVALID) and name = DirName
//     (ASK_NAME_MISMATCH); known kind (ASK_KIND_UNKNOWN); strict semver
//     (ASK_VERSION_INVALID); SPDX licence (ASK_LICENSE_INVALID); files path
//     safety and duplicates (ASK_FILES_UNSAFE_PATH, ASK_FILES_DUPLICATE);
//     the entrypoint listed in files (ASK_ENTRYPOINT_NOT_LISTED);
//     dependencies and suggests (ASK_DEPENDENCY_INVALID,
//     ASK_SUGGESTS_INVALID); agentOverrides against Options.OverrideKeys
//     (ASK_OVERRIDE_KEY_UNKNOWN); unknown keys (ASK_MANIFEST_UNKNOWN_KEY, a
//     warning, an error at GateStrict).
//   - entrypoint: the specification's front-matter rules (CheckEntrypoint);
//     its name equal to the package name and its version, when it declares
//     one, equal to the manifest's (ASK_NAME_MISMATCH, ASK_VERSION_MISMATCH);
//     relative Markdown links that leave the package
//     (ASK_LINK_OUTSIDE_PACKAGE; one into a sibling package of
//     Options.Siblings is its own rule) or point at nothing the package
//     ships (ASK_LINK_BROKEN, a warning, an error at GateStrict).
//   - a bare skill (no skill.yaml) is held to the specification's rules
//     only; at GateStrict its missing manifest is ASK_MANIFEST_MISSING.
//
// Each problem's severity is its rule's level at Options.Gate (see Rules).
//
// A manifest whose schemaVersion is newer than format supports is not
// checked further: format.Load already reported it, and the newer schema may
// legitimately differ. Package does not repeat format.Load's diagnostics;
// Dir returns both.
func Package(pkg *format.Package, opts Options) format.Diagnostics {
	if pkg == nil {
		return nil
	}
	c := &checker{pkg: pkg, opts: opts}
	c.run()
	c.diags.Sort()
	return c.diags
}

// Dir loads the package at the root of fsys with format.Load and validates
// it with Package. dirName is the directory's name (see Options.DirName).
// It returns format's diagnostics and validate's together, sorted.
func Dir(fsys fs.FS, dirName string, opts Options) format.Diagnostics {
	opts.DirName = dirName
	_, diags := loadAndCheck(fsys, opts)
	return diags
}

// loadAndCheck loads the package at the root of fsys and validates it,
// returning the package (nil when it could not be read) and the
// diagnostics of both steps, sorted. A files entry that is unsafe is
// reported as such only, not also as missing.
func loadAndCheck(fsys fs.FS, opts Options) (*format.Package, format.Diagnostics) {
	pkg, loaded := format.Load(fsys, opts.Load)
	checked := Package(pkg, opts)
	unsafe := map[format.Pos]bool{}
	for _, d := range checked {
		if d.Code == CodeFilesUnsafePath {
			unsafe[d.Pos] = true
		}
	}
	diags := make(format.Diagnostics, 0, len(loaded)+len(checked))
	for _, d := range loaded {
		if d.Code == format.CodeFilesMissing && unsafe[d.Pos] {
			continue
		}
		diags = append(diags, d)
	}
	diags = append(diags, checked...)
	diags.Sort()
	return pkg, diags
}

// checker holds the state of one Package run.
type checker struct {
	pkg   *format.Package
	opts  Options
	diags format.Diagnostics
	// seen, when set (by tests), is told the rule of every problem found,
	// also of those off at the gate.
	seen func(rule string)
}

// add records a diagnostic at the level its rule has at the gate, unless
// the rule is off there.
func (c *checker) add(file string, pos format.Pos, p *Problem) {
	if c.seen != nil {
		c.seen(ruleOf(p).ID)
	}
	if q, ok := graded(p, c.opts.Gate); ok {
		c.diags = append(c.diags, q.diag(file, pos))
	}
}

func (c *checker) run() {
	m := c.pkg.Manifest
	switch {
	case m != nil && m.SchemaVersion > format.SupportedSchemaVersion:
		return
	case m != nil:
		c.manifest(m)
	case c.pkg.Bare:
		c.add("", format.Pos{}, &Problem{
			Code:    CodeManifestMissing,
			Message: "the package has no skill.yaml; a bare skill cannot be versioned or published",
			Fix:     "run `agent-skills create --from <dir>` to write a skill.yaml that matches SKILL.md",
		})
	}
	c.entrypoint()
}

// manifest applies the skill.yaml rules.
func (c *checker) manifest(m *format.Manifest) {
	file := m.File
	if file == "" {
		file = format.ManifestFile
	}
	at := func(field string, p *Problem) { c.add(file, m.Pos(field), p) }
	fields := func(ps []FieldProblem) {
		for _, p := range ps {
			at(p.Field, p.Problem)
		}
	}

	for _, f := range []string{"name", "version", "description"} {
		if !m.Has(f) {
			c.add(file, format.Pos{}, &Problem{
				Code:    CodeRequiredField,
				Message: fmt.Sprintf("skill.yaml has no %s", f),
				Fix:     requiredFix[f],
				rule:    requiredRule[f],
			})
		}
	}

	if m.Has("name") {
		if err := CheckName(m.Name); err != nil {
			at("name", err.(*Problem))
		} else if c.opts.DirName != "" && m.Name != c.opts.DirName {
			at("name", &Problem{
				Code:    CodeNameMismatch,
				Message: fmt.Sprintf("name %q does not match the directory name %q", m.Name, c.opts.DirName),
				Fix:     fmt.Sprintf("rename the directory to %q, or set name: %s", m.Name, c.opts.DirName),
				rule:    ruleNameFolder,
			})
		}
	}
	if !m.Kind.Valid() {
		at("kind", &Problem{
			Code:    CodeKindUnknown,
			Message: fmt.Sprintf("kind %q is not a known package kind", m.Kind),
			Fix:     "use kind: skill, command or workflow",
		})
	}
	if m.Has("version") {
		if err := CheckVersion(m.Version); err != nil {
			at("version", withRule(err, ruleVersionInvalid))
		}
	}
	if m.Has("description") && strings.TrimSpace(m.Description) == "" {
		at("description", &Problem{
			Code:    CodeRequiredField,
			Message: "description is empty",
			Fix:     requiredFix["description"],
			rule:    ruleManifestDescription,
		})
	}
	if m.Has("license") {
		if p := c.license(m.License); p != nil {
			at("license", p)
		} else if f := LicenseFile(m.License); f != "" && !slices.Contains(c.pkg.Files, f) {
			at("license", &Problem{
				Code:    CodeLicenseInvalid,
				Message: fmt.Sprintf("license points to %s, which the package does not ship", f),
				Fix:     fmt.Sprintf("add %s to the package (and to files), or name the licence with an SPDX expression", f),
			})
		}
	}

	fields(CheckFiles(m.Files))
	// A files value of the wrong type was already reported by format.
	filesUsable := m.Files != nil || !m.Has("files")
	if ep := format.EntrypointFor(m.Kind); ep != "" && filesUsable && !slices.Contains(m.Files, ep) {
		pos := m.KeyPos("files")
		msg := fmt.Sprintf("files does not list the entrypoint %s, so it would not ship", ep)
		if !m.Has("files") {
			msg = fmt.Sprintf("skill.yaml has no files list, so the entrypoint %s would not ship", ep)
		}
		c.add(file, pos, &Problem{
			Code:    CodeEntrypointNotListed,
			Message: msg,
			Fix:     fmt.Sprintf("add `- %s` to files", ep),
		})
	}

	fields(CheckDependencies(m.Name, requirements(m.Dependencies), requirements(m.OptionalDependencies)))
	fields(CheckSuggests(m.Name, m.Suggests))
	for i, a := range m.Compatibility.Agents {
		field := fmt.Sprintf("compatibility.agents[%d].minVersion", i)
		if !m.Has(field) {
			continue
		}
		if err := CheckRange(a.MinVersion); err != nil {
			at(field, &Problem{
				Code:    CodeVersionInvalid,
				Message: fmt.Sprintf("%s (%s): %s", field, a.ID, err.(*Problem).Message),
				Fix:     `write an agent version constraint such as ">=2.0.0"`,
				rule:    ruleMinVersionInvalid,
			})
		}
	}
	if c.opts.OverrideKeys != nil {
		fields(CheckOverrides(m.AgentOverrides, c.opts.OverrideKeys))
	}

	unknown := func(k format.Key, what string) {
		c.add(file, k.Pos, &Problem{
			Code:    CodeManifestUnknownKey,
			Message: fmt.Sprintf("skill.yaml has the unknown %s %q", what, k.Name),
			Fix:     "remove it or check its spelling; known top-level keys are " + strings.Join(format.KnownManifestKeys(), ", "),
		})
	}
	for _, k := range m.UnknownKeys {
		unknown(k, "top-level key")
	}
	for _, k := range m.UnknownNested {
		unknown(k, "key")
	}
}

// requiredRule is the rule of each required manifest field.
var requiredRule = map[string]string{
	"name":        ruleManifestNameMissing,
	"version":     ruleManifestVersionMissing,
	"description": ruleManifestDescription,
}

// withRule returns the *Problem err of a single-value check, raised under
// rule.
func withRule(err error, rule string) *Problem {
	p := *err.(*Problem)
	p.rule = rule
	return &p
}

// requiredFix says how to add each required manifest field.
var requiredFix = map[string]string{
	"name":        "add `name: <package name>`, the same as the directory name",
	"version":     "add `version: 1.0.0` (an exact semantic version)",
	"description": "add `description:` saying what the package covers and when to use it",
}

// requirements converts format's dependencies to Requirements.
func requirements(deps []format.Dependency) []Requirement {
	out := make([]Requirement, len(deps))
	for i, d := range deps {
		out[i] = Requirement{Name: d.Name, Range: d.Version}
	}
	return out
}

// entrypoint applies the specification's front-matter rules, the
// manifest/entrypoint consistency rules and the link checks.
func (c *checker) entrypoint() {
	e := c.pkg.Entrypoint
	if e == nil {
		return
	}
	file := e.File
	if file == "" {
		file = c.pkg.EntrypointFile
	}
	keys := c.opts.AgentFrontMatterKeys
	if keys == nil {
		keys = DefaultAgentFrontMatterKeys()
	}
	m := c.pkg.Manifest
	manifestDescription := m != nil && strings.TrimSpace(m.Description) != ""
	for _, p := range checkEntrypoint(e, keys) {
		if r, ok := withManifest[p.rule]; ok && manifestDescription {
			// The installed entrypoint gets skill.yaml's description.
			p.Problem = withRule(p.Problem, r)
		}
		c.add(file, entrypointPos(e, p), p.Problem)
	}

	// An invalid name has been reported above; a mismatch is not reported
	// on top of it.
	if name, ok := e.Fields["name"].(string); ok && format.ValidName(name) {
		want, from := "", ""
		switch {
		case m != nil && m.Name != "":
			want, from = m.Name, "skill.yaml name"
		case m == nil && c.opts.DirName != "":
			want, from = c.opts.DirName, "directory name"
		}
		if want != "" && name != want {
			c.add(file, e.Pos("name"), &Problem{
				Code:    CodeNameMismatch,
				Message: fmt.Sprintf("%s name %q does not match the %s %q", file, name, from, want),
				Fix:     fmt.Sprintf("set name: %s in %s", want, file),
				rule:    ruleEntryNameMismatch,
			})
		}
	}
	if e.Has("version") {
		v := e.Text("version")
		switch {
		case m != nil && m.Version != "" && v != m.Version:
			c.add(file, e.Pos("version"), &Problem{
				Code:    CodeVersionMismatch,
				Message: fmt.Sprintf("%s version %q does not match the skill.yaml version %q", file, v, m.Version),
				Fix:     fmt.Sprintf("set version: %s in %s, or remove it there (skill.yaml is authoritative)", m.Version, file),
			})
		case m == nil || m.Version == "":
			if err := CheckVersion(v); err != nil {
				c.add(file, e.Pos("version"), withRule(err, ruleEntryVersionInvalid))
			}
		}
	}
	if e.Body != nil {
		c.links(file, e)
	}
}

// withManifest maps the description rules to their variants for a package
// whose skill.yaml has a description.
var withManifest = map[string]string{
	ruleDescriptionMissing: ruleDescMissingManifest,
	ruleDescriptionInvalid: ruleDescInvalidManifest,
}

// entrypointPos places a front-matter problem: on the key for unknown keys,
// on the value otherwise, and on the opening `---` for missing fields.
func entrypointPos(e *format.Entrypoint, p FieldProblem) format.Pos {
	switch {
	case p.Field == "" && e.Kind == format.KindWorkflow:
		return format.Pos{Line: max(e.MetaLine, 1), Col: 1}
	case p.Field == "":
		return format.Pos{Line: max(e.MetaLine-1, 1), Col: 1}
	case p.atKey:
		return e.KeyPos(p.Field)
	}
	if pos := e.Pos(p.Field); pos.Line > 0 {
		return pos
	}
	return e.KeyPos(p.Field)
}

// links checks every relative link and image of the entrypoint's body.
func (c *checker) links(file string, e *format.Entrypoint) {
	dir := path.Dir(file)
	if c.linksHarmless(e.Body, dir) {
		return // nothing to report: spare the Markdown parse
	}
	for _, l := range Links(e.Body, e.BodyLine, dir) {
		what := "link"
		if l.Image {
			what = "image"
		}
		switch l.Kind {
		case LinkEscaping:
			if l.Sibling != "" && slices.Contains(c.opts.Siblings, l.Sibling) {
				c.add(file, l.Pos, &Problem{
					Code: CodeLinkOutsidePackage,
					Message: fmt.Sprintf("%s %q leaves the package for the sibling skill %s; it resolves only where %s is installed beside it",
						what, l.Destination, l.Sibling, l.Sibling),
					Fix:  "install " + l.Sibling + " too, or copy what the link needs into the package",
					rule: ruleLinkSibling,
				})
				continue
			}
			fallthrough
		case LinkAbsolute:
			how := "is an absolute path"
			if l.Kind == LinkEscaping {
				how = "leaves the package"
			}
			c.add(file, l.Pos, &Problem{
				Code:    CodeLinkOutsidePackage,
				Message: fmt.Sprintf("%s %q %s; an installed package cannot reach it", what, l.Destination, how),
				Fix:     "copy the target into the package and link to it with a relative path, or use an https:// URL",
				rule:    ruleLinkOutside,
			})
		case LinkRelative:
			if c.shipped(l.Target) {
				continue
			}
			msg := fmt.Sprintf("%s %q points at %s, which does not exist in the package", what, l.Destination, l.Target)
			fix := "fix the path (it is relative to " + file + ") or add the missing file"
			if c.onDisk(l.Target) {
				msg = fmt.Sprintf("%s %q points at %s, which files does not list, so it would not ship", what, l.Destination, l.Target)
				fix = "add " + l.Target + " (or its folder) to files in skill.yaml"
			}
			c.add(file, l.Pos, &Problem{Code: CodeLinkBroken, Message: msg, Fix: fix})
		}
	}
}

// linksHarmless reports whether no link or image of body can be reported,
// without parsing it: every place a destination may be (linkCandidates)
// holds a URL, a fragment or a relative path to a file the package ships.
// Links parses every SKILL.md an install validates, and most bodies link
// only to their own files.
func (c *checker) linksHarmless(body []byte, dir string) bool {
	dests, ok := linkCandidates(body)
	if !ok {
		return false
	}
	for _, d := range dests {
		switch kind, target, _ := classify(d, dir); kind {
		case LinkExternal, LinkFragment:
		case LinkRelative:
			if !c.shipped(target) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// shipped reports whether target is a file of the package's file set or a
// folder holding one.
func (c *checker) shipped(target string) bool {
	files := c.pkg.Files
	if target == "." {
		return true
	}
	i, found := slices.BinarySearch(files, target)
	if found {
		return true
	}
	// A folder: the first path sorting after it starts with "target/".
	// "/" sorts before every other path byte except a few punctuation
	// marks, so scan the short run of paths that share the prefix.
	for ; i < len(files) && strings.HasPrefix(files[i], target); i++ {
		if strings.HasPrefix(files[i], target+"/") {
			return true
		}
	}
	return false
}

// onDisk reports whether target exists in the package folder at all, to
// tell a file that files does not list from one that does not exist.
func (c *checker) onDisk(target string) bool {
	if c.pkg.FS == nil {
		return false
	}
	_, err := fs.Stat(c.pkg.FS, target)
	return err == nil
}

// license runs CheckLicense, through the Collection-wide cache when there
// is one. SPDX parsing is the most expensive single rule.
func (c *checker) license(expr string) *Problem {
	if c.opts.licenses != nil {
		if v, ok := c.opts.licenses.Load(expr); ok {
			return v.(*Problem)
		}
	}
	var p *Problem
	if err := CheckLicense(expr); err != nil {
		p = err.(*Problem)
	}
	if c.opts.licenses != nil {
		c.opts.licenses.Store(expr, p)
	}
	return p
}
