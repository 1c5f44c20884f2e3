package install

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/resolve"
)

// Codes this package raises, besides askerr's; its errors are
// *askerr.Error values.
const (
	CodeModifiedInstall = "ASK_MODIFIED_INSTALL"
	CodeNotInstalled    = "ASK_NOT_INSTALLED"
	// CodeRootUnsafe refuses an agent folder or metadata entry that could
	// lead an operation outside it (unsafeError).
	CodeRootUnsafe = "ASK_ROOT_UNSAFE"
)

// unsafeError refuses an agent folder, or an entry of its .agent-skills
// metadata, that could make an operation read, move or delete something
// outside it: path is the offending entry, why says what is wrong with it.
func unsafeError(path, why string, detail []string) *askerr.Error {
	return &askerr.Error{
		Code:    CodeRootUnsafe,
		Message: fmt.Sprintf("refusing to use %s: %s", path, why),
		Detail: append(detail,
			"agent-skills makes no links, and nothing it did not name, under .agent-skills/: if you did not put this there, the project (or the repository it was cloned from) is broken or hostile.",
			"Nothing was changed in any agent folder."),
		Try: []string{
			"look at it, then remove it (rm removes a link, not what it points to): rm " + shellQuote(path),
		},
	}
}

// nameError refuses a package name that would not stay one path element
// below an agent root.
func nameError(name string) *askerr.Error {
	return &askerr.Error{
		Code:    resolve.CodeReferenceInvalid,
		Message: fmt.Sprintf("%q is not a skill name: a name is one folder below an agent folder", name),
		Try:     []string{"agent-skills list   to see the names of what is installed"},
	}
}

// isUnsafe reports whether err is an ASK_ROOT_UNSAFE refusal, which ends
// the run rather than mark one package broken.
func isUnsafe(err error) bool {
	var e *askerr.Error
	return errors.As(err, &e) && e.Code == CodeRootUnsafe
}

// linkError refuses a symbolic link found where this package keeps only
// real folders and files, naming where it points.
func linkError(path string) *askerr.Error {
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
func escapeError(root, project string, esc *escape) *askerr.Error {
	e := unsafeError(root, "a symbolic link in the project leads out of it", []string{
		fmt.Sprintf("link:    %s -> %q", esc.link, esc.target),
		"project: " + project,
	})
	e.Detail = append(e.Detail, "A cloned project must not point agent-skills at the rest of the disk.", "Nothing was changed in any agent folder.")
	e.Try = []string{
		"remove the link if you did not make it: rm " + shellQuote(esc.link),
		"if you trust the folder it points to, name it in the configuration instead (agents.<id>.projectRoot) and replace the link with a real folder",
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
func ioError(op, path string, err error) *askerr.Error {
	var ie *askerr.Error
	if errors.As(err, &ie) {
		return ie
	}
	return &askerr.Error{
		Code:    askerr.CodeIO,
		Message: fmt.Sprintf("cannot %s %s", op, path),
		Err:     err,
		Detail:  []string{"Nothing was changed: any version already installed was put back."},
		Try: []string{
			"check that the folder exists, is writable and that the disk is not full",
			"agent-skills doctor   to check every agent root",
		},
	}
}

// modifiedError reports the packages that an install or uninstall refuses
// to touch because the user changed them or never installed them with this
// tool.
func modifiedError(verb string, refused []Result) *askerr.Error {
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
	return &askerr.Error{
		Code:    CodeModifiedInstall,
		Message: msg,
		Detail:  append(detail, "Nothing was changed in any agent root."),
		Try: []string{
			"back up your changes, then run: agent-skills " + verb + " " + strings.Join(order, " ") + " --force",
			"agent-skills list   to see the state of each installed skill",
		},
	}
}

// notInstalledError reports names that no scanned root holds.
func notInstalledError(missing []string, installed []string) *askerr.Error {
	list := "nothing is installed"
	if len(installed) > 0 {
		list = "installed: " + strings.Join(installed, ", ")
	}
	return &askerr.Error{
		Code:    CodeNotInstalled,
		Message: fmt.Sprintf("%s not installed for the selected agents and scope", quoteList(missing)),
		Detail:  []string{list},
		Try: []string{
			"check the spelling, the scope (--global or --project) and --agent",
			"agent-skills list   to see what is installed",
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
