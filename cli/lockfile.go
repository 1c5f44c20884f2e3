package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/workspace"

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
		return nil, &askerr.Error{Code: "ASK_IO", Message: "cannot read " + path, Err: err}
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
		return &askerr.Error{Code: "ASK_INTERNAL", Message: "refusing to write a skills.lock that does not read back", Err: err,
			Try: []string{"this is a bug in agent-skills; please report it with the output of agent-skills doctor"}}
	}
	if old, err := os.ReadFile(path); err == nil && string(old) == string(data) {
		return nil
	}
	if err := atomicfile.WriteFile(path, data, 0o644); err != nil {
		return &askerr.Error{Code: "ASK_IO", Message: "cannot write " + path, Err: err}
	}
	return nil
}

// runLockPath is the advisory lock file that serialises agent-skills runs
// on one scope: one per project root, one for the global scope.
func (e *env) runLockPath(sc workspace.Scope) string {
	return filepath.Join(e.ws.Home(), "locks", runKey(sc)+".lock")
}

// runKey names the run lock and the journal of a scope: a hash of the
// project root, or "global".
func runKey(sc workspace.Scope) string {
	if sc.Root == "" {
		return "global"
	}
	sum := sha256.Sum256([]byte(sc.Root))
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
