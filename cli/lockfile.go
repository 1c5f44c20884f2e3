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
// A lock that would not read back is never written: every later command
// would stop at it.
func writeLock(path string, l *resolve.Lock) error {
	l.GeneratedWith = "agent-skills@" + Version
	data := l.Encode()
	if _, err := resolve.DecodeLock(data, filepath.Base(path)); err != nil {
		return &Error{Code: "ASK_INTERNAL", Summary: "refusing to write a skills.lock that does not read back", Err: err,
			Try: []string{"this is a bug in agent-skills; please report it with the output of agent-skills doctor"}}
	}
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
	return filepath.Join(e.home(), "locks", runKey(sc)+".lock")
}

// runKey names the run lock and the journal of a scope: a hash of the
// project root, or "global".
func runKey(sc scopeChoice) string {
	if sc.root == "" {
		return "global"
	}
	sum := sha256.Sum256([]byte(sc.root))
	return hex.EncodeToString(sum[:8])
}

// sortedAgents returns ids sorted without repeats.
func sortedAgents(ids []string) []string {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}

// sortStrings sorts in place.
func sortStrings(s []string) { slices.Sort(s) }
