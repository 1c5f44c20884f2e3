package scaffold

import "fmt"

// commandArgumentHint is the argument-hint a new command shows in the
// agent's command menu.
const commandArgumentHint = "[files or topic]"

// commandFiles generates a command: skill.yaml and COMMAND.md. Commands are
// a Claude Code concept (a prompt run as /name), so the manifest declares
// claude-code compatibility.
func commandFiles(s settings) ([]File, error) {
	m := s.manifest()
	m.kind = "command"
	m.agents = []string{"claude-code"}
	m.files = []string{"COMMAND.md", "skill.yaml"}
	manifest, err := m.encode()
	if err != nil {
		return nil, err
	}
	fm, err := frontMatter(
		[2]string{"description", s.description},
		[2]string{"argument-hint", commandArgumentHint},
	)
	if err != nil {
		return nil, err
	}
	return []File{
		newFile("COMMAND.md", append(fm, commandBody(s)...)),
		newFile("skill.yaml", manifest),
	}, nil
}

// commandBody is the prompt of COMMAND.md. $ARGUMENTS is replaced by the
// agent with whatever the user typed after the command name.
func commandBody(s settings) string {
	return wrapMarkdown(fmt.Sprintf(`
# %[1]s

<!-- The whole body is the prompt the agent runs as /%[3]s. Replace the
steps with this command's procedure, written as direct instructions in the
order to follow them. The agent replaces the arguments placeholder below
with what the user typed after the command name. -->

Carry out the %[2]s procedure on: $ARGUMENTS

If no arguments were given, ask which files or topic to work on, and stop
until the user answers.

1. Read the input named above and restate in one sentence what you will do.
2. Do the work, one item at a time, and note anything you could not finish.
3. Check the result: run the relevant tests or re-read the changed parts.

Finish with a short report: what was done, what was checked, and what is
left for the user to decide.
`, titleFromName(s.name), phraseFromName(s.name), s.name))
}
