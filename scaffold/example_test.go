package scaffold_test

import (
	"errors"
	"fmt"
	"strings"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/scaffold"
)

// New returns the files of a complete package; the caller writes them.
func ExampleNew() {
	files, err := scaffold.New(scaffold.Options{
		Name:        "java-performance",
		Description: "Diagnoses JVM latency and CPU problems. Use when a Java service is slow.",
		Author:      "Jane Doe <jane@example.com>",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range files {
		fmt.Println(f.Path, f.Mode)
	}
	// Output:
	// SKILL.md -rw-r--r--
	// references/REFERENCE.md -rw-r--r--
	// skill.yaml -rw-r--r--
}

// A workflow's identity is a static literal that agent-skills reads
// without running the script; quotes in the description are escaped.
func ExampleNew_workflow() {
	files, err := scaffold.New(scaffold.Options{
		Name:        "release-train",
		Kind:        format.KindWorkflow,
		Description: "Ships a release: it's tagged, built and announced. Use when cutting a release.",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range files {
		if f.Path != "WORKFLOW.js" {
			continue
		}
		meta := string(f.Data)
		meta = meta[strings.Index(meta, "export const meta"):]
		fmt.Println(meta[:strings.Index(meta, "};")+2])
	}
	// Output:
	// export const meta = {
	//   name: 'release-train',
	//   description: 'Ships a release: it\'s tagged, built and announced. Use when cutting a release.',
	//   version: '0.1.0',
	// };
}

// Errors carry a stable code and the next action to take.
func ExampleNew_invalidName() {
	_, err := scaffold.New(scaffold.Options{Name: "Java_Performance"})
	var e *scaffold.Error
	if errors.As(err, &e) {
		fmt.Println(e.ErrorCode())
		fmt.Println(e.Error())
		fmt.Println("Try:", e.ErrorTry()[0])
	}
	// Output:
	// ASK_NAME_INVALID
	// name "Java_Performance" contains uppercase letters ("J", "P"); names are lowercase; contains '_'; only lowercase letters, digits and hyphens are allowed
	// Try: rename it to "java-performance" (lowercase letters, digits and single hyphens, 1-64 characters)
}

// Adopt writes the manifest for a bare skill found in the wild.
func ExampleAdopt() {
	bare := fstest.MapFS{
		"SKILL.md": {Data: []byte("---\nname: pdf-forms\n" +
			"description: Fills PDF forms. Use when asked to fill a PDF form.\n" +
			"license: MIT\nmetadata:\n  version: 1.2.0\n---\n# PDF Forms\n")},
		"scripts/fill.py": {Data: []byte("print('fill')\n")},
	}
	a, err := scaffold.Adopt(bare, "pdf-forms", scaffold.AdoptOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(a.Files[0].Data))
	// Output:
	// # Written by `agent-skills create --from`. Keep name, description and version in
	// # step with SKILL.md; agent-skills validate checks that they match.
	//
	// # Package format version; see agent-skills' docs/manifest.md.
	// schemaVersion: 1
	//
	// # Must equal the folder name, and the entrypoint's name when it declares one.
	// name: pdf-forms
	//
	// # skill, command or workflow: decides the entrypoint and where it installs.
	// kind: skill
	//
	// # Strict semver; bump it for every published change.
	// version: 1.2.0
	//
	// description: Fills PDF forms. Use when asked to fill a PDF form.
	//
	// # An SPDX licence expression.
	// license: MIT
	//
	// # Search terms for `agent-skills search`.
	// keywords:
	//   - pdf
	//   - forms
	//
	// # What ships in the package; folders (ending in /) are included recursively.
	// files:
	//   - SKILL.md
	//   - scripts/
	//   - skill.yaml
	//
	// # Informational tags for users and policies; runs-scripts: the package runs code (its scripts, or a shell).
	// capabilities:
	//   - runs-scripts
}
