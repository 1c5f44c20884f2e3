package agents

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/format"
)

// This file turns agents the user describes in configuration into rows of
// the same table the built-in agents are (builtin.go), so that a custom
// agent is planned, detected and projected exactly like a built-in one,
// and builds the one-off adapter of install --dir.

// Codes of the errors raised for custom agents and --dir folders,
// documented in docs/errors.md.
const (
	// CodeCustomAgentInvalid reports a custom agent entry that cannot be
	// used as written: an invalid or reserved id, a missing root, a root
	// that is not of the allowed form, a bad shape.
	CodeCustomAgentInvalid = "ASK_CUSTOM_AGENT_INVALID"
	// CodeAgentRootConflict reports a custom agent root (or an install
	// --dir folder) that would make a skill visible twice or under a
	// wrong name: inside or containing a root another agent reads, or
	// equal to one without being declared as shared.
	CodeAgentRootConflict = "ASK_AGENT_ROOT_CONFLICT"
)

// CustomAgent describes an agent that is not built in, as configured in
// config.json's agents.<id>. Roots are written as in the file: project
// roots relative to the project root, slash-separated; global roots as
// "~/…", relative to the home folder.
type CustomAgent struct {
	// ID is the agent's id: lowercase letters, digits and inner hyphens.
	ID string
	// DisplayName is the agent's product name; the id when empty.
	DisplayName string
	// Skills are where the agent reads skills.
	Skills CustomRoots
	// Commands, when set, are where the agent reads Markdown commands.
	Commands *CustomCommands
	// Executables are names looked up on PATH (strong evidence).
	Executables []string
	// ConfigDirs are the agent's configuration folders, "~/…" (strong
	// evidence when one exists).
	ConfigDirs []string
	// Markers are project-relative paths whose presence is weak evidence.
	Markers []string
}

// CustomRoots are a custom agent's skills roots: its own, preferred root
// per scope and the roots it also reads that other agents read too (the
// shared .agents/skills): declared shared, they let the planner write a
// skill once for this agent and the others.
type CustomRoots struct {
	GlobalRoot  string
	ProjectRoot string
	// AlsoGlobal and AlsoProject are the shared roots the agent also
	// reads, in its order, after its own root.
	AlsoGlobal  []string
	AlsoProject []string
}

// CustomCommands are a custom agent's command roots and their shape.
type CustomCommands struct {
	GlobalRoot  string
	ProjectRoot string
	// Shape is ShapeFile (one file per command, named after it plus
	// Extension) or ShapeDirectory.
	Shape     Shape
	Extension string
}

// reservedIDs are names no custom agent may take: "all" selects every
// agent, and "dir" is what install --dir's receipts name as the reader.
var reservedIDs = map[string]string{
	"all":      "--agent all selects every agent",
	DirAgentID: "it names the folder of install --dir in receipts",
}

var customID = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]*[a-z0-9])?$`)

// CustomProblem is one thing wrong with a custom agent entry.
type CustomProblem struct {
	// Agent is the entry's id; Field the key ("projectRoot",
	// "alsoReads.project[0]"), "" for the entry as a whole.
	Agent, Field string
	// Code is CodeCustomAgentInvalid or CodeAgentRootConflict.
	Code string
	// Message says what is wrong and how to fix it.
	Message string
}

// String renders the problem as "agents.<id>.<field>: message".
func (p CustomProblem) String() string {
	key := "agents." + p.Agent
	if p.Field != "" {
		key += "." + p.Field
	}
	return key + ": " + p.Message
}

// WithCustom returns a table of base's adapters followed by one adapter
// per custom agent, in the order given. It refuses the whole set with an
// *Error listing every problem (the code is CodeAgentRootConflict when
// every problem is a root conflict, else CodeCustomAgentInvalid): an id
// that is invalid, reserved or already an id or alias of another agent,
// roots that are not of the allowed form, and roots that would make a
// skill visible twice or under a wrong name (see CheckRoots). env gives
// the home folder, the environment and the overrides of built-in roots
// the comparison uses; its ProjectRoot may be empty (project roots are
// compared relative to the project).
func WithCustom(base *Table, specs []CustomAgent, env Env) (*Table, error) {
	var probs []CustomProblem
	all := base.All()
	taken := map[string]string{}
	for _, a := range all {
		for _, n := range append([]string{a.ID()}, a.Aliases()...) {
			taken[strings.ToLower(n)] = a.ID()
		}
	}
	var custom []*tableAdapter
	var kept []CustomAgent
	for _, s := range specs {
		if owner, ok := taken[s.ID]; ok {
			msg := "the id is already " + owner + "'s; choose another id"
			switch {
			case owner == s.ID && slices.Contains(base.IDs(), s.ID):
				msg = s.ID + " is a built-in agent: only enabled, globalRoot and projectRoot may be set for it"
			case owner != s.ID:
				msg = s.ID + " is an alias of " + owner + ": write agents." + owner + " to configure it, or choose another id for a new agent"
			}
			probs = append(probs, CustomProblem{Agent: s.ID, Code: CodeCustomAgentInvalid, Message: msg})
			continue
		}
		row, ps := customRow(s)
		probs = append(probs, ps...)
		if len(ps) == 0 {
			taken[s.ID] = s.ID
			custom = append(custom, &tableAdapter{row: row})
			kept = append(kept, s)
		}
	}
	// Every valid entry's roots are checked, also when another entry is
	// invalid, so that one run reports every problem.
	table := slices.Clone(all)
	for _, c := range custom {
		table = append(table, c)
	}
	for i, c := range custom {
		probs = append(probs, checkCustomRoots(c, kept[i], table, env)...)
	}
	if len(probs) > 0 {
		return nil, customError(probs)
	}
	return NewTable(table...)
}

// customError turns problems into one *Error.
func customError(probs []CustomProblem) *Error {
	code := CodeAgentRootConflict
	for _, p := range probs {
		if p.Code != CodeAgentRootConflict {
			code = CodeCustomAgentInvalid
		}
	}
	msg := probs[0].String()
	var detail []string
	if len(probs) > 1 {
		msg = fmt.Sprintf("%d problems with custom agents in the configuration", len(probs))
		for _, p := range probs {
			detail = append(detail, p.String())
		}
	}
	detail = append(detail, "No custom agent is used while one has a problem; nothing was written.")
	return &Error{Code: code, Message: msg, Detail: detail,
		Try: []string{"fix the entry in config.json (docs/cli.md#custom-agents), or remove it"}}
}

// commandExt is the form of a file-shaped command root's extension.
var commandExt = regexp.MustCompile(`^\.[A-Za-z0-9]{1,16}$`)

// IsCustom reports whether adapter a is a custom agent the configuration
// defines (WithCustom).
func IsCustom(a Adapter) bool {
	t, ok := a.(*tableAdapter)
	return ok && t.row.custom
}

// customRow builds the table row of a custom agent, or reports why it
// cannot.
func customRow(s CustomAgent) (agentRow, []CustomProblem) {
	var probs []CustomProblem
	bad := func(field, format string, args ...any) {
		probs = append(probs, CustomProblem{Agent: s.ID, Field: field, Code: CodeCustomAgentInvalid, Message: fmt.Sprintf(format, args...)})
	}
	if !customID.MatchString(s.ID) || len(s.ID) > 64 {
		bad("", "an agent id is 1-64 lowercase letters, digits and inner hyphens")
	} else if why, ok := reservedIDs[s.ID]; ok {
		bad("", "the id %s is reserved: %s; choose another", s.ID, why)
	}
	name := s.DisplayName
	if name == "" {
		name = s.ID
	}
	row := agentRow{
		id: s.ID, displayName: name, custom: true,
		markers: nil,
		kinds:   map[format.Kind]kindSpec{},
		skipReasons: map[format.Kind]string{
			format.KindCommand:  name + " has no commands root in the configuration",
			format.KindWorkflow: workflowReason,
		},
	}
	skills := kindSpec{shape: ShapeDirectory}
	if s.Skills.GlobalRoot != "" {
		if p, ok := globalPlace(s.Skills.GlobalRoot, "globalRoot", bad); ok {
			skills.global = append(skills.global, read(p))
		}
	}
	for i, r := range s.Skills.AlsoGlobal {
		if p, ok := globalPlace(r, fmt.Sprintf("alsoReads.global[%d]", i), bad); ok {
			skills.global = append(skills.global, read(p))
		}
	}
	if s.Skills.ProjectRoot != "" {
		if p, ok := projectPlace(s.Skills.ProjectRoot, "projectRoot", bad); ok {
			skills.project = append(skills.project, read(p))
		}
	}
	for i, r := range s.Skills.AlsoProject {
		if p, ok := projectPlace(r, fmt.Sprintf("alsoReads.project[%d]", i), bad); ok {
			skills.project = append(skills.project, read(p))
		}
	}
	if len(skills.global) == 0 && len(skills.project) == 0 && len(probs) == 0 {
		bad("", "a custom agent needs a skills root: set projectRoot, globalRoot or alsoReads")
	}
	row.kinds[format.KindSkill] = skills
	if c := s.Commands; c != nil {
		cmd := kindSpec{shape: c.Shape, ext: c.Extension}
		switch c.Shape {
		case ShapeFile:
			if !commandExt.MatchString(c.Extension) {
				bad("commands.extension", "the file shape needs an extension such as \".md\"")
			}
		case ShapeDirectory:
			if c.Extension != "" {
				bad("commands.extension", "an extension applies to the file shape only")
			}
		default:
			bad("commands.shape", "shape %q is not one of directory, file", c.Shape)
		}
		if c.GlobalRoot != "" {
			if p, ok := globalPlace(c.GlobalRoot, "commands.globalRoot", bad); ok {
				cmd.global = []rootSpec{read(p)}
			}
		}
		if c.ProjectRoot != "" {
			if p, ok := projectPlace(c.ProjectRoot, "commands.projectRoot", bad); ok {
				cmd.project = []rootSpec{read(p)}
			}
		}
		if c.GlobalRoot == "" && c.ProjectRoot == "" {
			bad("commands", "set commands.projectRoot or commands.globalRoot, or leave commands out")
		}
		row.kinds[format.KindCommand] = cmd
		delete(row.skipReasons, format.KindCommand)
	}
	for i, e := range s.Executables {
		if e == "" || strings.ContainsAny(e, `/\`) || e == "." || e == ".." {
			bad(fmt.Sprintf("detect.executables[%d]", i), "%q must be a bare executable name, looked up on PATH", e)
			continue
		}
		row.executables = append(row.executables, e)
	}
	for i, d := range s.ConfigDirs {
		if p, ok := globalPlace(d, fmt.Sprintf("detect.configDirs[%d]", i), bad); ok {
			row.configDirs = append(row.configDirs, p)
		}
	}
	for i, m := range s.Markers {
		if rel, ok := projectRel(m); ok {
			row.markers = append(row.markers, rel)
		} else {
			bad(fmt.Sprintf("detect.markers[%d]", i), "%q must be a path inside the project, relative to its root, without ..", m)
		}
	}
	return row, probs
}

// globalPlace parses a global root "~/rel" as a place below the home
// folder.
func globalPlace(root, field string, bad func(field, format string, args ...any)) (place, bool) {
	rest, ok := strings.CutPrefix(filepath.ToSlash(root), "~/")
	if !ok {
		bad(field, "%q must start with ~/: a custom agent's global folders are in your home folder", root)
		return place{}, false
	}
	rel, ok := projectRel(rest)
	if !ok {
		bad(field, "%q must name a folder below your home folder, without ..", root)
		return place{}, false
	}
	return homeDir(rel, ""), true
}

// projectPlace parses a project root, relative to the project root.
func projectPlace(root, field string, bad func(field, format string, args ...any)) (place, bool) {
	rel, ok := projectRel(root)
	if !ok {
		bad(field, "%q must be a folder inside the project, relative to its root (such as .acme/skills), without ..", root)
		return place{}, false
	}
	return projectDir(rel), true
}

// projectRel cleans a relative, slash-separated path that must stay below
// the folder it is relative to and not be that folder.
func projectRel(p string) (string, bool) {
	p = filepath.ToSlash(p)
	if p == "" || strings.HasPrefix(p, "/") || filepath.IsAbs(filepath.FromSlash(p)) || strings.HasPrefix(p, "~") || filepath.VolumeName(filepath.FromSlash(p)) != "" {
		return "", false
	}
	c := path.Clean(p)
	if c == "." || c == ".." || strings.HasPrefix(c, "../") || strings.Contains(p, "\x00") {
		return "", false
	}
	return c, true
}

// checkEnv is env as the root checks use it: the home folder, the
// environment and the overrides, a placeholder project root when env has
// none, and no links resolved.
func checkEnv(env Env) Env {
	out := Env{Home: env.Home, Getenv: env.Getenv, ProjectRoot: env.ProjectRoot, Overrides: env.Overrides}
	if out.ProjectRoot == "" {
		out.ProjectRoot = filepath.Join(string(filepath.Separator), "project")
	}
	return out
}

// checkCustomRoots applies the root rule to the custom agent c among the
// adapters of table (c included): in each scope, each root c reads —
// skills and commands — must not lie inside or contain a root another
// agent reads (agents that scan nested folders would list a skill twice
// or under the name of its folder), and may equal one only when it is
// declared shared (alsoReads) and holds the same kind. c's own roots must
// not be nested in one another either. Each problem names the field, the
// root as written and every agent it collides with.
func checkCustomRoots(c *tableAdapter, spec CustomAgent, table []Adapter, env Env) []CustomProblem {
	env = checkEnv(env)
	var probs []CustomProblem
	type root struct {
		field, written string
		path           string
		kind           format.Kind
		shared         bool
	}
	type key struct {
		field, relation, other string
	}
	for _, scope := range []Scope{ScopeGlobal, ScopeProject} {
		var own []root
		add := func(field, written string, kind format.Kind, shared bool, p place) {
			own = append(own, root{field: field, written: written, path: p.resolve(env), kind: kind, shared: shared})
		}
		roots := func(own string, also []string, prefix string) {
			if own != "" {
				if p, ok := rootPlace(own, scope); ok {
					add(prefix+"Root", own, format.KindSkill, false, p)
				}
			}
			for i, r := range also {
				if p, ok := rootPlace(r, scope); ok {
					add(fmt.Sprintf("alsoReads.%s[%d]", scope, i), r, format.KindSkill, true, p)
				}
			}
		}
		if scope == ScopeGlobal {
			roots(spec.Skills.GlobalRoot, spec.Skills.AlsoGlobal, "global")
			if c := spec.Commands; c != nil && c.GlobalRoot != "" {
				if p, ok := rootPlace(c.GlobalRoot, scope); ok {
					add("commands.globalRoot", c.GlobalRoot, format.KindCommand, false, p)
				}
			}
		} else {
			roots(spec.Skills.ProjectRoot, spec.Skills.AlsoProject, "project")
			if c := spec.Commands; c != nil && c.ProjectRoot != "" {
				if p, ok := rootPlace(c.ProjectRoot, scope); ok {
					add("commands.projectRoot", c.ProjectRoot, format.KindCommand, false, p)
				}
			}
		}
		for i, r := range own {
			for _, o := range own[:i] {
				switch {
				case r.path == o.path:
					probs = append(probs, CustomProblem{Agent: c.row.id, Field: r.field, Code: CodeAgentRootConflict,
						Message: fmt.Sprintf("%q is also %s; list each folder once", r.written, o.field)})
				case within(r.path, o.path) || within(o.path, r.path):
					probs = append(probs, CustomProblem{Agent: c.row.id, Field: r.field, Code: CodeAgentRootConflict,
						Message: fmt.Sprintf("%q and %s (%q) are nested: what the inner one holds would be seen twice; choose folders side by side", r.written, o.field, o.written)})
				}
			}
		}
		var order []key
		readers := map[key][]string{}
		note := func(k key, id string) {
			if _, ok := readers[k]; !ok {
				order = append(order, k)
			}
			if !slices.Contains(readers[k], id) {
				readers[k] = append(readers[k], id)
			}
		}
		for _, a := range table {
			if a.ID() == c.row.id {
				continue
			}
			for _, kind := range []format.Kind{format.KindSkill, format.KindCommand} {
				for _, p := range a.ReadRoots(kind, scope, env) {
					for _, r := range own {
						shown := showRoot(p, scope, env)
						switch {
						case r.path == p && r.shared && r.kind == kind:
							// Declared shared: the planner writes it once for both.
						case r.path == p && r.kind != kind:
							note(key{r.field, "holds-" + string(kind), shown}, a.ID())
						case r.path == p:
							note(key{r.field, "undeclared", shown}, a.ID())
						case within(r.path, p):
							note(key{r.field, "inside", shown}, a.ID())
						case within(p, r.path):
							note(key{r.field, "contains", shown}, a.ID())
						}
					}
				}
			}
		}
		for _, k := range order {
			ids := strings.Join(readers[k], ", ")
			var msg string
			switch k.relation {
			case "undeclared":
				msg = fmt.Sprintf("%s is also read by %s; list it under alsoReads.%s to share it (written once for all of them), or choose a folder of its own", k.other, ids, scope)
			case "inside":
				msg = fmt.Sprintf("is inside %s, which %s read%s: they would list its skills twice or under the wrong name; choose a folder outside it", k.other, ids, pluralS(readers[k]))
			case "contains":
				msg = fmt.Sprintf("contains %s, which %s read%s: this agent would list their skills too, twice or under the wrong name; choose a folder that holds no other agent's folder", k.other, ids, pluralS(readers[k]))
			default:
				msg = fmt.Sprintf("%s is where %s read%s %s packages; give it a folder of its own", k.other, ids, pluralS(readers[k]), strings.TrimPrefix(k.relation, "holds-"))
			}
			probs = append(probs, CustomProblem{Agent: c.row.id, Field: k.field, Code: CodeAgentRootConflict, Message: msg})
		}
	}
	return probs
}

// pluralS returns "s" when one agent reads, "" for several ("reads",
// "read").
func pluralS(ids []string) string {
	if len(ids) == 1 {
		return "s"
	}
	return ""
}

// rootPlace parses a root already checked by customRow.
func rootPlace(root string, scope Scope) (place, bool) {
	if scope == ScopeGlobal {
		rest, ok := strings.CutPrefix(filepath.ToSlash(root), "~/")
		rel, ok2 := projectRel(rest)
		return homeDir(rel, ""), ok && ok2
	}
	rel, ok := projectRel(root)
	return projectDir(rel), ok
}

// showRoot spells an absolute root for a message: relative to the
// project root in the project scope, "~/…" below the home folder.
func showRoot(p string, scope Scope, env Env) string {
	base, prefix := env.Home, "~/"
	if scope == ScopeProject {
		base, prefix = env.ProjectRoot, ""
	}
	if base != "" {
		if rel, err := filepath.Rel(base, p); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			return prefix + filepath.ToSlash(rel)
		}
	}
	return p
}

// DirAgentID is the reader receipts of install --dir record.
const DirAgentID = "dir"

// dirAdapter is the one-off agent of install --dir: one folder, read in
// the global scope, of the directory shape, with the neutral projection.
type dirAdapter struct {
	*tableAdapter
	root string
}

// DirAdapter returns the one-off adapter of install --dir <root>: an
// agent with the id "dir" that reads skills from the absolute folder root
// in the global scope and nothing else, so that an install, list or
// uninstall through it acts on that folder alone, receipted like any
// agent root.
func DirAdapter(root string) Adapter {
	row := agentRow{
		id: DirAgentID, displayName: "folder " + root,
		kinds: map[format.Kind]kindSpec{format.KindSkill: {shape: ShapeDirectory}},
		skipReasons: map[format.Kind]string{
			format.KindCommand:  "install --dir takes skills only",
			format.KindWorkflow: workflowReason,
		},
	}
	return &dirAdapter{tableAdapter: &tableAdapter{row: row}, root: filepath.Clean(root)}
}

// LocationFor implements Adapter: the folder, for skills in the global
// scope.
func (d *dirAdapter) LocationFor(kind format.Kind, scope Scope, env Env) (Location, bool) {
	if kind != format.KindSkill || scope != ScopeGlobal {
		return Location{}, false
	}
	return Location{Root: env.canon(d.root), Shape: ShapeDirectory}, true
}

// ReadRoots implements Adapter.
func (d *dirAdapter) ReadRoots(kind format.Kind, scope Scope, env Env) []string {
	if l, ok := d.LocationFor(kind, scope, env); ok {
		return []string{l.Root}
	}
	return nil
}

// Detect implements Adapter: a folder is never detected, only named.
func (d *dirAdapter) Detect(context.Context, Env) Detection {
	return Detection{Confidence: ConfidenceNone, Evidence: []Evidence{}}
}

// String returns the agent id.
func (d *dirAdapter) String() string { return DirAgentID }

// CheckDir reports why root, an absolute folder, cannot be an install
// --dir folder for the adapters of table: it is, lies inside or contains
// a root one of them reads in either scope (env's project, if any), so
// that agent would list what is installed there twice or under a wrong
// name. It returns nil when root may be used. Paths are compared as
// env.Canonical spells them.
func CheckDir(root string, table *Table, env Env) *Error {
	root = env.canon(filepath.Clean(root))
	scopes := []Scope{ScopeGlobal}
	if env.ProjectRoot != "" {
		scopes = append(scopes, ScopeProject)
	}
	for _, a := range table.All() {
		for _, scope := range scopes {
			for _, kind := range []format.Kind{format.KindSkill, format.KindCommand} {
				for _, p := range a.ReadRoots(kind, scope, env) {
					p = env.canon(p)
					var why string
					switch {
					case p == root:
						why = "is a folder " + a.DisplayName() + " reads; install for it with --agent " + a.ID()
					case within(root, p):
						why = "is inside " + p + ", which " + a.DisplayName() + " reads: it would list the skill under the wrong name or twice"
					case within(p, root):
						why = "contains " + p + ", which " + a.DisplayName() + " reads: receipts and skills would mix with that agent's"
					}
					if why != "" {
						return &Error{Code: CodeAgentRootConflict, Message: "--dir " + root + " " + why,
							Detail: []string{"Nothing was written."},
							Try:    []string{"choose a folder outside every agent's folders (agent-skills agents lists them)"}}
					}
				}
			}
		}
	}
	return nil
}
