package scaffold

import (
	"fmt"
	"strings"
)

// referenceFile is the supporting document a new skill links to from its
// SKILL.md. It follows the Agent Skills convention of a references/ folder
// loaded on demand.
const referenceFile = "references/REFERENCE.md"

// skillFiles generates a skill: skill.yaml, SKILL.md and one reference
// document that SKILL.md links to.
func skillFiles(s settings) ([]File, error) {
	m := s.manifest()
	m.kind = "skill"
	m.files = []string{"SKILL.md", "skill.yaml", "references/"}
	manifest, err := m.encode()
	if err != nil {
		return nil, err
	}
	fm, err := frontMatter(
		[2]string{"name", s.name},
		[2]string{"description", s.description},
	)
	if err != nil {
		return nil, err
	}
	return []File{
		newFile("skill.yaml", manifest),
		newFile("SKILL.md", append(fm, skillBody(s)...)),
		newFile(referenceFile, []byte(referenceBody(s))),
	}, nil
}

// skillBody is the Markdown of SKILL.md after the front matter: the
// Purpose / Workflow / Rules / References structure of DESIGN §3.2, each
// section saying what belongs in it.
func skillBody(s settings) string {
	title := titleFromName(s.name)
	topic := phraseFromName(s.name)
	var b strings.Builder
	fmt.Fprintf(&b, "\n# %s\n", title)
	fmt.Fprintf(&b, `
## Purpose

Replace this paragraph with two or three sentences about %[1]s: the
problem this skill solves, the outcome it aims for, and the mistake it
exists to prevent. Then say what it does not cover, so an agent knows when
to pick another skill.

Agents choose a skill from its name and description alone. Keep the
description in the front matter in step with this section: what the skill
covers, and when to use it.

## Workflow

1. **Establish the situation.** Say what the agent must find out before it
   acts, and how: which files to read, which commands to run, which
   questions to ask the user.
2. **Collect evidence.** Name the measurements, logs or code paths that
   decide what to do, so the agent works from facts rather than guesses.
3. **Decide and act.** Describe the change to make for each case the
   evidence can show. Prefer the smallest change that solves the problem.
4. **Verify.** Say how to prove the result: the test to run, the number to
   compare, the output to check. Stop and report when it cannot be proved.

Keep each step a short imperative with its reason. Move long background
material into a reference file and link to it below.

## Rules

- Write each rule as an instruction an agent can follow and a reviewer can
  check, with its reason: "Measure before changing anything: a change made
  on a guess hides the real cause."
- State what the agent must never do in this domain, and what to do instead.
- Keep this file short; agents load it whole every time the skill is used.

## References

- [%[2]s reference](%[3]s): background, tables and examples
  that the workflow needs only sometimes. Agents open it on demand.
`, topic, title, referenceFile)
	return wrapMarkdown(b.String())
}

// referenceBody is the reference document SKILL.md links to.
func referenceBody(s settings) string {
	return wrapMarkdown(fmt.Sprintf(`# %[1]s reference

Material for the %[2]s skill that an agent reads only when a
step of the workflow needs it. Put here what would make SKILL.md long: background
explanations, decision tables, command references and worked examples.

## What belongs here

- Details behind a rule in SKILL.md, with sources.
- Lookup material: flags, thresholds, error messages and what they mean.
- Longer examples of inputs and the expected results.

Give each topic its own heading, or its own file in this folder when it grows,
and link to it from the References section of SKILL.md with a relative link.
`, titleFromName(s.name), s.name))
}
