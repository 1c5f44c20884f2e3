package publish

import (
	"fmt"
	"path/filepath"

	"github.com/agent-skills/agent-skills/format"
)

// Pack writes the reproducible archive of pkg (registry.Pack: sorted
// entries under package/, fixed modes, owner and time) to
// <dir>/<name>-<version>.tar.gz, atomically, creating dir when needed,
// and returns the file's path. The same file set with the same bytes
// always gives the same archive.
func Pack(pkg *format.Package, dir string) (string, error) {
	name, version := pkg.Name(), pkg.Version()
	if name == "" || version == "" {
		return "", fmt.Errorf("publish: pack: the package has no name or version")
	}
	file := filepath.Join(dir, name+"-"+version+".tar.gz")
	if err := packTo(pkg, file); err != nil {
		return "", fmt.Errorf("publish: pack %s@%s: %w", name, version, err)
	}
	return file, nil
}
