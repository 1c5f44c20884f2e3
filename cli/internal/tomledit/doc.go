// Package tomledit edits a TOML document by whole tables while keeping
// every other byte as the user wrote it: comments, order, blank lines,
// quoting and line endings. It is what `setup` uses to add and remove its
// own tables ([mcp_servers.agent-skills], [hooks.state."<key>"]) in Codex's
// config.toml.
//
// Parse reads a document with go-toml/v2's unstable parser, which reports
// every expression with its byte range, and also decodes it with go-toml's
// decoder, which checks what the parser does not (duplicate keys, a table
// defined twice). A document that fails either is a *ParseError with the
// line and column. Documents larger than MaxSize are refused.
//
// # Blocks
//
// The unit of an edit is a table's block. A block starts at its header
// line, extended upwards over the comment lines directly above the header
// (no blank line between them: such comments describe the table) and over
// at most one blank line above those (the separator the table brings with
// it). A block ends where the next block starts, or at the end of the
// document. So a comment that closes one table's body but is followed by a
// blank line stays with that table, and a comment written directly above a
// header moves and disappears with the table it introduces. Keys before
// the first header (the root table) belong to no block.
//
// Owning one blank line above, not below, makes an insertion and its
// removal exact inverses: Set inserts "\n" + the rendered table at a block
// boundary, and Delete removes exactly that again. The one exception is a
// document that did not end in a newline: Set adds the newline, and a
// later Delete keeps it.
//
// # Edits
//
// Set replaces a table and its sub-tables with a rendering of a Go value
// (see Render). A table that exists is replaced in place: its header line
// up to the end of its last non-blank line, so the blank lines after it
// stay, and its sub-tables elsewhere are removed. A new table goes after
// the last table under the same parent (a new [mcp_servers.x] after the
// last [mcp_servers.*]), or at the end of the document. Delete removes a
// table's block and the blocks of all its sub-tables; deleting a table
// that is not there returns the document unchanged.
//
// A table that is also defined by a dotted key (mcp_servers.x.command = …
// in the root table or [mcp_servers] x.command = …), or inside an inline
// table (mcp_servers = { x = { … } }), or under an array of tables, has no
// span of its own: Set and Delete return an *EditError for it rather than
// guess.
//
// Every result is checked before it is returned: the new bytes are parsed
// and decoded again, and the decoded document must equal the old one with
// only the edited table changed (and, after a Delete, its now empty
// implicit parents gone). A result that fails the check is an *EditError,
// never returned bytes.
//
// The package is pure: bytes in, bytes out. The parser it uses is marked
// unstable by go-toml, so cli/go.mod pins the version (see docs/design.md).
package tomledit
