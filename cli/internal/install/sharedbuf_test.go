package install

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/agents"
)

// stageShared stages one package whose file big.md (data) two roots
// share, as Install plans it: one sharedFile, two users.
func stageShared(t *testing.T, base string, round int, fsys fstest.MapFS) []*txn {
	t.Helper()
	sf := &sharedFile{}
	var txns []*txn
	for _, r := range []string{"a", "b"} {
		root := filepath.Join(base, fmt.Sprintf("%s%d", r, round))
		name := "p"
		tx := &txn{kind: txnWrite, root: root, name: name, dest: filepath.Join(root, name), shape: agents.ShapeDirectory,
			files: []stagedFile{{rel: "references/big.md", fsys: fsys, copyFrom: "big.md", perm: 0o644, src: sf}}}
		tx.share()
		txns = append(txns, tx)
	}
	var s syncer
	if err := stageAll(t.Context(), txns, &s); err != nil {
		t.Fatalf("stageAll = %v", err)
	}
	if sf.data != nil || sf.buf != nil {
		t.Errorf("round %d: the shared file still holds its bytes once both roots staged it", round)
	}
	return txns
}

// TestSharedFilesReuseBuffers: a file two roots share is read once into
// a reused buffer, whose earlier contents never reach a staged copy, and
// staging it again and again does not allocate its size each time.
func TestSharedFilesReuseBuffers(t *testing.T) {
	base := t.TempDir()
	big := bytes.Repeat([]byte("0123456789abcdef"), 12<<10) // 192 KiB, under maxShared
	for round, size := range []int{len(big), 100, len(big) / 2, 0} {
		fsys := fstest.MapFS{"big.md": {Data: big[:size], Mode: 0o644}}
		for _, tx := range stageShared(t, base, round, fsys) {
			got, err := os.ReadFile(tx.stagedPath("references/big.md"))
			if err != nil || !bytes.Equal(got, big[:size]) {
				t.Errorf("round %d: %s staged %d bytes (%v), want the %d of the file", round, tx.root, len(got), err, size)
			}
		}
	}
	fsys := fstest.MapFS{"big.md": {Data: big, Mode: 0o644}}
	stageShared(t, base, 10, fsys)
	const rounds = 20
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range rounds {
		stageShared(t, base, 11+i, fsys)
	}
	runtime.ReadMemStats(&after)
	// Each round stages the file twice from one read; without the reused
	// buffer every round allocated the file's size once more (fs.ReadFile).
	got, limit := after.TotalAlloc-before.TotalAlloc, uint64(rounds*len(big)*3/4)
	t.Logf("%d rounds of staging a shared %d-byte file allocated %d bytes", rounds, len(big), got)
	if got > limit {
		t.Errorf("%d rounds of staging a shared %d-byte file allocated %d bytes, want at most %d", rounds, len(big), got, limit)
	}
}
