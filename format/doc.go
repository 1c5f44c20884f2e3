// Package format reads agent skill packages: the skill.yaml manifest, the
// kind-specific entrypoint (SKILL.md, COMMAND.md or WORKFLOW.js) and the file
// set a package ships. It is pure: it takes bytes or an fs.FS and returns
// values and Diagnostics, and never touches the OS, the clock or the
// environment.
package format
