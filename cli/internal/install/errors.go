package install

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

// Error is a user-facing failure raised by this package. It carries a
// stable ASK_* code, the cause in Message, the detail lines that explain
// it (the files that were changed, the skills that are installed), and the
// next actions in Hints, so that the CLI can print and map it without
// knowing its origin.
type Error struct {
	// Code is the stable ASK_* identifier of the failure.
	Code string
	// Message states the cause in one sentence.
	Message string
	// Detail lists the facts behind the cause, one per line.
	Detail []string
	// Hints lists the next actions, one per line, most useful first.
	Hints []string
	// Err is the underlying error, when there is one.
	Err error
}

// Error returns the message, the detail lines and the code, so that a
// wrapped error still names its code in logs.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Message)
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	for _, d := range e.Detail {
		b.WriteString("\n  ")
		b.WriteString(d)
	}
	b.WriteString(" (" + e.Code + ")")
	return b.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// ErrorCode returns the stable ASK_* code of the failure.
func (e *Error) ErrorCode() string { return e.Code }

// ErrorTry returns the next actions a user can take, most useful first.
func (e *Error) ErrorTry() []string { return e.Hints }

// ExitCode returns the process exit code of the failure: 5 for
// ASK_ROOT_UNSAFE, a security refusal, 2 for ASK_REFERENCE_INVALID, a bad
// name on the command line, and 1, a generic failure, for every other code
// this package raises; ASK_LAYOUT_INVALID errors from package agents are
// passed through unchanged.
func (e *Error) ExitCode() int {
	switch e.Code {
	case CodeRootUnsafe:
		return 5
	case "ASK_REFERENCE_INVALID":
		return 2
	}
	return 1
}

// CodeRootUnsafe is the code of unsafeError.
const CodeRootUnsafe = "ASK_ROOT_UNSAFE"

// unsafeError refuses an agent folder, or an entry of its .agent-skills
// metadata, that could make an operation read, move or delete something
// outside it: path is the offending entry, why says what is wrong with it.
func unsafeError(path, why string, detail []string) *Error {
	return &Error{
		Code:    CodeRootUnsafe,
		Message: fmt.Sprintf("refusing to use %s: %s", path, why),
		Detail:  detail,
		Hints: []string{
			"Look at it, then remove it (rm removes a link, not what it points to): rm " + shellQuote(path),
			"agent-skills makes no links, and nothing it did not name, under .agent-skills/: if you did not put this there, the project (or the repository it was cloned from) is broken or hostile",
			"Nothing was changed in any agent folder",
		},
	}
}

// nameError refuses a package name that would not stay one path element
// below an agent root.
func nameError(name string) *Error {
	return &Error{
		Code:    "ASK_REFERENCE_INVALID",
		Message: fmt.Sprintf("%q is not a skill name: a name is one folder below an agent folder", name),
		Hints:   []string{"Try: agent-skills list   to see the names of what is installed"},
	}
}

// isUnsafe reports whether err is an ASK_ROOT_UNSAFE refusal, which ends
// the run rather than mark one package broken.
func isUnsafe(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == CodeRootUnsafe
}

// linkError refuses a symbolic link found where this package keeps only
// real folders and files, naming where it points.
func linkError(path string) *Error {
	target, err := os.Readlink(path)
	if err != nil {
		target = "(unreadable)"
	}
	// A link's target is any bytes its maker chose: quoted, it cannot
	// reach the terminal as control characters.
	return unsafeError(path, fmt.Sprintf("it is a symbolic link (to %q), which is never followed there", target), nil)
}

// escapeError refuses an agent folder that a link inside the project
// makes resolve outside it.
func escapeError(root, project string, esc *escape) *Error {
	e := unsafeError(root, "a symbolic link in the project leads out of it", []string{
		fmt.Sprintf("link:    %s -> %q", esc.link, esc.target),
		"project: " + project,
	})
	e.Hints = []string{
		"A cloned project must not point agent-skills at the rest of the disk: remove the link if you did not make it: rm " + shellQuote(esc.link),
		"If you trust the folder it points to, name it in the configuration instead (agents.<id>.projectRoot) and replace the link with a real folder",
		"Nothing was changed in any agent folder",
	}
	return e
}

// shellQuote quotes p for a POSIX shell when it needs it.
func shellQuote(p string) string {
	if p != "" && !strings.ContainsAny(p, " \t\n'\"\\$`!*?[]{}()<>|&;#~") {
		return p
	}
	return "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
}

// ioError wraps a file-system failure as ASK_IO.
func ioError(op, path string, err error) *Error {
	var ie *Error
	if errors.As(err, &ie) {
		return ie
	}
	return &Error{
		Code:    "ASK_IO",
		Message: fmt.Sprintf("cannot %s %s", op, path),
		Err:     err,
		Hints: []string{
			"Check that the folder exists, is writable and that the disk is not full",
			"Nothing was changed: any version already installed was put back",
			"Try: agent-skills doctor   to check every agent root",
		},
	}
}

// modifiedError reports the packages that an install or uninstall refuses
// to touch because the user changed them or never installed them with this
// tool.
func modifiedError(verb string, refused []Result) *Error {
	var detail []string
	names := map[string]bool{}
	var order []string
	for _, r := range refused {
		detail = append(detail, fmt.Sprintf("%s: %s", r.Dest, r.Reason))
		for _, f := range r.Modified {
			detail = append(detail, "    "+f)
		}
		if !names[r.Name] {
			names[r.Name] = true
			order = append(order, r.Name)
		}
	}
	msg := fmt.Sprintf("refusing to %s %s: changed locally or not installed by agent-skills", verb, quoteList(order))
	return &Error{
		Code:    "ASK_MODIFIED_INSTALL",
		Message: msg,
		Detail:  detail,
		Hints: []string{
			"Back up your changes, then run: agent-skills " + verb + " " + strings.Join(order, " ") + " --force",
			"Nothing was changed in any agent root",
			"Try: agent-skills list   to see the state of each installed skill",
		},
	}
}

// notInstalledError reports names that no scanned root holds.
func notInstalledError(missing []string, installed []string) *Error {
	list := "nothing is installed"
	if len(installed) > 0 {
		list = "installed: " + strings.Join(installed, ", ")
	}
	return &Error{
		Code:    "ASK_NOT_INSTALLED",
		Message: fmt.Sprintf("%s not installed for the selected agents and scope", quoteList(missing)),
		Detail:  []string{list},
		Hints: []string{
			"Check the spelling, the scope (--global or --project) and --agent",
			"Try: agent-skills list   to see what is installed",
		},
	}
}

// quoteList renders names as "a", "b" and "c".
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	switch len(q) {
	case 0:
		return ""
	case 1:
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}
