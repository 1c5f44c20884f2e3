// Package ui is everything the CLI prints: the two guarded output streams,
// colour, progress lines, notices, errors in the standard shape, JSON, and
// the renderings several commands share (diagnostics, search results, the
// outcome of an install, update or uninstall).
//
// Every byte goes through a terminal backstop (termtext.Writer) that lets
// only this package's own colour sequences through and masks URL
// passwords; values that came from a package, an index or a source are
// also escaped where they are formatted (Field, OneLine), so that a
// newline inside one cannot forge another line.
//
// Nothing here decides anything: the use cases return data (errors with
// codes, outcomes, diagnostics) and the command files hand it to a
// Printer.
package ui
