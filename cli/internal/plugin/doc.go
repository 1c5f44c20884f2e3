// Package plugin turns a collection of skill packages into host plugins:
// a marketplace folder for Claude Code, Codex and GitHub Copilot CLI
// (Build), and the inert, skills-only folder and ZIP that a plugin
// directory's review accepts (Submission).
//
// LoadCollection reads a collection from an fs.FS: every package
// validate.Collection finds, each of which must be valid, with the bytes
// and executable bits of the files its package format ships (format.Load's
// file set, which never holds a link). Build and Submission are pure:
// collection and options in, a Tree out — sorted paths, fixed modes, no time
// stamps — so the same input gives the same bytes. Tree.Zip encodes a tree
// as a ZIP with fixed times and permissions, and WriteDir writes one
// atomically (a staging folder beside the target, renamed into place).
//
// The manifests follow the shapes docs/hosts.md records as accepted by the
// real hosts: .claude-plugin/plugin.json and marketplace.json (Claude Code;
// Codex and Copilot install these too), .codex-plugin/plugin.json with
// .agents/plugins/marketplace.json (Codex), and a root plugin.json
// (Copilot). docs/plugins.md is the user's reference.
//
// Errors are *askerr.Error values: ASK_VALIDATION_FAILED (a package that is
// invalid, two packages of one name), ASK_PACKAGE_UNSAFE_FILE (a link or
// special file in a package), ASK_PLUGIN_NOT_INERT (a submission skill that
// declares hooks), ASK_TARGET_EXISTS (an output that is not empty) and
// ASK_USAGE.
package plugin
