package notify

import (
	"bufio"

	"strings"
)

// Choice is the answer to a notice.
type Choice int

const (
	// Continue: run the command, ask again when the TTL says so.
	Continue Choice = iota
	Update
	Remind
	Dismiss
	Details
)

// maxAnswer bounds the line read from the terminal.
const maxAnswer = 256

// ReadChoice reads one line from r and maps it to a choice: "u", "r",
// "d" (and, when details, "i"), or their words; Enter, end of input or
// anything else is Continue.
func ReadChoice(r *bufio.Reader, details bool) Choice {
	line, err := readLine(r)
	if err != nil && line == "" {
		return Continue
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "u", "update":
		return Update
	case "r", "remind":
		return Remind
	case "d", "dismiss":
		return Dismiss
	case "i", "info", "details":
		if details {
			return Details
		}
	}
	return Continue
}

// Confirm reads one line and reports whether it is "y" or "yes".
func Confirm(r *bufio.Reader) bool {
	line, _ := readLine(r)
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true
	}
	return false
}

// readLine reads up to a new line, at most maxAnswer bytes kept.
func readLine(r *bufio.Reader) (string, error) {
	var b strings.Builder
	for {
		c, err := r.ReadByte()
		if err != nil {
			return b.String(), err
		}
		if c == '\n' {
			return b.String(), nil
		}
		if b.Len() < maxAnswer {
			b.WriteByte(c)
		}
	}
}

// CLIMenu is the CLI notice's menu line for version.
func CLIMenu(version string) string {
	return "[u]pdate  [r]emind me tomorrow  [d]ismiss " + version
}

// SkillMenu is a skill notice's menu line for version.
func SkillMenu(version string) string {
	return "[u]pdate  [i] details  [r]emind me tomorrow  [d]ismiss " + version
}
