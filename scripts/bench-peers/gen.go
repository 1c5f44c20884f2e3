package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// topics give the generated skills varied, realistic names and texts.
var topics = []struct{ area, task, tool string }{
	{"java", "tune garbage collection", "jcmd"},
	{"go", "profile hot paths", "pprof"},
	{"python", "package a library", "pip"},
	{"sql", "review a migration", "psql"},
	{"docker", "slim an image", "docker"},
	{"git", "write commit messages", "git"},
	{"kotlin", "structure coroutines", "gradle"},
	{"react", "audit rendering", "npm"},
	{"terraform", "plan an upgrade", "terraform"},
	{"rust", "fix borrow errors", "cargo"},
}

// generate writes n skills into src/skills/<name>/: a SKILL.md of about 2 KB
// with front matter, a references/guide.md of about 3 KB, and for every third
// skill an executable scripts/check.sh. It returns the names in order.
func generate(src string, n int) ([]string, error) {
	names := make([]string, 0, n)
	for i := 1; i <= n; i++ {
		t := topics[i%len(topics)]
		name := fmt.Sprintf("bench-%s-%03d", t.area, i)
		names = append(names, name)
		dir := filepath.Join(src, "skills", name)
		withScript := i%3 == 0
		files := map[string]string{
			"SKILL.md":            skillMD(name, t.area, t.task, t.tool, withScript),
			"references/guide.md": guideMD(name, t.area, t.task, t.tool),
		}
		if withScript {
			files["scripts/check.sh"] = checkSH(name, t.tool)
		}
		for rel, body := range files {
			p := filepath.Join(dir, rel)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return nil, err
			}
			mode := os.FileMode(0o644)
			if strings.HasSuffix(rel, ".sh") {
				mode = 0o755
			}
			if err := os.WriteFile(p, []byte(body), mode); err != nil {
				return nil, err
			}
		}
	}
	return names, nil
}

func skillMD(name, area, task, tool string, withScript bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "---\nname: %s\ndescription: >-\n", name)
	fmt.Fprintf(&b, "  Help a %s developer %s step by step, with the checks a careful reviewer\n", area, task)
	fmt.Fprintf(&b, "  would make and the commands of %s that show the result. Use when asked to\n", tool)
	fmt.Fprintf(&b, "  %s in a %s code base, or when a change needs that review.\n", task, area)
	b.WriteString("license: Apache-2.0\nmetadata:\n")
	fmt.Fprintf(&b, "  short-description: %s for %s\n---\n\n", task, area)
	fmt.Fprintf(&b, "# %s\n\n## Purpose\n\n", name)
	fmt.Fprintf(&b, "Make it routine to %s in %s projects: measure first, change one thing at a\n", task, area)
	b.WriteString("time, and leave the code base with a note of what was learnt. The guide in\n")
	b.WriteString("[references/guide.md](references/guide.md) has the background and the long checklist.\n\n")
	b.WriteString("## Workflow\n\n")
	steps := []string{
		"Read the request and restate, in one sentence, what done looks like.",
		fmt.Sprintf("Collect the current state with `%s` and keep the output for the report.", tool),
		"Find the smallest change that moves the measurement; write it down before making it.",
		"Make the change, run the project's tests, and measure again under the same conditions.",
		"Compare the two measurements; if the gain is within the noise, say so and stop.",
		"Write up what changed, why, the figures before and after, and what was left alone.",
	}
	for i, s := range steps {
		fmt.Fprintf(&b, "%d. %s\n", i+1, s)
	}
	b.WriteString("\n## Checks\n\n")
	for _, c := range []string{"correctness", "error handling", "compatibility", "tests", "readability"} {
		fmt.Fprintf(&b, "- **%s**: does the change keep the %s of the %s code as it was, or better?\n", c, c, area)
	}
	if withScript {
		b.WriteString("\nRun [scripts/check.sh](scripts/check.sh) before handing over; it prints what it checked.\n")
	}
	b.WriteString("\n## Pitfalls\n\n")
	fmt.Fprintf(&b, "- Changing several things at once makes it impossible to say which one helped.\n")
	fmt.Fprintf(&b, "- A single run of `%s` on a busy machine is an anecdote, not a measurement.\n", tool)
	return b.String()
}

func guideMD(name, area, task, tool string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: guide\n\n", name)
	for s := 1; s <= 6; s++ {
		fmt.Fprintf(&b, "## Part %d\n\n", s)
		for l := 0; l < 4; l++ {
			fmt.Fprintf(&b, "When you %s in %s, part %d asks you to look at the inputs and outputs of the\n", task, area, s)
			fmt.Fprintf(&b, "code under change, note what %s reports before and after, and keep both outputs. %d.%d\n", tool, s, l)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func checkSH(name, tool string) string {
	return fmt.Sprintf(`#!/bin/sh
# check.sh for %[1]s: prints what it checks; changes nothing.
set -eu
echo "%[1]s: checking that %[2]s is available"
if command -v %[2]s >/dev/null 2>&1; then
  echo "found: $(command -v %[2]s)"
else
  echo "not found: install %[2]s first" >&2
  exit 1
fi
`, name, tool)
}
