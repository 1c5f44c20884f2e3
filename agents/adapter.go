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
// functions in Env.
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
	specs := a.specs(kind, scope)
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
	for i, s := range specs {
		r := Root{Preferred: i == pref, Deprecated: s.deprecated}
		if i == pref && override != "" {
			add(override, r)
			continue
		}
		p := s.resolve(env)
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

// preferred returns the root packages of kind are written to in scope, or
// "" when there is none.
func (a *tableAdapter) preferred(kind format.Kind, scope Scope, env Env) string {
	if o := a.override(kind, scope, env); o != "" {
		return env.canon(o)
	}
	specs := a.specs(kind, scope)
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

// specs returns the agent's root specs for kind in scope; none when it
// reads no packages of that kind.
func (a *tableAdapter) specs(kind format.Kind, scope Scope) []rootSpec {
	spec, ok := a.row.kinds[kind]
	if !ok {
		return nil
	}
	if scope == ScopeProject {
		return spec.project
	}
	return spec.global
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
	specs := a.specs(kind, scope)
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
	// A kind read only from another agent's folders (Copilot's commands)
	// has no location of its own either: its reason says so.
	if _, ok := a.row.kinds[kind]; !ok || preferredIndex(a.specs(kind, scope)) < 0 {
		if r := a.row.skipReasons[kind]; r != "" {
			return r
		}
		return fmt.Sprintf("%s has no location for %s packages", a.row.displayName, kind)
	}
	if scope == ScopeProject && env.ProjectRoot == "" {
		return "no project root was given for a project install"
	}
	return fmt.Sprintf("%s has no %s location for %s packages (is the home directory known?)", a.row.displayName, scope, kind)
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
