package catalog

import (
	"fmt"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/termtext"
)

// OverviewOptions bounds an overview.
type OverviewOptions struct {
	// MaxEntries caps the skills listed; <= 0 means DefaultMaxEntries.
	MaxEntries int
	// MaxBytes caps the rendered text; <= 0 means DefaultMaxBytes.
	MaxBytes int
	// MaxDescription caps each description, in runes; <= 0 means
	// DefaultMaxDescription.
	MaxDescription int
}

// The default overview bounds: small enough for a session-start context.
const (
	DefaultMaxEntries     = 100
	DefaultMaxBytes       = 8 << 10
	DefaultMaxDescription = 160
)

// Overview is a bounded listing of skills.
type Overview struct {
	// Total is the number of skills given.
	Total int `json:"total"`
	// Entries are the skills listed, in the order given.
	Entries []OverviewEntry `json:"entries"`
	// Omitted is Total minus the entries listed.
	Omitted int `json:"omitted"`
	// Text is the Markdown rendering, at most MaxBytes long.
	Text string `json:"text"`
}

// OverviewEntry is one listed skill.
type OverviewEntry struct {
	// Name is the skill's name.
	Name string `json:"name"`
	// Description is its description, cut to MaxDescription runes.
	Description string `json:"description"`
	// Source says where it comes from.
	Source string `json:"source"`
	// Version is its version, when known.
	Version string `json:"version,omitempty"`
}

// BuildOverview lists skills, in the order given, as Markdown bullets
// "- name (source): description" (each part escaped with termtext.Line)
// under a heading line, until MaxEntries
// entries or MaxBytes bytes would be exceeded; a closing line says how many
// were left out and how to find them.
func BuildOverview(skills []Skill, opts OverviewOptions) Overview {
	if opts.MaxEntries <= 0 {
		opts.MaxEntries = DefaultMaxEntries
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	if opts.MaxDescription <= 0 {
		opts.MaxDescription = DefaultMaxDescription
	}
	ov := Overview{Total: len(skills), Entries: []OverviewEntry{}}
	var b strings.Builder
	head := fmt.Sprintf("Agent skills available (%d). Read one with `agent-skills catalog read <name>` "+
		"or the read_skill tool of the agent-skills MCP server before relying on it.\n", len(skills))
	if len(head) > opts.MaxBytes {
		head = cut(head, opts.MaxBytes)
	}
	b.WriteString(head)
	// Room kept for the closing line.
	const tailRoom = 120
	for _, s := range skills {
		if len(ov.Entries) >= opts.MaxEntries {
			break
		}
		e := OverviewEntry{Name: s.Name, Description: truncate(oneLine(s.Description), opts.MaxDescription),
			Source: s.Source, Version: s.Version}
		// The text is read by people and agents: a name or description
		// cannot forge a line or carry a terminal control sequence. The
		// entries keep the exact values.
		line := "- " + termtext.Line(e.Name) + " (" + termtext.Line(e.Source) + ")"
		if e.Description != "" {
			line += ": " + termtext.Line(e.Description)
		}
		line += "\n"
		if b.Len()+len(line)+tailRoom > opts.MaxBytes {
			break
		}
		b.WriteString(line)
		ov.Entries = append(ov.Entries, e)
	}
	ov.Omitted = ov.Total - len(ov.Entries)
	if ov.Omitted > 0 {
		tail := fmt.Sprintf("(%d more not listed: search with `agent-skills catalog search <words>`.)\n", ov.Omitted)
		if b.Len()+len(tail) <= opts.MaxBytes {
			b.WriteString(tail)
		}
	}
	ov.Text = b.String()
	return ov
}

// truncate shortens s to at most n runes, marking a cut with "…".
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// cut shortens s to at most n bytes on a rune boundary.
func cut(s string, n int) string {
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
