package agents

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/agent-skills/agent-skills/format"
)

// Scope says whose installation a package goes into: the user's (global)
// or one project's.
type Scope string

const (
	// ScopeGlobal installs for the user, in the agent's home folders.
	ScopeGlobal Scope = "global"
	// ScopeProject installs into one project, below Env.ProjectRoot.
	ScopeProject Scope = "project"
)

// Shape says how one package sits in a root.
type Shape string

const (
	// ShapeDirectory puts each package in a folder named after it.
	ShapeDirectory Shape = "directory"
	// ShapeFile makes each package one file, named after it plus the
	// location's extension.
	ShapeFile Shape = "file"
)

// Location is where an agent keeps every package of one kind in one
// scope, and how each package is laid out there.
type Location struct {
	// Root is the absolute folder that holds the packages.
	Root string `json:"root"`
	// Shape is directory or file.
	Shape Shape `json:"shape"`
	// Extension is appended to the package name for the file shape.
	Extension string `json:"extension,omitempty"`
}

// Dest returns where the package called name is written: Root/name for the
// directory shape, Root/name+Extension for the file shape.
func (l Location) Dest(name string) string {
	if l.Shape == ShapeFile {
		return filepath.Join(l.Root, name+l.Extension)
	}
	return filepath.Join(l.Root, name)
}

// Root is one folder an agent reads, as reported by Roots.
type Root struct {
	// Path is the absolute folder.
	Path string `json:"path"`
	// Preferred marks the root the agent's packages are written to when
	// no other agent shares the install.
	Preferred bool `json:"preferred,omitempty"`
	// Deprecated marks a root the agent still reads but that is on its way
	// out; nothing is installed there and doctor reports skills found there.
	Deprecated bool `json:"deprecated,omitempty"`
}

// Adapter is everything the tool knows about one coding agent: its
// identity, how to detect it, where it reads and where it prefers to have
// each kind of package written, and how a neutral package is projected
// onto it. Every method except Detect is pure; Detect only calls the
// functions in Env, and so do LocationFor and ReadRoots for an agent that
// reads only the first existing folder of several (they ask Env.Stat).
type Adapter interface {
	// ID returns the stable agent id used in configuration, lock files
	// and --agent ("claude-code").
	ID() string
	// DisplayName returns the agent's product name ("Claude Code").
	DisplayName() string
	// Aliases returns other names --agent accepts ("claude").
	Aliases() []string
	// OverrideKeys returns the keys allowed under agentOverrides.<id> in a
	// manifest.
	OverrideKeys() []string
	// Detect looks for evidence that the agent is installed.
	Detect(ctx context.Context, env Env) Detection
	// LocationFor returns where packages of kind are written in scope, or
	// false when the agent has no such location (Codex has no commands).
	LocationFor(kind format.Kind, scope Scope, env Env) (Location, bool)
	// ReadRoots returns every folder the agent reads packages of kind from
	// in scope, in the agent's order, without duplicates.
	ReadRoots(kind format.Kind, scope Scope, env Env) []string
	// LayoutFor projects pkg onto the agent: the files to write and the
	// entrypoint front matter. It reads only pkg.FS.
	LayoutFor(pkg *format.Package) (Layout, error)
	// Validate reports what in pkg this agent would reject or ignore.
	Validate(pkg *format.Package) format.Diagnostics
}

// tableAdapter is an Adapter driven by one row of the agent table.
type tableAdapter struct {
	row agentRow
}

func (a *tableAdapter) ID() string             { return a.row.id }
func (a *tableAdapter) DisplayName() string    { return a.row.displayName }
func (a *tableAdapter) Aliases() []string      { return slices.Clone(a.row.aliases) }
func (a *tableAdapter) OverrideKeys() []string { return slices.Clone(a.row.overrideKeys) }

// String returns the agent id, so adapters print readably in messages.
func (a *tableAdapter) String() string { return a.row.id }

// LocationFor implements Adapter.
func (a *tableAdapter) LocationFor(kind format.Kind, scope Scope, env Env) (Location, bool) {
	spec, ok := a.row.kinds[kind]
	if !ok {
		return Location{}, false
	}
	root := a.preferred(kind, scope, env)
	if root == "" {
		return Location{}, false
	}
	return Location{Root: root, Shape: spec.shape, Extension: spec.ext}, true
}

// ReadRoots implements Adapter.
func (a *tableAdapter) ReadRoots(kind format.Kind, scope Scope, env Env) []string {
	roots := a.roots(kind, scope, env)
	out := make([]string, 0, len(roots))
	for _, r := range roots {
		out = append(out, r.Path)
	}
	return out
}

// roots resolves every root the agent reads for kind in scope, applying
// the configured override, expanding walk-up roots and dropping
// duplicates and roots that cannot be resolved.
func (a *tableAdapter) roots(kind format.Kind, scope Scope, env Env) []Root {
	specs := a.specs(kind, scope, env)
	pref := preferredIndex(specs)
	override := a.override(kind, scope, env)
	var out []Root
	seen := map[string]int{}
	add := func(p string, r Root) {
		if p == "" {
			return
		}
		p = env.canon(p)
		if i, ok := seen[p]; ok {
			// Two specs that name one folder (a link, an override equal
			// to a default): it is preferred when either is, deprecated
			// only when both are.
			out[i].Preferred = out[i].Preferred || r.Preferred
			out[i].Deprecated = out[i].Deprecated && r.Deprecated && !out[i].Preferred
			return
		}
		seen[p] = len(out)
		r.Path = p
		out = append(out, r)
	}
	// A row that reads only other agents' roots has no preferred one to
	// replace: a configured root is then one more root it reads, first,
	// as LocationFor names it.
	if pref < 0 && override != "" {
		add(override, Root{Preferred: true})
	}
	for i, s := range specs {
		r := Root{Preferred: i == pref, Deprecated: s.deprecated}
		if i == pref && override != "" {
			add(override, r)
			continue
		}
		p := s.resolve(env)
		if s.alsoStart && scope == ScopeProject && p != "" {
			if start := startLevel(env); start != "" {
				if rel, err := filepath.Rel(env.ProjectRoot, p); err == nil {
					rr := r
					rr.Preferred = false
					add(filepath.Join(start, rel), rr)
				}
			}
			add(p, r)
			continue
		}
		if s.walkUp && scope == ScopeProject && p != "" {
			rel, err := filepath.Rel(env.ProjectRoot, p)
			if err != nil {
				add(p, r)
				continue
			}
			for _, dir := range walkUp(env.WorkDir, env.ProjectRoot) {
				rr := r
				rr.Preferred = r.Preferred && dir == filepath.Clean(env.ProjectRoot)
				add(filepath.Join(dir, rel), rr)
			}
			continue
		}
		add(p, r)
	}
	return out
}

// startLevel returns the folder the agent is started in when it lies
// strictly below the project root, or "".
func startLevel(env Env) string {
	if levels := walkUp(env.WorkDir, env.ProjectRoot); len(levels) > 1 {
		return levels[0]
	}
	return ""
}

// preferred returns the root packages of kind are written to in scope, or
// "" when there is none.
func (a *tableAdapter) preferred(kind format.Kind, scope Scope, env Env) string {
	if o := a.override(kind, scope, env); o != "" {
		return env.canon(o)
	}
	specs := a.specs(kind, scope, env)
	i := preferredIndex(specs)
	if i < 0 {
		return ""
	}
	return env.canon(specs[i].resolve(env))
}

// override returns the configured skills root for scope, resolved, or "".
// Overrides name the skills root only: other kinds keep the convention.
func (a *tableAdapter) override(kind format.Kind, scope Scope, env Env) string {
	if kind != format.KindSkill {
		return ""
	}
	o, ok := env.Overrides[a.row.id]
	if !ok {
		return ""
	}
	if scope == ScopeProject {
		if env.ProjectRoot == "" {
			return ""
		}
		return resolveOverride(o.ProjectRoot, env.Home, env.ProjectRoot)
	}
	return resolveOverride(o.GlobalRoot, env.Home, env.Home)
}

// specs returns the root specs the agent reads for kind in scope on this
// machine, in its order; none when it reads no packages of that kind. A
// set globalEnv variable replaces every global spec, and of each group of
// alternatives only the one the agent would pick is kept.
func (a *tableAdapter) specs(kind format.Kind, scope Scope, env Env) []rootSpec {
	spec, ok := a.row.kinds[kind]
	if !ok {
		return nil
	}
	if scope == ScopeProject {
		return pickAlternatives(spec.project, env)
	}
	if spec.globalEnv != "" && env.getenv(spec.globalEnv) != "" {
		return []rootSpec{read(place{base: fromEnv, envVar: spec.globalEnv})}
	}
	return pickAlternatives(spec.global, env)
}

// pickAlternatives keeps, of each group of alternative roots, the first
// that exists as a folder according to env.Stat, or the first of the
// group when none does: the one root of the group the agent reads, and so
// the one it can be written to. Roots outside any group are all kept.
func pickAlternatives(specs []rootSpec, env Env) []rootSpec {
	if !slices.ContainsFunc(specs, func(s rootSpec) bool { return s.group != "" }) {
		return specs
	}
	pick := map[string]int{}
	for i, s := range specs {
		if s.group == "" {
			continue
		}
		j, seen := pick[s.group]
		if !seen || (!env.isDir(specs[j].resolve(env)) && env.isDir(s.resolve(env))) {
			pick[s.group] = i
		}
	}
	out := make([]rootSpec, 0, len(specs))
	for i, s := range specs {
		if s.group == "" || pick[s.group] == i {
			out = append(out, s)
		}
	}
	return out
}

// preferredIndex returns the index of the first root that is neither
// deprecated nor compat, or -1.
func preferredIndex(specs []rootSpec) int {
	return slices.IndexFunc(specs, func(s rootSpec) bool { return !s.deprecated && !s.compat })
}

// writable returns the roots packages of kind may be written to for this
// agent in scope, preferred first: every root the agent reads that is
// neither deprecated nor read only for another agent's sake, taken at the
// project root itself (never at a walk-up level), with the configured
// override in place of the preferred root.
func (a *tableAdapter) writable(kind format.Kind, scope Scope, env Env) []string {
	specs := a.specs(kind, scope, env)
	pref := preferredIndex(specs)
	var out []string
	for i, s := range specs {
		if s.deprecated || s.compat {
			continue
		}
		p := s.resolve(env)
		if i == pref {
			if o := a.override(kind, scope, env); o != "" {
				p = o
			}
		}
		p = env.canon(p)
		if p != "" && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// skipReason explains why the agent has no location for kind in scope.
func (a *tableAdapter) skipReason(kind format.Kind, scope Scope, env Env) string {
	spec, ok := a.row.kinds[kind]
	if !ok {
		return a.kindReason(kind)
	}
	specs := a.specs(kind, scope, env)
	// A scope nobody could source (Junie's global folder) says so.
	if r := spec.skips[scope]; r != "" && len(specs) == 0 {
		return r
	}
	// A kind read only from another agent's folders (Copilot's commands)
	// has no location of its own either: its reason says so.
	if len(specs) > 0 && preferredIndex(specs) < 0 {
		return a.kindReason(kind)
	}
	if scope == ScopeProject && env.ProjectRoot == "" {
		return "no project root was given for a project install"
	}
	return fmt.Sprintf("%s has no %s location for %s packages (is the home directory known?)", a.row.displayName, scope, kind)
}

// kindReason is the row's reason for having no location for kind.
func (a *tableAdapter) kindReason(kind format.Kind) string {
	if r := a.row.skipReasons[kind]; r != "" {
		return r
	}
	return fmt.Sprintf("%s has no location for %s packages", a.row.displayName, kind)
}

// Roots returns every folder adapter a reads packages of kind from in
// scope, marking the preferred and the deprecated ones. For an adapter not
// built from this package's table every root is reported plain, with the
// LocationFor root marked preferred.
func Roots(a Adapter, kind format.Kind, scope Scope, env Env) []Root {
	if t, ok := a.(*tableAdapter); ok {
		return t.roots(kind, scope, env)
	}
	loc, ok := a.LocationFor(kind, scope, env)
	loc.Root = env.canon(loc.Root)
	var out []Root
	for _, p := range a.ReadRoots(kind, scope, env) {
		p = env.canon(p)
		if slices.ContainsFunc(out, func(r Root) bool { return r.Path == p }) {
			continue
		}
		out = append(out, Root{Path: p, Preferred: ok && p == loc.Root})
	}
	return out
}

// SkipReason explains, in one sentence, why a has no location for kind in
// scope. It returns "" when a has one.
func SkipReason(a Adapter, kind format.Kind, scope Scope, env Env) string {
	if _, ok := a.LocationFor(kind, scope, env); ok {
		return ""
	}
	if t, ok := a.(*tableAdapter); ok {
		return t.skipReason(kind, scope, env)
	}
	return fmt.Sprintf("%s has no %s location for %s packages", a.DisplayName(), scope, kind)
}

// ProjectCaveat returns one sentence on when agent a does not see project
// skills installed where it reads them (only in a trusted folder, only in
// the folder it is started in), or "" when there is no such condition or
// a is not built from this package's table. The install report prints it.
func ProjectCaveat(a Adapter) string {
	if t, ok := a.(*tableAdapter); ok {
		return t.row.projectCaveat
	}
	return ""
}

// Status returns where adapter a's table row comes from: "verified
// <agent> <version>" when it was proven against the real binary, or
// "documented: <source>" naming the documentation or source it follows.
// It returns "" for an adapter not built from this package's table.
func Status(a Adapter) string {
	if t, ok := a.(*tableAdapter); ok {
		return t.row.status
	}
	return ""
}
