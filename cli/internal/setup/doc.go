// Package setup registers agent-skills' session-start hook and MCP server
// in coding agents' own settings files, and undoes it.
//
// A Host says which files hold what for a scope (user or project) and in
// which shape; the engine (Enable, Status, Disable) reads and parses each
// file, plans the change as a unified diff, and with write applies it
// atomically. Every byte outside the entries setup adds or removes is
// kept: JSON and JSON with comments are edited as hujson trees, members
// inserted with the indentation of their siblings. A file that does not
// parse is never written, and neither is anything else of its host.
//
// What setup wrote is listed in a receipt per host and scope (see
// Receipt): the file, the key path, the value as canonical JSON, the
// version and the time. Entries are found again by key (a member) or by
// content (a list element, a whole file), never by byte offsets, since
// hosts reformat the files they share with us. Status reports each entry
// as registered, modified, missing, foreign or not registered; Disable
// removes only what is unchanged since it was written.
//
// A host with another file format (Codex's TOML) implements Format and
// Document beside the JSON ones and is added to Hosts.
package setup
