package agents

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agent-skills/agent-skills/format"
)

// claudeMaxListing is how many characters of description plus when_to_use
// Claude Code shows in its skill listing; the rest is cut.
const claudeMaxListing = 1536

// checkClaude reports what Claude Code would ignore or cut: a command
// without a description, files a one-file command cannot carry, and a
// listing text longer than Claude Code shows.
func checkClaude(pkg *format.Package) format.Diagnostics {
	ep := pkg.Entrypoint
	if ep == nil {
		return nil
	}
	desc, _ := ep.String("description")
	if strings.TrimSpace(desc) == "" && pkg.Manifest != nil {
		desc = pkg.Manifest.Description
	}
	var ds format.Diagnostics
	switch pkg.Kind {
	case format.KindCommand:
		if strings.TrimSpace(desc) == "" {
			ds = append(ds, constraint(ep.File, format.Pos{}, format.SeverityError,
				"a Claude Code command needs a description: it is what the / menu shows and how Claude decides to use it",
				"add `description: …` to the COMMAND.md front matter or to skill.yaml"))
		}
		var extra []string
		for _, f := range pkg.Files {
			if f != pkg.EntrypointFile && f != "skill.yaml" {
				extra = append(extra, f)
			}
		}
		if len(extra) > 0 {
			ds = append(ds, constraint(ep.File, format.Pos{}, format.SeverityWarning,
				fmt.Sprintf("a Claude Code command is one file, so %d other file(s) are not installed: %s",
					len(extra), strings.Join(extra, ", ")),
				"make it a skill (kind: skill) to ship supporting files, or drop them from `files`"))
		}
	case format.KindSkill:
		when, _ := ep.String("when_to_use")
		if n := utf8.RuneCountInString(desc) + utf8.RuneCountInString(when); n > claudeMaxListing {
			ds = append(ds, constraint(ep.File, ep.Pos("description"), format.SeverityWarning,
				fmt.Sprintf("description and when_to_use are %d characters; Claude Code lists only the first %d", n, claudeMaxListing),
				"put the routing signal first and move detail into the body"))
		}
	}
	return ds
}
