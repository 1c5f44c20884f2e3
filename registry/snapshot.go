package registry

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/format"
)

// MaxSnapshotSize bounds the package Snapshot holds in memory.
const MaxSnapshotSize = 64 << 20

// Snapshot returns name@version as a verified package held in memory: the
// payload's file set is read once into memory and the digest is computed
// over those very bytes, so whatever the caller installs from the result
// is exactly what was verified, even if the registry's files change
// meanwhile. Packages over MaxSnapshotSize are refused with
// ASK_PACKAGE_TOO_LARGE; use Fetch for those.
func Snapshot(ctx context.Context, r Registry, name, version string) (*format.Package, string, error) {
	pkg, err := r.Package(ctx, name, version)
	if err != nil {
		return nil, "", err
	}
	idx, err := r.Index(ctx)
	if err != nil {
		return nil, "", err
	}
	s, _ := idx.Skill(name)
	v, _ := s.Version(version)
	mem := fstest.MapFS{}
	var total int64
	for _, p := range pkg.Files {
		data, err := readAll(pkg.FS, p, MaxSnapshotSize-total)
		if err != nil {
			return nil, "", err
		}
		total += int64(len(data))
		mem[p] = &fstest.MapFile{Data: data, Mode: 0o644}
	}
	verified, err := Verify(mem, name, version, v.Integrity)
	if err != nil {
		return nil, "", err
	}
	return verified, v.Integrity, nil
}

// readAll reads one file, refusing more than limit bytes.
func readAll(fsys fs.FS, p string, limit int64) ([]byte, error) {
	f, err := fsys.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &Error{Code: format.CodePackageTooLarge, Message: fmt.Sprintf("%s is larger than %d MiB, the most a package may hold in memory", p, MaxSnapshotSize>>20)}
	}
	return data, nil
}
