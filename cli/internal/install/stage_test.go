package install

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/agents"
)

// stageAll stages on several goroutines but fails like the sequential
// loop: with the error of the first failed transaction in order, every
// time, and with nothing left that undo cannot remove.
func TestStageAllFirstErrorInOrder(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one processor: stageAll stages in order")
	}
	base := t.TempDir()
	blocker := filepath.Join(base, "file")
	if err := os.WriteFile(blocker, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for round := range 20 {
		var txns []*txn
		for i := range 12 {
			root := filepath.Join(base, "ok", string(rune('a'+round)), string(rune('a'+i)))
			if i == 5 || i == 9 {
				root = filepath.Join(blocker, "bad"+string(rune('0'+i/5)))
			}
			txns = append(txns, &txn{kind: txnWrite, root: root, name: "p", dest: filepath.Join(root, "p"), shape: agents.ShapeDirectory,
				files: []stagedFile{{rel: "SKILL.md", content: []byte("x"), perm: 0o644}}})
		}
		var s syncer
		err := stageAll(t.Context(), txns, &s)
		if err == nil || !strings.Contains(err.Error()+shown(err), "bad1") {
			t.Fatalf("round %d: stageAll = %v, want the error of transaction 5 (bad1)", round, shown(err))
		}
		for i := len(txns) - 1; i >= 0; i-- {
			if err := txns[i].undo(&s); err != nil && i != 5 && i != 9 {
				t.Errorf("round %d: undo(%d) = %v", round, i, err)
			}
		}
		for i, tx := range txns {
			if tx.prepared && exists(tx.stagePath()) {
				t.Errorf("round %d: transaction %d left %s after undo", round, i, tx.stagePath())
			}
		}
	}
}

// A panic while staging is raised by stageAll itself, after the workers
// stopped, so that run's undo sees it.
func TestStageAllPanics(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one processor: stageAll stages in order")
	}
	root := t.TempDir()
	txns := []*txn{
		{kind: txnWrite, root: root, name: "a", dest: filepath.Join(root, "a"), shape: agents.ShapeDirectory, files: []stagedFile{{rel: "SKILL.md", content: []byte("x"), perm: 0o644}}},
		{kind: txnWrite, root: root, name: "b", dest: filepath.Join(root, "b"), shape: agents.ShapeDirectory, files: []stagedFile{{rel: "SKILL.md", copyFrom: "SKILL.md", perm: 0o644}}}, // nil fsys: panics
	}
	defer func() {
		if recover() == nil {
			t.Errorf("stageAll with a panicking transaction returned")
		}
	}()
	var s syncer
	stageAll(t.Context(), txns, &s)
}
