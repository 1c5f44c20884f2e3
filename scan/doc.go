// Package scan reads what is inside a skill package — its instructions,
// references and scripts — and reports content a user should see before an
// agent follows it: hidden or deceptive text, prompt-injection phrasing,
// remote execution and exfiltration, secrets, and scripts or shell access the
// package does not declare.
//
// The package is pure like package validate: a package comes in as a
// format.Package (Package) or an fs.FS (FS), and a Report comes out. Nothing
// touches the OS, the clock or the environment, and no file is executed.
//
// Every Finding carries the file, line and column, the rule id, the severity,
// an excerpt of the line with hidden characters made visible (<U+200B>) and
// secrets masked, and the fix. Rules lists every rule with its default severity; the ids are
// stable, since policies and receipts accept findings by id.
//
// No regular expression reads a whole file: one pass over each file's
// lowered text builds a keyword index of the lines some rule family could
// fire on, and a pattern runs on such a line only after the words it needs
// were found there.
//
// Judge applies a Gate (the severity that blocks, rules that always block,
// and accepted rules per skill) to a report: what blocks the package, what
// was accepted and by whom, and what is only shown.
package scan
