package setup

import (
	"encoding/json"
	"strings"
)

// Part is what setup registers with a host: the session-start hook, the
// MCP server, or the read hook.
type Part string

// The parts.
const (
	Hooks Part = "hooks"
	MCP   Part = "mcp"
	// Reads is the read hook ("agent-skills hook observe"), which records
	// the host's reads of installed skills' files in the evidence store.
	// It is telemetry, so it is never part of the default set: it is
	// registered only when asked for by name.
	Reads Part = "reads"
)

// Kind says what of a settings file an entry is.
type Kind string

// The kinds of entry.
const (
	// Member is an object member at Path (its last element the name),
	// such as mcpServers.agent-skills.
	Member Kind = "member"
	// Element is one element of the list at Path, such as a group of
	// hooks.SessionStart; it is found again by its content.
	Element Kind = "element"
	// WholeFile is a file setup owns whole (Copilot's hooks file,
	// OpenCode's plugin).
	WholeFile Kind = "file"
)

// Entry is one thing setup writes into one host file and owns afterwards.
type Entry struct {
	// Part is the hook or the MCP server.
	Part Part `json:"part"`
	// File is the file's absolute path.
	File string `json:"-"`
	// Format reads and edits the file.
	Format Format `json:"-"`
	// Kind says what of the file the entry is.
	Kind Kind `json:"kind"`
	// Path is where in the file: the member's path, or the list's path
	// for an element; empty for a whole file.
	Path []string `json:"path,omitempty"`
	// Value is the entry as setup writes it, as canonical JSON; for a
	// file that is not JSON, a JSON string holding the file's text.
	Value json.RawMessage `json:"value"`
	// Marker is text that an element of ours keeps when the user edits
	// it (the hook's command): an element holding it that is not Value
	// is ours, modified.
	Marker string `json:"marker,omitempty"`
	// Command is the program the entry runs, as written: a bare name
	// looked up on PATH, or an absolute path.
	Command string `json:"command"`
}

// where names the entry's place in its file for messages.
func (e Entry) where() string {
	if e.Kind == WholeFile {
		return "the whole file"
	}
	p := strings.Join(e.Path, ".")
	if e.Kind == Element {
		return "an element of " + p
	}
	return p
}

// State is what a file holds of an entry.
type State string

// The states.
const (
	// Absent: the file does not hold the entry (nor a changed copy).
	Absent State = "absent"
	// Same: the file holds the entry exactly (compared as JSON).
	Same State = "same"
	// Different: the entry's key, or an element with its marker, is
	// there with other content.
	Different State = "different"
)

// Format reads and edits one kind of settings file. JSON (with or without
// comments) and whole files are here; a TOML format for Codex can be
// added beside them.
type Format interface {
	// Name is the format's name in receipts: json, jsonc, file, text.
	Name() string
	// Open parses the file's bytes (nil when it does not exist); the
	// error is a *FileError.
	Open(file string, data []byte) (Document, error)
}

// Document is one parsed settings file.
type Document interface {
	// Find says whether the document holds e, and what is there when it
	// holds something else.
	Find(e Entry) (State, json.RawMessage)
	// Add writes e, which must be Absent, and returns the path of the
	// first object member it created for it (nil when none was needed).
	Add(e Entry) ([]string, error)
	// Remove removes e, which must be Same, and then the members in
	// created (from Add) that are left empty.
	Remove(e Entry, created []string) error
	// Bytes returns the file as it now is; nil means the file goes.
	Bytes() []byte
}
