package publish_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agent-skills/agent-skills/cli/internal/publish"
)

// Example publishes a new skill into an empty registry folder: Prepare
// checks it and computes the index entry, Write copies the package and
// creates registry/skills.yaml.
func Example() {
	work, _ := os.MkdirTemp("", "publish-example-")
	defer os.RemoveAll(work)
	pkgDir := filepath.Join(work, "src", "hello")
	os.MkdirAll(pkgDir, 0o755)
	os.WriteFile(filepath.Join(pkgDir, "skill.yaml"), []byte(
		"schemaVersion: 1\nname: hello\nversion: 1.0.0\n"+
			"description: Greets the user. Use when saying hello.\nlicense: MIT\n"+
			"keywords: [greeting]\nfiles:\n  - SKILL.md\n"), 0o644)
	os.WriteFile(filepath.Join(pkgDir, "SKILL.md"), []byte(
		"---\nname: hello\ndescription: Greets the user. Use when saying hello.\n---\n\n# Hello\n"), 0o644)

	ctx := context.Background()
	target := publish.FolderTarget{Root: filepath.Join(work, "registry-root")}
	plan, err := publish.Prepare(ctx, pkgDir, target, publish.Options{KnownAgents: []string{"claude-code", "codex"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(plan.Entry))
	res, err := target.Write(ctx, plan, pkgDir)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("written to", res.Path, "copied:", res.Copied)
	// Output:
	// - name: hello
	//   description: Greets the user. Use when saying hello.
	//   keywords: [greeting]
	//   latest: 1.0.0
	//   versions:
	//     - version: 1.0.0
	//       path: skills/hello
	//       integrity: sha256-IX5ua5RAEBQmJFJrik513UX3+D9353IfeD6XCmM2DSE=
	// written to skills/hello copied: true
}
