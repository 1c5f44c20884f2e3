package install_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/resolve"
)

// The CLI fetches and verifies a package into a folder, loads it, and
// installs it for the selected agents; a second install of the same
// package changes nothing, and uninstall takes it away.
func Example() {
	base, _ := os.MkdirTemp("", "install-example-")
	defer os.RemoveAll(base)
	payload := filepath.Join(base, "payload")
	os.MkdirAll(payload, 0o755)
	os.WriteFile(filepath.Join(payload, "SKILL.md"), []byte("---\nname: go-review\ndescription: Review Go code. Use on every pull request.\n---\nCheck errors first.\n"), 0o644)
	pkg, _ := format.Load(os.DirFS(payload), format.LoadOptions{})

	selected, _ := agents.Default().Select([]string{"claude", "codex"})
	opts := install.Options{
		Scope:  agents.ScopeProject,
		Env:    agents.Env{Home: filepath.Join(base, "home"), ProjectRoot: filepath.Join(base, "app")},
		Agents: selected,
	}
	item := install.Item{Pkg: pkg, Dir: payload, Registry: "local", Role: resolve.RoleRequested}
	ctx := context.Background()
	for range 2 {
		rep, _ := install.Install(ctx, []install.Item{item}, opts)
		for _, r := range rep.Results {
			rel, _ := filepath.Rel(base, r.Dest)
			fmt.Println(r.Outcome, rel, r.Readers)
		}
	}
	list, _ := install.Scan(ctx, opts)
	for _, in := range list {
		fmt.Println(in.Name, in.State, in.Readers)
	}
	rep, _ := install.Uninstall(ctx, []string{"go-review"}, opts)
	fmt.Println(rep.Results[0].Outcome, rep.Results[1].Outcome)
	// Output:
	// installed app/.agents/skills/go-review [codex]
	// installed app/.claude/skills/go-review [claude-code]
	// unchanged app/.agents/skills/go-review [codex]
	// unchanged app/.claude/skills/go-review [claude-code]
	// go-review ok [codex]
	// go-review ok [claude-code]
	// removed removed
}

// WithLock serialises runs that touch the same roots; the CLI holds the
// same lock while it writes skills.lock.
func ExampleWithLock() {
	dir, _ := os.MkdirTemp("", "lock-example-")
	defer os.RemoveAll(dir)
	err := install.WithLock(context.Background(), filepath.Join(dir, "locks", "global.lock"), func() error {
		fmt.Println("writing skills.lock under the lock")
		return nil
	})
	fmt.Println(err)
	// Output:
	// writing skills.lock under the lock
	// <nil>
}
