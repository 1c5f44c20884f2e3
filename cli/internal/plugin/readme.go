package plugin

import (
	"fmt"
	"strings"
)

// readme renders the plugin's README.md from the collection's names and
// descriptions. Its fixed text alone is more than the 40 words Claude
// Code's directory profile asks for (README_MISSING, README_TRIVIAL).
func readme(c *Collection, o Options, submission bool) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n%s\n\n", o.Name, markdownText(o.Description))
	fmt.Fprintf(&b, "This plugin gives your coding agent %d %s. An agent reads only each skill's name and description at the start of a session, and loads the whole skill when a task needs it.\n\n",
		len(c.Skills), map[bool]string{true: "skill", false: "skills"}[len(c.Skills) == 1])
	b.WriteString("## Skills\n\n")
	for _, s := range c.Skills {
		fmt.Fprintf(&b, "- **%s**: %s\n", s.Name, markdownText(s.Description))
	}
	b.WriteString("\n## Install\n\n")
	if submission {
		fmt.Fprintf(&b, "In Claude Code, install it from the plugin directory with `/plugin install %s`. The plugin holds skills only: it runs no hooks, starts no server and ships no scripts.\n", o.Name)
	} else {
		fmt.Fprintf(&b, "Add the folder that holds this plugin's marketplace, then install the plugin:\n\n")
		for _, h := range o.Hosts {
			switch h {
			case Claude:
				fmt.Fprintf(&b, "- Claude Code: `claude plugin marketplace add <folder>`, then `claude plugin install %s@%s`\n", o.Name, o.Marketplace)
			case Codex:
				fmt.Fprintf(&b, "- Codex: `codex plugin marketplace add <folder>`, then `codex plugin add %s@%s`\n", o.Name, o.Marketplace)
			case Copilot:
				fmt.Fprintf(&b, "- GitHub Copilot CLI: `copilot plugin marketplace add <folder>`, then `copilot plugin install %s@%s`\n", o.Name, o.Marketplace)
			}
		}
		if o.MCP || o.Hooks {
			b.WriteString("\nThe plugin's MCP server and session-start hook run the `agent-skills` command, which must be on your PATH.\n")
		}
	}
	fmt.Fprintf(&b, "\nBuilt with agent-skills from the skill packages of one collection; each skill's files are copied unchanged.\n")
	return []byte(b.String())
}

// markdownText keeps untrusted text from opening Markdown or HTML
// structure in the README: one line, with the characters that start
// markup escaped.
func markdownText(s string) string {
	var b strings.Builder
	for _, r := range oneLine(s) {
		if strings.ContainsRune("\\`*_[]<>#|!", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
