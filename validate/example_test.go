package validate_test

import (
	"fmt"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/validate"
)

// A package folder is validated from any fs.FS; the caller names the folder
// and passes the agentOverrides allowlist its agent adapters declare.
func ExampleDir() {
	fsys := fstest.MapFS{
		"skill.yaml": {Data: []byte(`name: java-performance
version: ^1.0.0
description: Java performance engineering. Use when diagnosing latency.
license: Apache-2.0
files: [SKILL.md, skill.yaml]
seo: [java]
`)},
		"SKILL.md": {Data: []byte(`---
name: java-performance
description: Java performance engineering. Use when diagnosing latency.
---
Start with [the profiling guide](references/profiling.md).
`)},
	}
	opts := validate.Options{Gate: validate.GateStrict, OverrideKeys: map[string][]string{"codex": {"interface"}}}
	for _, d := range validate.Dir(fsys, "java-performance", opts) {
		fmt.Println(d)
	}
	// Output:
	// SKILL.md:5:12: error ASK_LINK_BROKEN link "references/profiling.md" points at references/profiling.md, which does not exist in the package
	// skill.yaml:2:10: error ASK_VERSION_INVALID version "^1.0.0" is a range; version must be an exact version, ranges belong in dependencies
	// skill.yaml:6:1: error ASK_MANIFEST_UNKNOWN_KEY skill.yaml has the unknown top-level key "seo"
}

// Collection validates every package below a root, such as a skills/
// folder or a registry checkout, concurrently.
func ExampleCollection() {
	skill := func(name string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte("---\nname: " + name + "\ndescription: Does one thing well. Use when asked.\n---\n")}
	}
	fsys := fstest.MapFS{
		"skills/code-review/SKILL.md":   skill("code-review"),
		"skills/release-notes/SKILL.md": skill("release-notes"),
		"skills/misnamed/SKILL.md":      skill("other-name"),
	}
	results, err := validate.Collection(fsys, validate.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range results {
		fmt.Printf("%s: %d problem(s)\n", r.Path, len(r.Diagnostics))
		for _, d := range r.Diagnostics {
			fmt.Printf("  %s: %s\n", d.Code, d.Message)
		}
	}
	// Output:
	// skills/code-review: 0 problem(s)
	// skills/misnamed: 1 problem(s)
	//   ASK_NAME_MISMATCH: SKILL.md name "other-name" does not match the directory name "misnamed"
	// skills/release-notes: 0 problem(s)
}

// The single-value rules are plain functions, handy for checking user input
// before anything is written, or archive entry names before extraction.
func ExampleCheckPath() {
	for _, p := range []string{"references/guide.md", "../../etc/passwd", `C:\Windows`, "docs/aux.md"} {
		if err := validate.CheckPath(p); err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("path %q is safe\n", p)
	}
	// Output:
	// path "references/guide.md" is safe
	// path "../../etc/passwd" escapes the package with a ".." segment
	// path "C:\\Windows" starts with the drive letter "C:"
	// path "docs/aux.md" has the segment "aux.md", a reserved device name on Windows
}

func ExampleCheckName() {
	for _, name := range []string{"java-performance", "Java_Performance", "@acme/review"} {
		if err := validate.CheckName(name); err != nil {
			p := err.(*validate.Problem)
			fmt.Printf("%s: %s\n  fix: %s\n", p.Code, p.Message, p.Fix)
			continue
		}
		fmt.Printf("%s is valid\n", name)
	}
	// Output:
	// java-performance is valid
	// ASK_NAME_INVALID: name "Java_Performance" contains uppercase letters ("J", "P"); names are lowercase; contains '_'; only lowercase letters, digits and hyphens are allowed
	//   fix: rename it to "java-performance" (lowercase letters, digits and single hyphens, 1-64 characters)
	// ASK_NAME_INVALID: name "@acme/review" contains "@" and "/", reserved for scoped names such as @org/skill
	//   fix: rename it to "acme-review" (lowercase letters, digits and single hyphens, 1-64 characters)
}

func ExampleCheckLicense() {
	for _, expr := range []string{"MIT OR Apache-2.0", "LicenseRef-Acme", "UNLICENSED", "GPL-2.0", "Apache 2"} {
		switch err := validate.CheckLicense(expr); {
		case err == nil:
			fmt.Printf("%s: ok\n", expr)
		case err.(*validate.Problem).Warning:
			fmt.Printf("%s: warning: %v\n", expr, err)
		default:
			fmt.Printf("%s: error: %v\n", expr, err)
		}
	}
	// Output:
	// MIT OR Apache-2.0: ok
	// LicenseRef-Acme: ok
	// UNLICENSED: ok
	// GPL-2.0: warning: license "GPL-2.0" uses a deprecated SPDX identifier
	// Apache 2: error: license "Apache 2" is not a valid SPDX licence expression
}

func ExampleLinks() {
	body := []byte("See [the guide](references/guide%20v2.md#setup), [docs](https://example.com)\nand [a sibling](../other/SKILL.md).\n")
	for _, l := range validate.Links(body, 5, ".") {
		fmt.Printf("%d:%d %s %q -> %q\n", l.Pos.Line, l.Pos.Col, l.Kind, l.Destination, l.Target)
	}
	// Output:
	// 5:5 relative "references/guide%20v2.md#setup" -> "references/guide v2.md"
	// 5:50 external "https://example.com" -> ""
	// 6:5 escaping "../other/SKILL.md" -> ""
}
