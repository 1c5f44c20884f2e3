package agents

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/format"
)

// acme is a valid custom agent: its own roots, the shared .agents/skills
// declared, file-shaped commands and every kind of evidence.
func acme() CustomAgent {
	return CustomAgent{
		ID: "acme", DisplayName: "Acme Agent",
		Skills: CustomRoots{GlobalRoot: "~/.acme/skills", ProjectRoot: ".acme/skills",
			AlsoGlobal: []string{"~/.agents/skills"}, AlsoProject: []string{".agents/skills"}},
		Commands:    &CustomCommands{ProjectRoot: ".acme/commands", GlobalRoot: "~/.acme/commands", Shape: ShapeFile, Extension: ".md"},
		Executables: []string{"acme"},
		ConfigDirs:  []string{"~/.acme"},
		Markers:     []string{".acme", "ACME.md"},
	}
}

func TestWithCustomBuildsATableAdapter(t *testing.T) {
	env := testEnv(nil)
	table, err := WithCustom(Default(), []CustomAgent{acme()}, env)
	if err != nil {
		t.Fatalf("WithCustom(acme) = %v", err)
	}
	ids := table.IDs()
	if got, want := ids[len(ids)-1], "acme"; got != want || !slices.Equal(ids[:len(ids)-1], Default().IDs()) {
		t.Fatalf("WithCustom(acme).IDs() = %q, want the built-in ids then acme", ids)
	}
	a, err := table.Lookup("ACME")
	if err != nil {
		t.Fatalf("Lookup(ACME) = %v", err)
	}
	if _, ok := a.(*tableAdapter); !ok {
		t.Fatalf("the custom adapter is %T, want *tableAdapter so that it plans like a built-in one", a)
	}
	if !IsCustom(a) || IsCustom(mustLookup(t, "claude-code")) || IsCustom(DirAdapter("/x")) {
		t.Errorf("IsCustom: acme %v, claude-code %v, --dir %v; want only acme", IsCustom(a), IsCustom(mustLookup(t, "claude-code")), IsCustom(DirAdapter("/x")))
	}
	if a.DisplayName() != "Acme Agent" {
		t.Errorf("DisplayName() = %q", a.DisplayName())
	}
	j := filepath.Join
	cases := []struct {
		kind  format.Kind
		scope Scope
		want  Location
		reads []string
	}{
		{format.KindSkill, ScopeProject, Location{Root: j("/work/p", ".acme", "skills"), Shape: ShapeDirectory},
			[]string{j("/work/p", ".acme", "skills"), j("/work/p", ".agents", "skills")}},
		{format.KindSkill, ScopeGlobal, Location{Root: j("/home/u", ".acme", "skills"), Shape: ShapeDirectory},
			[]string{j("/home/u", ".acme", "skills"), j("/home/u", ".agents", "skills")}},
		{format.KindCommand, ScopeProject, Location{Root: j("/work/p", ".acme", "commands"), Shape: ShapeFile, Extension: ".md"},
			[]string{j("/work/p", ".acme", "commands")}},
	}
	for _, c := range cases {
		loc, ok := a.LocationFor(c.kind, c.scope, env)
		if !ok || loc != c.want {
			t.Errorf("LocationFor(%s, %s) = %+v, %v, want %+v", c.kind, c.scope, loc, ok, c.want)
		}
		if got := a.ReadRoots(c.kind, c.scope, env); !slices.Equal(got, c.reads) {
			t.Errorf("ReadRoots(%s, %s) = %q, want %q", c.kind, c.scope, got, c.reads)
		}
	}
	if r := SkipReason(a, format.KindWorkflow, ScopeProject, env); r == "" {
		t.Errorf("SkipReason(workflow) is empty, want a reason")
	}
	if m := table.ProjectMarkers(); !slices.Contains(m, "ACME.md") {
		t.Errorf("ProjectMarkers() = %q, want the custom marker ACME.md too", m)
	}
}

// TestCustomAgentWithoutCommands: no commands entry, no command location.
func TestCustomAgentWithoutCommands(t *testing.T) {
	table, err := WithCustom(Default(), []CustomAgent{{ID: "solo", Skills: CustomRoots{ProjectRoot: ".solo/skills"}}}, testEnv(nil))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := table.Lookup("solo")
	if _, ok := a.LocationFor(format.KindCommand, ScopeProject, testEnv(nil)); ok {
		t.Errorf("LocationFor(command) = ok, want none")
	}
	if _, ok := a.LocationFor(format.KindSkill, ScopeGlobal, testEnv(nil)); ok {
		t.Errorf("LocationFor(skill, global) = ok for an agent with project roots only, want none")
	}
	if a.DisplayName() != "solo" {
		t.Errorf("DisplayName() = %q, want the id when none is configured", a.DisplayName())
	}
}

// TestCustomAgentPlansLikeABuiltin: the declared shared root lets the
// planner write once for the custom agent and Codex.
func TestCustomAgentPlansLikeABuiltin(t *testing.T) {
	env := testEnv(nil)
	table, err := WithCustom(Default(), []CustomAgent{acme()}, env)
	if err != nil {
		t.Fatal(err)
	}
	sel, err := table.Select([]string{"acme,codex"})
	if err != nil {
		t.Fatal(err)
	}
	plan := PlanRoots(sel, format.KindSkill, ScopeProject, env)
	if len(plan.Targets) != 1 || plan.Targets[0].Root != filepath.Join("/work/p", ".agents", "skills") ||
		!slices.Equal(plan.Targets[0].Readers, []string{"codex", "acme"}) {
		t.Errorf("PlanRoots(acme, codex) = %+v, want one target .agents/skills read by codex and acme", plan.Targets)
	}
	alone := PlanRoots(sel[1:], format.KindSkill, ScopeProject, env)
	if len(alone.Targets) != 1 || alone.Targets[0].Root != filepath.Join("/work/p", ".acme", "skills") {
		t.Errorf("PlanRoots(acme) = %+v, want its own .acme/skills", alone.Targets)
	}
	pkg := &format.Package{Kind: format.KindSkill, Manifest: &format.Manifest{Name: "x", Description: "d"},
		Entrypoint: &format.Entrypoint{Body: []byte("body\n")}, FS: fstest.MapFS{"SKILL.md": {Data: []byte("---\nname: x\ndescription: d\n---\nbody\n")}}}
	if _, err := LayoutForRoot(pkg, sel[1:]); err != nil {
		t.Errorf("LayoutForRoot(acme) = %v, want the neutral projection", err)
	}
}

// TestCustomAgentDetect: a configuration folder and an executable are
// strong evidence, a marker weak, exactly as for a built-in agent.
func TestCustomAgentDetect(t *testing.T) {
	table, err := WithCustom(Default(), []CustomAgent{acme()}, testEnv(nil))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := table.Lookup("acme")
	files := map[string]bool{}
	env := testEnv(nil)
	env.Stat = func(name string) (fs.FileInfo, error) {
		if files[name] {
			return fstest.MapFS{"d": {Mode: fs.ModeDir}}.Stat("d")
		}
		return nil, fs.ErrNotExist
	}
	if d := a.Detect(context.Background(), env); d.Confidence != ConfidenceNone {
		t.Errorf("Detect(nothing) = %s, want none", d.Confidence)
	}
	files[filepath.Join("/work/p", "ACME.md")] = true
	if d := a.Detect(context.Background(), env); d.Confidence != ConfidenceWeak {
		t.Errorf("Detect(marker) = %s, want weak", d.Confidence)
	}
	files[filepath.Join("/home/u", ".acme")] = true
	if d := a.Detect(context.Background(), env); d.Confidence != ConfidenceStrong || d.Evidence[0].Kind != EvidenceConfigDir {
		t.Errorf("Detect(config dir) = %+v, want strong through the config dir", d)
	}
	env.Stat = nil
	env.LookPath = func(f string) (string, error) {
		if f == "acme" {
			return "/usr/bin/acme", nil
		}
		return "", errors.New("not found")
	}
	if d := a.Detect(context.Background(), env); d.Confidence != ConfidenceStrong || d.Evidence[0].Kind != EvidenceExecutable {
		t.Errorf("Detect(executable) = %+v, want strong through the executable", d)
	}
}

// TestWithCustomRefuses: every branch of the entry checks and the root
// rule, each with its code and the field it names.
func TestWithCustomRefuses(t *testing.T) {
	proj := func(root string, also ...string) CustomAgent {
		return CustomAgent{ID: "acme", Skills: CustomRoots{ProjectRoot: root, AlsoProject: also}}
	}
	glob := func(root string, also ...string) CustomAgent {
		return CustomAgent{ID: "acme", Skills: CustomRoots{GlobalRoot: root, AlsoGlobal: also}}
	}
	with := func(c CustomAgent, f func(*CustomAgent)) CustomAgent { f(&c); return c }
	cases := []struct {
		name  string
		specs []CustomAgent
		over  map[string]RootOverride
		code  string
		want  string // in the message of the problem
	}{
		{"empty id", []CustomAgent{{Skills: CustomRoots{ProjectRoot: ".x/skills"}}}, nil, CodeCustomAgentInvalid, "agents.: an agent id is"},
		{"bad id", []CustomAgent{{ID: "Acme_1", Skills: CustomRoots{ProjectRoot: ".x/skills"}}}, nil, CodeCustomAgentInvalid, "lowercase letters"},
		{"reserved all", []CustomAgent{{ID: "all", Skills: CustomRoots{ProjectRoot: ".x/skills"}}}, nil, CodeCustomAgentInvalid, "the id all is reserved"},
		{"reserved dir", []CustomAgent{{ID: "dir", Skills: CustomRoots{ProjectRoot: ".x/skills"}}}, nil, CodeCustomAgentInvalid, "the id dir is reserved"},
		{"built-in id", []CustomAgent{{ID: "codex", Skills: CustomRoots{ProjectRoot: ".x/skills"}}}, nil, CodeCustomAgentInvalid, "codex is a built-in agent"},
		{"built-in alias", []CustomAgent{{ID: "claude", Skills: CustomRoots{ProjectRoot: ".x/skills"}}}, nil, CodeCustomAgentInvalid, "claude is an alias of claude-code"},
		{"twice", []CustomAgent{proj(".x/skills"), proj(".y/skills")}, nil, CodeCustomAgentInvalid, "already acme's"},
		{"no root", []CustomAgent{{ID: "acme"}}, nil, CodeCustomAgentInvalid, "needs a skills root"},
		{"absolute project root", []CustomAgent{proj("/etc/skills")}, nil, CodeCustomAgentInvalid, "agents.acme.projectRoot: \"/etc/skills\" must be a folder inside the project"},
		{"project root escapes", []CustomAgent{proj("../elsewhere")}, nil, CodeCustomAgentInvalid, "inside the project"},
		{"project root is the project", []CustomAgent{proj(".")}, nil, CodeCustomAgentInvalid, "inside the project"},
		{"project root with ~", []CustomAgent{proj("~/x")}, nil, CodeCustomAgentInvalid, "inside the project"},
		{"global root not ~/", []CustomAgent{glob("/opt/skills")}, nil, CodeCustomAgentInvalid, "agents.acme.globalRoot: \"/opt/skills\" must start with ~/"},
		{"global root escapes home", []CustomAgent{glob("~/../other")}, nil, CodeCustomAgentInvalid, "below your home folder"},
		{"shared root escapes", []CustomAgent{proj(".x/skills", "../y")}, nil, CodeCustomAgentInvalid, "agents.acme.alsoReads.project[0]"},
		{"bad shape", []CustomAgent{with(proj(".x/skills"), func(c *CustomAgent) { c.Commands = &CustomCommands{ProjectRoot: ".x/c", Shape: "tree"} })}, nil, CodeCustomAgentInvalid, `shape "tree" is not one of directory, file`},
		{"file shape without extension", []CustomAgent{with(proj(".x/skills"), func(c *CustomAgent) { c.Commands = &CustomCommands{ProjectRoot: ".x/c", Shape: ShapeFile} })}, nil, CodeCustomAgentInvalid, "agents.acme.commands.extension"},
		{"directory shape with extension", []CustomAgent{with(proj(".x/skills"), func(c *CustomAgent) {
			c.Commands = &CustomCommands{ProjectRoot: ".x/c", Shape: ShapeDirectory, Extension: ".md"}
		})}, nil, CodeCustomAgentInvalid, "file shape only"},
		{"commands without root", []CustomAgent{with(proj(".x/skills"), func(c *CustomAgent) { c.Commands = &CustomCommands{Shape: ShapeFile, Extension: ".md"} })}, nil, CodeCustomAgentInvalid, "or leave commands out"},
		{"executable path", []CustomAgent{with(proj(".x/skills"), func(c *CustomAgent) { c.Executables = []string{"./bin/acme"} })}, nil, CodeCustomAgentInvalid, "agents.acme.detect.executables[0]"},
		{"marker escapes", []CustomAgent{with(proj(".x/skills"), func(c *CustomAgent) { c.Markers = []string{"../.acme"} })}, nil, CodeCustomAgentInvalid, "agents.acme.detect.markers[0]"},
		{"config dir not ~/", []CustomAgent{with(proj(".x/skills"), func(c *CustomAgent) { c.ConfigDirs = []string{"/etc/acme"} })}, nil, CodeCustomAgentInvalid, "agents.acme.detect.configDirs[0]"},

		// The root rule.
		{"inside a built-in root", []CustomAgent{proj(".claude/skills/acme")}, nil, CodeAgentRootConflict,
			"agents.acme.projectRoot: is inside .claude/skills, which claude-code"},
		{"contains a built-in root", []CustomAgent{proj(".claude")}, nil, CodeAgentRootConflict,
			"agents.acme.projectRoot: contains .claude/skills, which claude-code"},
		{"global inside", []CustomAgent{glob("~/.agents/skills/acme")}, nil, CodeAgentRootConflict,
			"agents.acme.globalRoot: is inside ~/.agents/skills, which codex"},
		{"global contains", []CustomAgent{glob("~/.agents")}, nil, CodeAgentRootConflict,
			"agents.acme.globalRoot: contains ~/.agents/skills"},
		{"equal, not declared", []CustomAgent{proj(".agents/skills")}, nil, CodeAgentRootConflict,
			"agents.acme.projectRoot: .agents/skills is also read by codex"},
		{"shared inside", []CustomAgent{proj(".x/skills", ".agents/skills/x")}, nil, CodeAgentRootConflict,
			"agents.acme.alsoReads.project[0]: is inside .agents/skills"},
		{"own roots nested", []CustomAgent{proj(".x/skills", ".x/skills/more")}, nil, CodeAgentRootConflict,
			"are nested"},
		{"own root twice", []CustomAgent{proj(".x/skills", ".x/skills")}, nil, CodeAgentRootConflict,
			"is also projectRoot"},
		{"commands in a skills root", []CustomAgent{with(proj(".x/skills"), func(c *CustomAgent) {
			c.Commands = &CustomCommands{ProjectRoot: ".agents/skills", Shape: ShapeFile, Extension: ".md"}
		})}, nil, CodeAgentRootConflict, "agents.acme.commands.projectRoot: .agents/skills is where codex"},
		{"shared for the wrong kind", []CustomAgent{proj(".x/skills", ".claude/commands")}, nil, CodeAgentRootConflict,
			".claude/commands is where claude-code"},
		{"two custom agents, one inside the other", []CustomAgent{proj(".x/skills"), {ID: "beta", Skills: CustomRoots{ProjectRoot: ".x/skills/beta"}}}, nil, CodeAgentRootConflict,
			"agents.beta.projectRoot: is inside .x/skills, which acme reads"},
		{"two custom agents on one root, undeclared", []CustomAgent{proj(".x/skills"), {ID: "beta", Skills: CustomRoots{AlsoProject: []string{".x/skills"}}}}, nil, CodeAgentRootConflict,
			"agents.acme.projectRoot: .x/skills is also read by beta"},
		// An override moves a built-in root: the rule sees where it is now.
		{"inside an overridden root", []CustomAgent{proj("tools/skills/acme")}, map[string]RootOverride{"codex": {ProjectRoot: "tools/skills"}}, CodeAgentRootConflict,
			"is inside tools/skills, which codex reads"},
	}
	for _, c := range cases {
		env := testEnv(nil)
		env.Overrides = c.over
		table, err := WithCustom(Default(), c.specs, env)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: WithCustom = %v, %v, want an *Error", c.name, table, err)
			continue
		}
		all := e.Message + "\n" + strings.Join(e.Detail, "\n")
		if e.Code != c.code || !strings.Contains(all, c.want) {
			t.Errorf("%s: WithCustom = %s %q, want %s containing %q", c.name, e.Code, all, c.code, c.want)
		}
		if !strings.Contains(all, "nothing was written") {
			t.Errorf("%s: the error does not say that nothing was written: %q", c.name, all)
		}
	}
}

// TestWithCustomAccepts: the allowed neighbours of built-in roots.
func TestWithCustomAccepts(t *testing.T) {
	cases := []struct {
		name  string
		specs []CustomAgent
	}{
		{"beside", []CustomAgent{{ID: "acme", Skills: CustomRoots{ProjectRoot: ".acme/skills", GlobalRoot: "~/.acme/skills"}}}},
		// A prefix that is not a parent folder is no collision.
		{"prefix only", []CustomAgent{{ID: "acme", Skills: CustomRoots{ProjectRoot: ".claude/skills-acme"}}}},
		{"declared shared only", []CustomAgent{{ID: "acme", Skills: CustomRoots{AlsoProject: []string{".agents/skills"}, AlsoGlobal: []string{"~/.agents/skills"}}}}},
		{"two custom agents sharing, both declared", []CustomAgent{
			{ID: "acme", Skills: CustomRoots{ProjectRoot: ".a/skills", AlsoProject: []string{".team/skills"}}},
			{ID: "beta", Skills: CustomRoots{ProjectRoot: ".b/skills", AlsoProject: []string{".team/skills"}}},
		}},
		{"full entry", []CustomAgent{acme()}},
	}
	for _, c := range cases {
		if _, err := WithCustom(Default(), c.specs, testEnv(nil)); err != nil {
			t.Errorf("%s: WithCustom = %v, want a table", c.name, err)
		}
	}
	// The project roots are compared relative to the project, so a
	// table can be built before any project is known.
	env := testEnv(nil)
	env.ProjectRoot = ""
	if _, err := WithCustom(Default(), []CustomAgent{acme()}, env); err != nil {
		t.Errorf("WithCustom without a project root = %v", err)
	}
	if _, err := WithCustom(Default(), []CustomAgent{{ID: "acme", Skills: CustomRoots{ProjectRoot: ".claude/skills/x"}}}, env); err == nil {
		t.Errorf("WithCustom without a project root accepted a root inside .claude/skills")
	}
}

// TestWithCustomReportsEveryProblem: one run names every entry's
// problems, valid entries' root conflicts included.
func TestWithCustomReportsEveryProblem(t *testing.T) {
	_, err := WithCustom(Default(), []CustomAgent{
		{ID: "Bad"},
		{ID: "acme", Skills: CustomRoots{ProjectRoot: ".claude/skills/acme"}},
	}, testEnv(nil))
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeCustomAgentInvalid || len(e.Detail) != 3 {
		t.Fatalf("WithCustom = %#v, want ASK_CUSTOM_AGENT_INVALID with two problems and the nothing-written line", err)
	}
	if !strings.HasPrefix(e.Detail[0], "agents.Bad:") || !strings.HasPrefix(e.Detail[1], "agents.acme.projectRoot:") {
		t.Errorf("Detail = %q, want agents.Bad then agents.acme.projectRoot", e.Detail)
	}
}

func TestDirAdapter(t *testing.T) {
	env := testEnv(nil)
	a := DirAdapter("/srv/shared/")
	if a.ID() != DirAgentID {
		t.Errorf("ID() = %q", a.ID())
	}
	loc, ok := a.LocationFor(format.KindSkill, ScopeGlobal, env)
	if !ok || loc != (Location{Root: "/srv/shared", Shape: ShapeDirectory}) {
		t.Errorf("LocationFor(skill, global) = %+v, %v", loc, ok)
	}
	for _, k := range []struct {
		kind  format.Kind
		scope Scope
	}{{format.KindSkill, ScopeProject}, {format.KindCommand, ScopeGlobal}} {
		if _, ok := a.LocationFor(k.kind, k.scope, env); ok {
			t.Errorf("LocationFor(%s, %s) = ok, want none", k.kind, k.scope)
		}
	}
	if got := a.ReadRoots(format.KindSkill, ScopeGlobal, env); !slices.Equal(got, []string{"/srv/shared"}) {
		t.Errorf("ReadRoots = %q", got)
	}
	if d := a.Detect(context.Background(), env); d.Installed {
		t.Errorf("Detect = %+v, want nothing: a folder is named, never detected", d)
	}
	plan := PlanRoots([]Adapter{a}, format.KindSkill, ScopeGlobal, env)
	if len(plan.Targets) != 1 || plan.Targets[0].Root != "/srv/shared" {
		t.Errorf("PlanRoots(dir) = %+v", plan)
	}
}

func TestCheckDir(t *testing.T) {
	env := testEnv(nil)
	j := filepath.Join
	cases := []struct {
		dir, want string
	}{
		{"/srv/shared", ""},
		{j("/work/p", "vendor", "skills"), ""},
		{j("/work/p", ".claude", "skills"), "is a folder Claude Code reads; install for it with --agent claude-code"},
		{j("/work/p", ".claude", "skills", "x"), "is inside"},
		{j("/work/p", ".claude"), "contains"},
		{j("/home/u", ".agents", "skills", "x"), "is inside"},
		{"/home/u", "contains"},
		{j("/work/p", ".claude", "commands", "x"), "is inside"},
	}
	for _, c := range cases {
		err := CheckDir(c.dir, Default(), env)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("CheckDir(%q) = %v, want nil", c.dir, err)
		case c.want != "" && (err == nil || err.Code != CodeAgentRootConflict || !strings.Contains(err.Message, c.want)):
			t.Errorf("CheckDir(%q) = %v, want %s containing %q", c.dir, err, CodeAgentRootConflict, c.want)
		}
	}
	// Custom agents count like built-in ones.
	table, err := WithCustom(Default(), []CustomAgent{acme()}, env)
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckDir(j("/work/p", ".acme", "skills", "x"), table, env); err == nil {
		t.Errorf("CheckDir inside a custom agent's root = nil, want a conflict")
	}
}

// FuzzWithCustom: whatever folders an entry names, an accepted custom
// agent reads and writes only below the project root (project scope) and
// the home folder (global scope), never one of them itself, and never
// inside or around a folder Claude Code or Codex reads.
func FuzzWithCustom(f *testing.F) {
	f.Add(".acme/skills", "~/.acme/skills", ".agents/skills", ".acme")
	f.Add("../x", "~/../x", "/abs", "a/../../b")
	f.Add(".claude/skills/x", "~/.agents", ".", "~")
	f.Add("a\\..\\..\\b", "~/a//b/./c", "C:/x", "./.x/")
	env := testEnv(nil)
	f.Fuzz(func(t *testing.T, project, global, also, marker string) {
		spec := CustomAgent{ID: "acme", Skills: CustomRoots{ProjectRoot: project, GlobalRoot: global, AlsoProject: []string{also}},
			Markers: []string{marker}}
		table, err := WithCustom(Default(), []CustomAgent{spec}, env)
		if err != nil {
			return
		}
		a, _ := table.Lookup("acme")
		others := []string{}
		for _, id := range []string{"claude-code", "codex"} {
			b, _ := table.Lookup(id)
			for _, sc := range []Scope{ScopeGlobal, ScopeProject} {
				others = append(others, b.ReadRoots(format.KindSkill, sc, env)...)
			}
		}
		for _, sc := range []Scope{ScopeGlobal, ScopeProject} {
			base := env.Home
			if sc == ScopeProject {
				base = env.ProjectRoot
			}
			for _, r := range a.ReadRoots(format.KindSkill, sc, env) {
				if r == base || !within(r, base) {
					t.Fatalf("WithCustom(%q, %q, %q) accepted %s root %s, not below %s", project, global, also, sc, r, base)
				}
				for _, o := range others {
					if r != o && (within(r, o) || within(o, r)) {
						t.Fatalf("WithCustom(%q, %q, %q) accepted %s root %s, nested with %s", project, global, also, sc, r, o)
					}
				}
			}
		}
		for _, m := range table.ProjectMarkers() {
			if p := filepath.Join(env.ProjectRoot, filepath.FromSlash(m)); !within(p, env.ProjectRoot) || p == env.ProjectRoot {
				t.Fatalf("marker %q leaves the project", m)
			}
		}
	})
}
