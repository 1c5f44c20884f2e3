// Package audit is the use case of `agent-skills audit`: it finds the
// packages to audit — every package at or below a folder (Folder), or every
// skill installed in a set of agent folders (Installed) — scans each with
// package scan, and renders the result as the command's --json document
// (NewDocument) or as SARIF 2.1.0 for code scanning (SARIF).
//
// Packages are read where they are, through an os.Root and format.Load:
// symbolic links are never followed (Load refuses them, the root keeps a
// link swapped in later from leading out, and an installed folder that is a
// link is skipped, not read), and no file is executed.
// The package prints nothing; the command renders what it returns.
package audit
