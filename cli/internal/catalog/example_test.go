package catalog_test

import (
	"fmt"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/cli/internal/catalog"
	"github.com/agent-skills/agent-skills/validate"
)

// Build a collection's catalog, then check a stale committed copy.
func Example() {
	fsys := fstest.MapFS{
		"hello/SKILL.md": {Data: []byte("---\nname: hello\ndescription: Says hello. Use when greeting.\n---\n# Hello\n")},
	}
	c, err := catalog.Build(fsys, validate.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Skills[0].Name, c.Skills[0].Path)

	stale := &catalog.Catalog{SchemaVersion: catalog.SchemaVersion}
	for _, ch := range catalog.Check(stale.Encode(), c) {
		fmt.Println(ch)
	}
	// Output:
	// hello hello
	// added: hello (hello)
}

// CheckResource accepts SKILL.md and references/*.md only.
func ExampleCheckResource() {
	for _, p := range []string{"", "references/guide.md", "%2e%2e/etc/passwd"} {
		res, err := catalog.CheckResource(p)
		fmt.Printf("%q %q %v\n", p, res, err != nil)
	}
	// Output:
	// "" "SKILL.md" false
	// "references/guide.md" "references/guide.md" false
	// "%2e%2e/etc/passwd" "" true
}
