package source

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/format"
)

// Found is one skill a source offers.
type Found struct {
	// Name is the skill's name: skill.yaml's name, else SKILL.md's front
	// matter name, else the folder's name.
	Name string `json:"name"`
	// Description is the skill's description, "" when it has none.
	Description string `json:"description,omitempty"`
	// Path is the skill folder inside the source, slash-separated; "" is
	// the root.
	Path string `json:"path"`
	// Bare reports a skill without skill.yaml.
	Bare bool `json:"bare"`
	// Plugin names the Claude plugin that lists the skill, when it was
	// found through .claude-plugin/marketplace.json.
	Plugin string `json:"plugin,omitempty"`
	// Nested lists the folders inside this skill's folder that hold a
	// SKILL.md of their own (examples, templates), relative to Path and
	// sorted. They are part of this skill's package, installed with it,
	// and never offered as skills of their own.
	Nested []string `json:"nested,omitempty"`
	// Copies lists the other folders of the source holding this same skill:
	// the same name and the same digest (format.Digest of the package's
	// files). They are one skill, offered once, at Path.
	Copies []string `json:"copies,omitempty"`
	// Conflicts lists the other folders of the source offering a skill of
	// this name with different contents. The name alone does not choose
	// among them: Options.Skills must name a folder (its Path), and "*"
	// skips them all (Result.Skipped).
	Conflicts []string `json:"conflicts,omitempty"`
}

// Skipped is a skill folder that a selection covered ("*") but that Fetch
// did not materialise, and why. It is data for the caller's report, in the
// shape of an error: a stable code and one sentence.
type Skipped struct {
	// Name is the skill's name.
	Name string `json:"name"`
	// Path is the skill's folder inside the source, as Found.Path.
	Path string `json:"path"`
	// Code is the stable ASK_* code of the reason, documented in
	// docs/errors.md: CodeSourceDuplicateSkill, askerr.CodeValidationFailed,
	// format.CodePackageUnsafeFile or format.CodePackageTooLarge.
	Code string `json:"code"`
	// Reason says why, in one sentence (for a duplicate, naming every
	// folder involved).
	Reason string `json:"reason"`
	// Diagnostics are every error that refused a skill the gate refused.
	Diagnostics format.Diagnostics `json:"diagnostics,omitempty"`
}

// Discovery bounds.
const (
	// maxDiscoveryDepth is how deep below the discovery root a SKILL.md is
	// looked for (skills/<category>/<name>/SKILL.md is depth 3).
	maxDiscoveryDepth = 4
	// maxMarketplaceBytes caps .claude-plugin/marketplace.json.
	maxMarketplaceBytes = 1 << 20
)

// DefaultMaxSkills is how many skill folders discovery reads from one
// source unless Options.MaxSkills says otherwise (install --max-skills). A
// source offering more is refused with ASK_SOURCE_TOO_MANY_SKILLS and the
// count, never cut short: a hostile source can offer millions of folders,
// and each costs a read of its SKILL.md.
const DefaultMaxSkills = 1000

// registryIndex is the file that makes a source a registry.
const registryIndex = "registry/skills.yaml"

// agentDirs are the dot-folders at the top of a source that discovery
// enters: the agent folders whose skills/ subfolder holds skills.
var agentDirs = []string{".claude", ".agents", ".codex", ".github"}

// neverEntered reports the folders discovery never enters, wherever they
// are: version control, dependencies and agent-skills' own state.
func neverEntered(name string) bool {
	return name == ".git" || name == "node_modules" || name == ".agent-skills"
}

// discovery is the outcome of Discover.
type discovery struct {
	registry bool
	found    []Found
}

// discover lists the skills under root (a sub-path, "" for the whole
// source) of fsys, in this order:
//
//  1. registry/skills.yaml at the root of the source (only when root is
//     ""): the source is a registry, and discovery stops;
//  2. a SKILL.md directly in root: that one skill, and discovery stops;
//  3. every folder holding a SKILL.md at most four levels below root —
//     skills/<name>/, skills/<category>/<name>/, <name>/, and the agent
//     folders .claude/skills/<name>/, .agents/skills/<name>/,
//     .codex/skills/<name>/, .github/skills/<name>/ — without descending
//     into a skill, .git, node_modules or .agent-skills, nor into an agent
//     folder other than through its skills/. Any other folder may start
//     with a dot: skills/.curated/<name>/ is OpenAI's layout;
//  4. the skills of every plugin .claude-plugin/marketplace.json in root
//     lists with a relative source (its `skills` entries, or its skills/
//     folder).
//
// A SKILL.md in a folder inside a skill's folder belongs to that skill's
// package (Found.Nested). Two folders giving the same name are one skill
// when their packages have the same digest: the first in the order above
// is offered (skills/ before other folders before agent folders before
// plugins; then by path) and the others are its Copies. With different
// digests every one is offered, each naming the others as Conflicts.
// Found is sorted by name, then path.
//
// At most maxSkills skill folders are read (DefaultMaxSkills when it is
// not positive); with more, discovery only counts the rest, without
// reading them, and fails with ASK_SOURCE_TOO_MANY_SKILLS giving the count
// and the flag that raises the cap. It never returns a truncated list.
func discover(fsys fs.FS, root string, maxSkills int) (discovery, error) {
	if maxSkills <= 0 {
		maxSkills = DefaultMaxSkills
	}
	if err := checkFolder(fsys, root); err != nil {
		return discovery{}, err
	}
	if root == "" {
		if _, err := fs.Stat(fsys, registryIndex); err == nil {
			return discovery{registry: true}, nil
		}
	}
	if f, ok := skillAt(fsys, root); ok {
		f.Nested = nestedSkills(fsys, root)
		return discovery{found: []Found{f}}, nil
	}
	if err := oversizedEntrypoint(fsys, root); err != nil {
		return discovery{}, err
	}
	type cand struct {
		f    Found
		rank int
	}
	// The folders that may hold a skill, in the order they are offered:
	// the walk's, then the plugins a marketplace names.
	type place struct {
		p      string
		rank   int
		plugin string
	}
	var places []place
	walk(fsys, root, 0, func(p string) {
		rank := 1
		rel := strings.TrimPrefix(strings.TrimPrefix(p, root), "/")
		first, _, _ := strings.Cut(rel, "/")
		switch {
		case first == "skills":
			rank = 0
		case slices.Contains(agentDirs, first):
			rank = 2
		}
		places = append(places, place{p, rank, ""})
	})
	for _, ps := range marketplaceSkills(fsys, root) {
		places = append(places, place{ps.path, 3, ps.plugin})
	}
	// Each skill folder is read (its SKILL.md decoded, its folders listed
	// for nested skills) on its own, in parallel for the first maxSkills
	// folders, the most that can be offered; the cap and the order are
	// then applied to the results in order, as one goroutine would.
	type read struct {
		f        Found
		ok, done bool
	}
	reads := make([]read, len(places))
	var first []int // the first place of each folder, up to maxSkills of them
	firstOf := map[string]bool{}
	for i, pl := range places {
		if len(first) < maxSkills && !firstOf[pl.p] {
			firstOf[pl.p] = true
			first = append(first, i)
		}
	}
	readAt := func(p string) read {
		f, ok := skillAt(fsys, p)
		if ok {
			f.Nested = nestedSkills(fsys, p)
		}
		return read{f: f, ok: ok, done: true}
	}
	eachParallel(len(first), materialiseWorkers, func(k int) { reads[first[k]] = readAt(places[first[k]].p) })
	var cands []cand
	seen := map[string]bool{}
	over := 0 // skill folders past the cap: counted, not read
	for i, pl := range places {
		if seen[pl.p] {
			continue
		}
		if len(cands) >= maxSkills {
			if isSkillFolder(fsys, pl.p) {
				seen[pl.p] = true
				over++
			}
			continue
		}
		r := reads[i]
		if !r.done {
			r = readAt(pl.p)
		}
		if r.ok {
			seen[pl.p] = true
			r.f.Plugin = pl.plugin
			cands = append(cands, cand{r.f, pl.rank})
		}
	}
	if over > 0 {
		return discovery{}, tooManySkills(len(cands)+over, maxSkills, root)
	}
	slices.SortStableFunc(cands, func(a, b cand) int {
		if a.rank != b.rank {
			return a.rank - b.rank
		}
		return strings.Compare(a.f.Path, b.f.Path)
	})
	found := make([]Found, len(cands))
	for i, c := range cands {
		found[i] = c.f
	}
	out := sameNames(fsys, found)
	slices.SortFunc(out, func(a, b Found) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.Path, b.Path))
	})
	return discovery{found: out}, nil
}

// sameNames settles the skills of found (in the order of precedence) that
// share a name: folders whose packages have the same digest are one skill,
// the first offered with the others as its Copies; folders with different
// digests are all offered, each with the others as Conflicts. A package
// whose digest cannot be computed (an unsafe file, say) differs from every
// other. Digests are computed only for names given by several folders.
func sameNames(fsys fs.FS, found []Found) []Found {
	byName := map[string][]int{}
	for i, f := range found {
		byName[f.Name] = append(byName[f.Name], i)
	}
	var out []Found
	for i, f := range found {
		group := byName[f.Name]
		if len(group) == 1 {
			out = append(out, f)
			continue
		}
		if group[0] != i {
			continue // the group is settled at its first member
		}
		var kept []Found // one per distinct digest, first of each
		var sums []string
		for _, j := range group {
			g := found[j]
			sum := packageDigest(fsys, g.Path)
			if k := slices.Index(sums, sum); sum != "" && k >= 0 {
				kept[k].Copies = append(kept[k].Copies, g.Path)
				continue
			}
			kept, sums = append(kept, g), append(sums, sum)
		}
		if len(kept) > 1 {
			for k := range kept {
				for l := range kept {
					if l != k {
						kept[k].Conflicts = append(kept[k].Conflicts, kept[l].Path)
					}
				}
				slices.Sort(kept[k].Conflicts)
			}
		}
		out = append(out, kept...)
	}
	return out
}

// unambiguous splits found into the skills a "*" selection takes and the
// ones it skips: every folder of a name several folders offer with
// different contents (Found.Conflicts), since taking one would be a guess
// and taking all would install one over another.
func unambiguous(found []Found) ([]Found, []Skipped) {
	var keep []Found
	var skipped []Skipped
	for _, f := range found {
		if len(f.Conflicts) == 0 {
			keep = append(keep, f)
			continue
		}
		all := append([]string{f.Path}, f.Conflicts...)
		slices.Sort(all)
		skipped = append(skipped, Skipped{Name: f.Name, Path: f.Path, Code: CodeSourceDuplicateSkill,
			Reason: fmt.Sprintf("%d folders offer a skill named %s with different contents (%s); install one with --skill <folder>",
				len(all), f.Name, strings.Join(shownPaths(all), ", "))})
	}
	return keep, skipped
}

// oneFolderEach returns CodeSourceDuplicateSkill when two of the chosen
// skills have the same name: they would be installed over each other.
func oneFolderEach(chosen []Found) error {
	for i, f := range chosen {
		var same []Found
		for _, g := range chosen[i:] {
			if g.Name == f.Name {
				same = append(same, g)
			}
		}
		if len(same) > 1 {
			return duplicateSkill(f.Name, same)
		}
	}
	return nil
}

// duplicateSkill is the CodeSourceDuplicateSkill error for a name that the
// folders hits (two or more) all answer to.
func duplicateSkill(name string, hits []Found) *Error {
	paths := make([]string, len(hits))
	for i, f := range hits {
		paths[i] = orDot(f.Path)
	}
	slices.Sort(paths)
	try := make([]string, len(paths))
	for i, p := range paths {
		try[i] = "--skill " + p
	}
	return &Error{Code: CodeSourceDuplicateSkill,
		Message: fmt.Sprintf("%d folders of the source answer to %s, with different contents: %s; name the folder to install",
			len(paths), quote(name), strings.Join(paths, ", ")),
		Detail: offered(hits),
		Try:    try}
}

// shownPaths writes source paths as messages show them: "." for the root.
func shownPaths(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = orDot(p)
	}
	return out
}

// packageDigest returns format.Digest of the package in folder p of fsys
// (its file set as format.Load gives it, skill.yaml's list or every file
// of a bare skill), or "" when the package cannot be loaded cleanly.
func packageDigest(fsys fs.FS, p string) string {
	sub, err := fs.Sub(fsys, orDot(p))
	if err != nil {
		return ""
	}
	pkg, diags := format.Load(sub, format.LoadOptions{})
	if pkg == nil || slices.ContainsFunc(diags, func(d format.Diagnostic) bool {
		return d.Code == format.CodePackageUnsafeFile || d.Code == format.CodePackageTooLarge
	}) {
		return ""
	}
	sum, err := format.Digest(sub, pkg.Files)
	if err != nil {
		return ""
	}
	return sum
}

// nestedSkills lists the folders below the skill folder p, at most
// maxDiscoveryDepth levels down and relative to p, that hold a SKILL.md:
// what discovery would have offered had p not been a skill. .git,
// node_modules and .agent-skills are not entered; the package leaves them
// out too.
func nestedSkills(fsys fs.FS, p string) []string {
	var out []string
	var visit func(dir string, depth int)
	visit = func(dir string, depth int) {
		if depth >= maxDiscoveryDepth {
			return
		}
		ents, err := fs.ReadDir(fsys, orDot(dir))
		if err != nil {
			return
		}
		for _, e := range ents {
			if !e.IsDir() || neverEntered(e.Name()) {
				continue
			}
			sub := join(dir, e.Name())
			if isSkillFolder(fsys, sub) {
				out = append(out, strings.TrimPrefix(strings.TrimPrefix(sub, p), "/"))
			}
			visit(sub, depth+1)
		}
	}
	visit(p, 0)
	slices.Sort(out)
	return out
}

// checkFolder returns nil when root is a folder of the source, and
// otherwise ASK_SOURCE_NOT_FOUND, or the refuseLink error.
func checkFolder(fsys fs.FS, root string) error {
	if err := refuseLink(fsys, root); err != nil {
		return err
	}
	if info, err := fs.Stat(fsys, orDot(root)); err != nil || !info.IsDir() {
		return notFound("the source has no folder "+quote(root), nil,
			"check the path after owner/repo/ (it is case-sensitive)")
	}
	return nil
}

// refuseLink returns ASK_PACKAGE_UNSAFE_FILE when the path p of the
// source is, or goes through, a symbolic link, and nil otherwise: links
// inside a source are never followed (see treeFS).
func refuseLink(fsys fs.FS, p string) error {
	_, err := fs.Stat(fsys, orDot(p))
	var pe *fs.PathError
	if !isLink(err) || !errors.As(err, &pe) {
		return nil
	}
	return &Error{Code: format.CodePackageUnsafeFile,
		Message: fmt.Sprintf("%s in the source is a symbolic link; agent-skills never follows links inside a source, so it cannot reach %s", pe.Path, quote(p)),
		Try:     []string{"name the folder the link points to instead, if it is inside the source", "or ask the source's maintainers to replace the link with the folder itself"}}
}

// walk calls visit for every folder holding a SKILL.md up to
// maxDiscoveryDepth below dir, without entering a skill folder or a folder
// neverEntered names. At depth 0 an agent folder is entered only through
// its skills/ subfolder: the rest of .claude holds commands, settings and
// whole checkouts (.claude/worktrees). Any other folder is entered, one
// whose name starts with a dot included: OpenAI publishes its skills in
// the categories skills/.curated, skills/.experimental and skills/.system,
// and validate finds packages there too.
func walk(fsys fs.FS, dir string, depth int, visit func(string)) {
	if depth >= maxDiscoveryDepth {
		return
	}
	ents, err := fs.ReadDir(fsys, orDot(dir))
	if err != nil {
		return
	}
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		name := e.Name()
		p := join(dir, name)
		switch {
		case neverEntered(name):
			continue
		case depth == 0 && slices.Contains(agentDirs, name):
			sub := join(p, "skills")
			if fi, err := fs.Stat(fsys, sub); err == nil && fi.IsDir() {
				walk(fsys, sub, depth+2, visit)
			}
			continue
		}
		if t, err := typeOf(fsys, join(p, "SKILL.md")); err == nil && t&fs.ModeSymlink == 0 {
			visit(p)
			continue
		}
		walk(fsys, p, depth+1, visit)
	}
}

// isSkillFolder reports whether folder p holds a SKILL.md regular file,
// without reading it.
func isSkillFolder(fsys fs.FS, p string) bool {
	t, err := typeOf(fsys, join(p, "SKILL.md"))
	return err == nil && t.IsRegular()
}

// typeOf returns the type of name as fs.Lstat gives it; from a onceFS,
// from the listing of its folder, without stat'ing or reading it.
func typeOf(fsys fs.FS, name string) (fs.FileMode, error) {
	if o, ok := fsys.(*onceFS); ok {
		return o.entryType(name)
	}
	info, err := fs.Lstat(fsys, name)
	if err != nil {
		return 0, err
	}
	return info.Mode().Type(), nil
}

// tooManySkills builds the ASK_SOURCE_TOO_MANY_SKILLS error: the source
// (or its sub-path root) holds n skill folders, more than limit.
func tooManySkills(n, limit int, root string) *Error {
	where := "the source"
	if root != "" {
		where = quote(root)
	}
	return &Error{Code: CodeSourceTooManySkills,
		Message: fmt.Sprintf("%s offers %d skills, more than the %d agent-skills reads from one source; nothing was installed", where, n, limit),
		Try: []string{
			fmt.Sprintf("--max-skills %d   to read them all", n),
			"or name one folder of the source: owner/repo/path/to/skills (or ./folder/sub)",
		}}
}

// skillAt reads the skill in folder p, if p holds a SKILL.md.
func skillAt(fsys fs.FS, p string) (Found, bool) {
	if !isSkillFolder(fsys, p) {
		return Found{}, false
	}
	f := Found{Path: p, Bare: true, Name: path.Base(orDot(p))}
	if p == "" {
		f.Name = ""
	}
	if data, err := readCapped(fsys, join(p, format.ManifestFile), 1<<20); err == nil {
		f.Bare = false
		if m, _ := format.DecodeManifest(data, format.ManifestFile); m != nil {
			if m.Name != "" {
				f.Name = m.Name
			}
			f.Description = m.Description
			return f, f.Name != ""
		}
	}
	if data, err := readCapped(fsys, join(p, "SKILL.md"), format.DefaultMaxEntrypointSize); err == nil {
		if e, _ := entrypointsOf(fsys).Decode(data, "SKILL.md", format.KindSkill); e != nil {
			if n, ok := e.String("name"); ok && n != "" {
				f.Name = n
			}
			if d, ok := e.String("description"); ok {
				f.Description = strings.Join(strings.Fields(d), " ")
			}
		}
	}
	return f, f.Name != ""
}

// oversizedEntrypoint returns ASK_PACKAGE_TOO_LARGE when folder p holds
// a SKILL.md over the entrypoint limit. skillAt cannot read the name of
// such a skill at the root of a source, and "no skill found" would hide
// the real reason (docs/sources.md promises ASK_PACKAGE_TOO_LARGE); a
// skill in a sub-folder is named after its folder and refused when it is
// loaded.
func oversizedEntrypoint(fsys fs.FS, p string) error {
	info, err := fs.Lstat(fsys, join(p, "SKILL.md"))
	if err != nil || !info.Mode().IsRegular() || info.Size() <= format.DefaultMaxEntrypointSize {
		return nil
	}
	return tooLarge(join(p, "SKILL.md"), fmt.Sprintf("an entrypoint larger than %d bytes", format.DefaultMaxEntrypointSize))
}

// pluginSkill is a skill folder a marketplace lists.
type pluginSkill struct{ path, plugin string }

// marketplace is the part of .claude-plugin/marketplace.json discovery
// reads.
type marketplace struct {
	Metadata struct {
		PluginRoot string `json:"pluginRoot"`
	} `json:"metadata"`
	Plugins []struct {
		Name   string          `json:"name"`
		Source json.RawMessage `json:"source"`
		Skills json.RawMessage `json:"skills"`
	} `json:"plugins"`
}

// marketplaceSkills lists the skill folders of the plugins that
// root/.claude-plugin/marketplace.json lists with a relative source.
// Plugins sourced elsewhere (github, url, npm objects) are not followed.
func marketplaceSkills(fsys fs.FS, root string) []pluginSkill {
	data, err := readCapped(fsys, join(root, ".claude-plugin/marketplace.json"), maxMarketplaceBytes)
	if err != nil {
		return nil
	}
	var m marketplace
	if json.Unmarshal(data, &m) != nil {
		return nil
	}
	var out []pluginSkill
	for _, p := range m.Plugins {
		var src string
		if json.Unmarshal(p.Source, &src) != nil {
			continue // an object: a plugin in another repository
		}
		if m.Metadata.PluginRoot != "" && !strings.HasPrefix(src, "./") && !strings.HasPrefix(src, "../") {
			src = path.Join(m.Metadata.PluginRoot, src)
		}
		pdir, ok := inside(root, src)
		if !ok {
			continue
		}
		var listed []string
		if len(p.Skills) > 0 {
			var one string
			if json.Unmarshal(p.Skills, &listed) != nil && json.Unmarshal(p.Skills, &one) == nil {
				listed = []string{one}
			}
		}
		if len(listed) == 0 {
			walk(fsys, join(pdir, "skills"), 1, func(s string) { out = append(out, pluginSkill{s, p.Name}) })
			continue
		}
		for _, l := range listed {
			sdir, ok := inside(pdir, l)
			if !ok {
				continue
			}
			if _, ok := skillAt(fsys, sdir); ok {
				out = append(out, pluginSkill{sdir, p.Name})
			} else {
				// a folder of skills rather than one skill
				walk(fsys, sdir, 2, func(s string) { out = append(out, pluginSkill{s, p.Name}) })
			}
		}
	}
	return out
}

// inside joins the relative path rel onto base and reports whether the
// result stays inside the source.
func inside(base, rel string) (string, bool) {
	if rel == "" || strings.HasPrefix(rel, "/") || strings.Contains(rel, `\`) {
		return "", false
	}
	p := path.Join(orDot(base), rel)
	if p == "." {
		return "", true
	}
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", false
	}
	return p, true
}

// readCapped reads a file of at most limit bytes, refusing anything but a
// regular file.
func readCapped(fsys fs.FS, name string, limit int64) ([]byte, error) {
	info, err := fs.Lstat(fsys, name)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() || info.Size() > limit {
		return nil, errors.New(name + " is not a regular file within the size limit")
	}
	return fs.ReadFile(fsys, name)
}

// join joins slash-separated path elements, treating "" as the root.
func join(dir, name string) string {
	if dir == "" || dir == "." {
		return name
	}
	return dir + "/" + name
}

// orDot returns "." for the root.
func orDot(p string) string {
	if p == "" {
		return "."
	}
	return p
}
