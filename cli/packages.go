package cli

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/validate"
)

// osLoadOptions are the format.LoadOptions for packages read from the
// local disk: on top of format's own checks, a file with more than one hard
// link is refused, since it may alias a file outside the package.
func osLoadOptions() format.LoadOptions {
	return format.LoadOptions{Inspect: func(path string, info fs.FileInfo) error {
		if n := linkCount(info); n > 1 {
			return fmt.Errorf("%s has %d hard links; a package file must not alias another file", path, n)
		}
		return nil
	}}
}

// validateOptions builds the validation options the CLI uses everywhere:
// the agents' override allowlists and the disk load options.
func validateOptions(strict bool) validate.Options {
	return validate.Options{Strict: strict, OverrideKeys: overrideKeys(), Load: osLoadOptions()}
}

// validatePath validates the package or collection at root, an absolute
// folder path.
func validatePath(root string, opts validate.Options) ([]validate.Result, error) {
	opts.DirName = filepath.Base(root)
	results, err := validate.Collection(os.DirFS(root), opts)
	if err != nil {
		return nil, &Error{Code: "ASK_IO", Summary: "cannot read " + root, Err: err}
	}
	return results, nil
}
