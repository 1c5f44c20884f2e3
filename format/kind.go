package format

// Kind is what a package is, which decides its entrypoint file and where an
// agent installs it. The manifest's kind is kept as written, so a Kind may
// hold a value that is none of the known constants; Valid tells them apart.
type Kind string

const (
	// KindSkill is a skill: a folder with a SKILL.md entrypoint.
	KindSkill Kind = "skill"
	// KindCommand is a slash command: a COMMAND.md entrypoint.
	KindCommand Kind = "command"
	// KindWorkflow is a workflow: a WORKFLOW.js script whose identity is
	// the static `export const meta = { … }` literal.
	KindWorkflow Kind = "workflow"
)

// Kinds returns every known kind, in a stable order.
func Kinds() []Kind { return []Kind{KindSkill, KindCommand, KindWorkflow} }

// Valid reports whether k is one of the known kinds.
func (k Kind) Valid() bool { return EntrypointFor(k) != "" }

// String returns the kind as written in a manifest.
func (k Kind) String() string { return string(k) }

// EntrypointFor returns the entrypoint file name of a kind: SKILL.md,
// COMMAND.md or WORKFLOW.js. It returns "" for an unknown kind.
func EntrypointFor(k Kind) string {
	switch k {
	case KindSkill:
		return "SKILL.md"
	case KindCommand:
		return "COMMAND.md"
	case KindWorkflow:
		return "WORKFLOW.js"
	}
	return ""
}
