package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/agent-skills/agent-skills/cli/internal/atomicfile"
	"github.com/agent-skills/agent-skills/resolve"
)

// readLock reads skills.lock at path; a missing file is (nil, nil).
func readLock(path string) (*resolve.Lock, error) {
	if path == "" {
		return nil, nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &Error{Code: "ASK_IO", Summary: "cannot read " + path, Err: err}
	}
	return resolve.DecodeLock(data, filepath.Base(path))
}

// writeLock writes the lock atomically; an unchanged lock is not rewritten.
func writeLock(path string, l *resolve.Lock) error {
	l.GeneratedWith = "agent-skills@" + Version
	data := l.Encode()
	if old, err := os.ReadFile(path); err == nil && string(old) == string(data) {
		return nil
	}
	if err := atomicfile.WriteFile(path, data, 0o644); err != nil {
		return &Error{Code: "ASK_IO", Summary: "cannot write " + path, Err: err}
	}
	return nil
}

// runLockPath is the advisory lock file that serialises agent-skills runs
// on one scope: one per project root, one for the global scope.
func (e *env) runLockPath(sc scopeChoice) string {
	key := "global"
	if sc.root != "" {
		sum := sha256.Sum256([]byte(sc.root))
		key = hex.EncodeToString(sum[:8])
	}
	return filepath.Join(e.home(), "locks", key+".lock")
}

// sortedAgents returns ids sorted without repeats.
func sortedAgents(ids []string) []string {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}

// sortStrings sorts in place.
func sortStrings(s []string) { slices.Sort(s) }
