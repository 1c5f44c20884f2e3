// Package termtext makes text that came from somewhere else — a package, a
// registry index, a source repository, an archive, git — safe to print on a
// terminal.
//
// A terminal obeys the control characters it is sent: ESC and the C1
// controls start sequences that clear the screen, rewrite the clipboard
// (OSC 52), disguise a link (OSC 8) or retitle the window; a carriage
// return or a new line inside a one-line field forges the lines around
// it; invalid UTF-8 bytes in 0x80–0x9F are C1 controls to a terminal that
// is not in UTF-8 mode; bidirectional formatting characters reorder what
// a line shows. This package replaces every such character by a visible
// escape (\x1b, \n, \u009b, \u202e, \xff) and leaves every other
// character alone:
//
//   - Line is for one-line fields: names, descriptions, paths, URLs,
//     versions, messages.
//   - Text is for multi-line text such as a SKILL.md printed whole: it
//     keeps new lines, tabs and CRLF line ends.
//   - JSON makes encoding/json output free of raw control characters
//     without changing the value it encodes.
//   - Writer is the backstop on the program's standard output and error:
//     whatever reaches it is escaped like Text, except the few colour
//     sequences the program itself emits, so a call site that forgets to
//     escape cannot reopen the hole.
//
// The escapes are for people; a program that needs exact values reads the
// --json output, which keeps them.
package termtext
