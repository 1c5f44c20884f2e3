package source_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agent-skills/agent-skills/cli/internal/source"
)

// The CLI parses each install argument: registry references are left to
// the resolver, sources are fetched, and every skill found is
// materialised as a verified package folder ready for install.Item.
func Example() {
	base, _ := os.MkdirTemp("", "source-example-")
	defer os.RemoveAll(base)
	skill := filepath.Join(base, "app", "tools", "go-review")
	os.MkdirAll(skill, 0o755)
	os.WriteFile(filepath.Join(skill, "SKILL.md"),
		[]byte("---\nname: go-review\ndescription: Review Go code. Use on every pull request.\nversion: 1.2.0\n---\nCheck errors first.\n"), 0o644)

	for _, arg := range []string{"java-basics@^1.2", "./tools/go-review"} {
		ref, ok, err := source.Parse(arg, filepath.Join(base, "app"), nil)
		if err != nil || !ok {
			fmt.Println(arg, "→ registry reference")
			continue
		}
		res, err := source.Fetch(context.Background(), ref, source.Options{
			CacheDir: filepath.Join(base, "cache"),
			Dir:      filepath.Join(base, "staging"),
		})
		if err != nil {
			fmt.Println(err)
			continue
		}
		for _, p := range res.Packages {
			fmt.Println(arg, "→", ref.Kind, p.Name, p.Version, "synthesised:", p.Synthesised)
		}
	}
	// Output:
	// java-basics@^1.2 → registry reference
	// ./tools/go-review → local go-review 1.2.0 synthesised: true
}

// Shorthands and git URLs of one repository share one identity.
func ExampleIdentity() {
	for _, s := range []string{"acme/skills", "https://github.com/Acme/skills.git", "git@github.com:acme/skills.git"} {
		r, _, _ := source.Parse(s, "/", nil)
		fmt.Println(source.Identity(r, nil))
	}
	// Output:
	// github:acme/skills
	// github:acme/skills
	// github:acme/skills
}
