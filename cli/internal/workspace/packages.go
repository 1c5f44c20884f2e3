package workspace

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/validate"
)

// OverrideKeys returns, per agent id, the agentOverrides keys its adapter
// allows; validation checks manifests against it.
func (m *Machine) OverrideKeys() map[string][]string { return m.Table().OverrideKeys() }

// LoadOptions are the format.LoadOptions for packages read from the local
// disk: on top of format's own checks, a file with more than one hard link
// is refused, since it may alias a file outside the package.
func LoadOptions() format.LoadOptions {
	return format.LoadOptions{Inspect: func(path string, info fs.FileInfo) error {
		if n := linkCount(info); n > 1 {
			return fmt.Errorf("%s has %d hard links; a package file must not alias another file", path, n)
		}
		return nil
	}}
}

// ValidateOptions are the validation options of every command: the
// agents' override allowlists and the disk load options, at GateStrict
// when strict, else GateDefault.
func (m *Machine) ValidateOptions(strict bool) validate.Options {
	g := validate.GateDefault
	if strict {
		g = validate.GateStrict
	}
	return validate.Options{Gate: g, OverrideKeys: m.OverrideKeys(), Load: LoadOptions()}
}

// ValidatePath validates the package or collection at root, an absolute
// folder path.
func ValidatePath(root string, opts validate.Options) ([]validate.Result, error) {
	opts.DirName = filepath.Base(root)
	results, err := validate.Collection(os.DirFS(root), opts)
	if err != nil {
		return nil, askerr.IO("cannot read "+root, err)
	}
	return results, nil
}
