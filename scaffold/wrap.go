package scaffold

import "strings"

// textWidth is the column at which generated Markdown prose is wrapped.
const textWidth = 76

// listMarker returns the list marker a line starts with ("- " or "12. "),
// or "" when the line does not start a list item.
func listMarker(line string) string {
	if strings.HasPrefix(line, "- ") {
		return "- "
	}
	i := 0
	for i < len(line) && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	if i > 0 && strings.HasPrefix(line[i:], ". ") {
		return line[:i+2]
	}
	return ""
}

// wrapMarkdown re-wraps the paragraphs and list items of generated Markdown
// at textWidth, so that text built from a name of any length stays
// readable. Headings and blank lines are kept as they are; a list item's
// continuation lines are indented under its text. It is meant for the
// package's own templates, not for arbitrary Markdown: it knows nothing of
// code blocks or tables.
func wrapMarkdown(text string) string {
	lines := strings.Split(text, "\n")
	var out []string
	var block []string // words of the current paragraph or list item
	indent := ""       // continuation indent of the current list item
	first := ""        // the list marker of the current item
	flush := func() {
		if len(block) > 0 {
			out = append(out, fill(block, first, indent)...)
		}
		block, first, indent = nil, "", ""
	}
	for _, line := range lines {
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
			flush()
			out = append(out, line)
		case listMarker(line) != "":
			flush()
			first = listMarker(line)
			indent = strings.Repeat(" ", len(first))
			block = strings.Fields(line[len(first):])
		default:
			block = append(block, strings.Fields(line)...)
		}
	}
	flush()
	return strings.Join(out, "\n")
}

// fill lays words out in lines of at most textWidth columns, the first line
// starting with first and the others with indent. A word longer than the
// width gets a line of its own.
func fill(words []string, first, indent string) []string {
	var lines []string
	cur := first
	empty := true
	for _, w := range words {
		if !empty && len(cur)+1+len(w) > textWidth {
			lines = append(lines, cur)
			cur, empty = indent, true
		}
		if !empty {
			cur += " "
		}
		cur += w
		empty = false
	}
	return append(lines, cur)
}
