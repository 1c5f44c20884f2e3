//go:build unix

package install

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agent-skills/agent-skills/agents"
)

// A receipt-only transaction (same files, new metadata) rewrites its
// receipt through a rename; a power loss after that rename can leave the
// receipt with none of its new bytes. The run journal holds its receipt
// too, so recovery gives it back. The test kills the run after the commit,
// before the last sync, and then tears the receipt as the disk would.
func TestReceiptOnlyCommitIsJournaled(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	w := newWorld(t)
	opts := w.opts(t, agents.ScopeProject) // Claude Code and Codex, as the helper
	it := writePkg(t, w.base, pkgSpec{name: "a", version: "1.0.0"})
	mustInstall(t, opts, it)
	root := filepath.Join(w.project, ".claude/skills")
	before := snapshot(t, filepath.Join(root, "a"))
	old := readFile(t, receiptPath(root, "a"))

	// The helper installs the same files without a registry: the receipt
	// alone changes, in both roots; it is killed after both commits.
	cmd := helper(t, w, "kill", []Item{it}, "HELPER_POINT="+PointAfterReceipt, "HELPER_N=2")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ProcessState.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("helper = %v, want killed by SIGKILL\n%s", err, out)
	}
	committed := readFile(t, receiptPath(root, "a"))
	if committed == old || strings.Contains(committed, `"registry"`) {
		t.Fatalf("the helper's commit did not rewrite the receipt without its registry:\n%s", committed)
	}
	runs, _ := filepath.Glob(filepath.Join(receiptsDir(root), ".run-*.pending"))
	if len(runs) != 1 {
		t.Fatalf("run journals after a kill past a receipt-only commit = %v, want one", runs)
	}
	// The rename reached the disk, the receipt's bytes did not.
	if err := os.WriteFile(receiptPath(root, "a"), []byte(committed[:len(committed)/3]), 0o644); err != nil {
		t.Fatal(err)
	}
	list, err := Scan(t.Context(), opts)
	if err != nil || len(list) != 2 {
		t.Fatalf("Scan with a torn receipt and its run journal = %+v, %v; want a in both roots", list, err)
	}
	for _, in := range list {
		if in.State != StateOK || !in.Pending {
			t.Errorf("Scan with a torn receipt and its run journal: a in %s = %s, pending %v; want ok, pending", in.Root, in.State, in.Pending)
		}
	}
	if err := Recover(t.Context(), opts); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, receiptPath(root, "a")); got != committed {
		t.Errorf("recovery left the receipt\n%s\nwant the committed one\n%s", got, committed)
	}
	checkConsistent(t, opts, map[string]string{"a": "1.0.0"})
	if runs, _ := filepath.Glob(filepath.Join(receiptsDir(root), ".run-*.pending")); len(runs) != 0 {
		t.Errorf("recovery left the run journal %v", runs)
	}
	if snapshot(t, filepath.Join(root, "a")) != before {
		t.Errorf("recovery changed the package's files")
	}
}
