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

// ReadAnswer reads one answer line from r, at most maxAnswer bytes kept.
// ended reports that the input ended before a new line (^D, a closed
// pipe): the terminal's cursor is then still on the prompt's line.
func ReadAnswer(r *bufio.Reader) (line string, ended bool) {
	var b strings.Builder
	for {
		c, err := r.ReadByte()
		if err != nil {
			return b.String(), true
		}
		if c == '\n' {
			return b.String(), false
		}
		if b.Len() < maxAnswer {
			b.WriteByte(c)
		}
	}
}

// ParseChoice maps an answer to a choice: "u", "r", "d" (and, when
// details, "i"), or their words; an empty answer or anything else is
// Continue.
func ParseChoice(answer string, details bool) Choice {
	switch strings.ToLower(strings.TrimSpace(answer)) {
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

// Yes reports whether an answer is "y" or "yes".
func Yes(answer string) bool {
	switch strings.ToLower(strings.TrimSpace(answer)) {
	case "y", "yes":
		return true
	}
	return false
}

// CLIMenu is the CLI notice's menu line for version.
func CLIMenu(version string) string {
	return "[u]pdate  [r]emind me tomorrow  [d]ismiss " + version
}

// SkillMenu is a skill notice's menu line for version.
func SkillMenu(version string) string {
	return "[u]pdate  [i] details  [r]emind me tomorrow  [d]ismiss " + version
}
