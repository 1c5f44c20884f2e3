package agents_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/format"
)

// An installer plans where one package goes for the selected agents, then
// projects it once per target root.
func Example() {
	pkg, _ := format.Load(fstest.MapFS{
		"SKILL.md": {Data: []byte("---\nname: go-review\ndescription: Review Go code before merging. Use on every pull request.\n---\nCheck errors first.\n")},
	}, format.LoadOptions{})

	selected, _ := agents.Default().Select([]string{"claude", "codex", "gemini"})
	env := agents.Env{Home: "/home/u", ProjectRoot: "/src/app"}
	plan := agents.PlanRoots(selected, pkg.Kind, agents.ScopeProject, env)
	for _, t := range plan.Targets {
		readers, _ := agents.Default().Select(t.Readers)
		layout, _ := agents.LayoutForRoot(pkg, readers)
		fmt.Println(t.Dest(pkg.Name()), t.Readers)
		for _, e := range layout.Entries {
			fmt.Println("  ", e.Path)
		}
	}
	// Output:
	// /src/app/.agents/skills/go-review [codex gemini-cli]
	//    SKILL.md
	//    agents/openai.yaml
	// /src/app/.claude/skills/go-review [claude-code]
	//    SKILL.md
}

func ExampleTable_Lookup() {
	a, _ := agents.Default().Lookup("claude")
	fmt.Println(a.ID(), "-", a.DisplayName())

	_, err := agents.Default().Lookup("cluade")
	var e *agents.Error
	if errors.As(err, &e) {
		fmt.Println(e.Code, e.Message)
		fmt.Println("try:", e.Try[0])
	}
	// Output:
	// claude-code - Claude Code
	// ASK_AGENT_UNKNOWN unknown agent "cluade"
	// try: use --agent claude, the nearest known name
}

func ExampleAdapter_LocationFor() {
	codex, _ := agents.Default().Lookup("codex")
	env := agents.Env{Home: "/home/u", Getenv: func(k string) string {
		return map[string]string{"CODEX_HOME": "/opt/codex"}[k]
	}}
	loc, _ := codex.LocationFor(format.KindSkill, agents.ScopeGlobal, env)
	fmt.Println("writes:", loc.Root)
	fmt.Println("reads: ", codex.ReadRoots(format.KindSkill, agents.ScopeGlobal, env))
	_, ok := codex.LocationFor(format.KindCommand, agents.ScopeGlobal, env)
	fmt.Println("commands:", ok)
	// Output:
	// writes: /home/u/.agents/skills
	// reads:  [/home/u/.agents/skills /opt/codex/skills]
	// commands: false
}

func ExampleAdapter_Detect() {
	machine := fstest.MapFS{"home/u/.claude": {Mode: fs.ModeDir}}
	env := agents.Env{
		Home: "/home/u",
		Stat: func(name string) (fs.FileInfo, error) { return fs.Stat(machine, name[1:]) },
	}
	for _, a := range agents.Default().All()[:2] {
		d := a.Detect(context.Background(), env)
		fmt.Println(a.ID(), d.Confidence, d.Evidence)
	}
	// Output:
	// claude-code strong [{config-dir /home/u/.claude}]
	// codex none []
}

func ExampleLayoutForRoot() {
	pkg, _ := format.Load(fstest.MapFS{
		"skill.yaml": {Data: []byte("name: fix-issue\nkind: command\nversion: 1.0.0\ndescription: Fix a GitHub issue.\nfiles: [COMMAND.md]\n")},
		"COMMAND.md": {Data: []byte("---\nargument-hint: \"[number]\"\n---\nFix issue #$ARGUMENTS.\n")},
	}, format.LoadOptions{})
	claude, _ := agents.Default().Lookup("claude-code")
	layout, _ := agents.LayoutForRoot(pkg, []agents.Adapter{claude})
	loc, _ := claude.LocationFor(pkg.Kind, agents.ScopeProject, agents.Env{ProjectRoot: "/src/app"})
	fmt.Println(loc.Dest(pkg.Name()))
	fmt.Print(string(layout.Entries[0].Content))
	// Output:
	// /src/app/.claude/commands/fix-issue.md
	// ---
	// description: Fix a GitHub issue.
	// argument-hint: '[number]'
	// ---
	// Fix issue #$ARGUMENTS.
}
