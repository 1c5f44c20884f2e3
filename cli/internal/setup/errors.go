package setup

import (
	"fmt"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
)

// The codes setup raises; docs/errors.md documents each.
const (
	// CodeFileInvalid: a host settings file does not parse; setup
	// leaves it as it is.
	CodeFileInvalid = "ASK_SETUP_FILE_INVALID"
	// CodeConflict: the file already holds an agent-skills entry with
	// other content (the user's own, or ours edited); setup does not
	// overwrite it.
	CodeConflict = "ASK_SETUP_CONFLICT"
	// CodePartial: disable left entries that changed since setup wrote
	// them, or some hosts of a run failed.
	CodePartial = "ASK_SETUP_PARTIAL"
	// CodeHostUnsupported: setup cannot edit this host's files yet.
	CodeHostUnsupported = "ASK_SETUP_HOST_UNSUPPORTED"
	// CodeReceiptInvalid: a setup receipt cannot be read.
	CodeReceiptInvalid = "ASK_SETUP_RECEIPT_INVALID"
)

// FileError says why a settings file cannot be used. File is the path as
// the caller named it.
type FileError struct {
	File   string
	Reason string
}

func (e *FileError) Error() string { return e.File + ": " + e.Reason }

// fileInvalid is the ASK_SETUP_FILE_INVALID error for the file shown as
// shown.
func fileInvalid(shown, reason string) *askerr.Error {
	return &askerr.Error{Code: CodeFileInvalid,
		Message: fmt.Sprintf("%s does not parse: %s", shown, reason),
		Detail:  []string{"setup left the file as it is"},
		Try:     []string{"fix " + shown + " (or move it away), then run the command again"}}
}

// errNoProject is the error of project scope outside a project.
func errNoProject() error {
	return &askerr.Error{Code: askerr.CodeUsage, Message: "--scope project needs a project, and none was found above the working folder",
		Try: []string{"run the command inside the project (a folder with .git, skills.lock or an agent folder)", "use --scope user"}}
}
