package agents

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agent-skills/agent-skills/format"
)

// copilotMaxDescription is the longest description GitHub Copilot CLI
// loads. Verified with agent-oracle against Copilot CLI 1.0.102: a skill
// whose description is 1,068 characters is left out of the skills it
// lists, and its log says "Skill description must be at most 1024
// characters".
const copilotMaxDescription = 1024

// checkCopilot reports what GitHub Copilot CLI refuses in a skill: a
// description longer than copilotMaxDescription. The description counted
// is the one the installed SKILL.md carries: the front matter's, or
// skill.yaml's when the front matter has none.
func checkCopilot(pkg *format.Package) format.Diagnostics {
	ep := pkg.Entrypoint
	if pkg.Kind != format.KindSkill || ep == nil {
		return nil
	}
	desc, _ := ep.String("description")
	if strings.TrimSpace(desc) == "" && pkg.Manifest != nil {
		desc = pkg.Manifest.Description
	}
	if n := utf8.RuneCountInString(desc); n > copilotMaxDescription {
		return format.Diagnostics{constraint(ep.File, ep.Pos("description"), format.SeverityError,
			fmt.Sprintf("the description is %d characters; GitHub Copilot does not load a skill whose description is over %d", n, copilotMaxDescription),
			"shorten the description and move detail into the body")}
	}
	return nil
}
