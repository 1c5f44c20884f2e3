//go:build unix

package install

import (
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/agent-skills/agent-skills/agents"
)

// toggleDests are the places of the toggle set's packages in both states.
var toggleDests = []string{".claude/skills/a", ".claude/skills/b", ".agents/skills/a", ".agents/skills/b", ".claude/commands/c.md", ".claude/commands/c.md.disabled"}

// toggleSnapshots returns what each of toggleDests holds.
func toggleSnapshots(t *testing.T, w *world) map[string]string {
	out := map[string]string{}
	for _, d := range toggleDests {
		p := filepath.Join(w.project, d)
		switch {
		case !exists(p):
			out[d] = "absent"
		case filepath.Ext(d) != "":
			out[d] = readFile(t, p)
		default:
			out[d] = snapshot(t, p)
		}
	}
	return out
}

// toggleOccurrences are the calls of point to fault while disabling the
// toggle set for two agents: five transactions (a and b in two roots, the
// command in one); mid-swap only in the rename-aside fallback of the four
// folders (a file's rename is one step).
func toggleOccurrences(point string, noExchange bool) []int {
	switch {
	case point != PointMidSwap:
		return []int{1, 3, 5}
	case noExchange:
		return []int{1, 2, 4}
	}
	return nil
}

func TestSetDisabledFaultsRollBack(t *testing.T) {
	errInjected := errors.New("injected")
	for _, noExchange := range []bool{false, true} {
		for _, point := range points {
			for _, n := range toggleOccurrences(point, noExchange) {
				t.Run(fmt.Sprintf("exchange=%v/%s/%d", !noExchange, point, n), func(t *testing.T) {
					w := newWorld(t)
					opts := w.opts(t, agents.ScopeProject)
					opts.noExchange = noExchange
					mustInstall(t, opts, toggleSet(t, w, "1.0.0")...)
					before := snapshot(t, w.project)
					opts.Hook = countingHook(point, n, func() error { return errInjected })
					if _, err := SetDisabled(t.Context(), []string{"a", "b", "c"}, true, opts); !errors.Is(err, errInjected) {
						t.Fatalf("SetDisabled with a failing hook = %v, want the injected error", err)
					}
					if after := snapshot(t, w.project); after != before {
						t.Fatalf("tree after a fault:\n%s\nwant\n%s", after, before)
					}
					opts.Hook = nil
					if _, err := SetDisabled(t.Context(), []string{"a", "b", "c"}, true, opts); err != nil {
						t.Fatal(err)
					}
					if got := listedFiles(t, w); len(got) != 0 {
						t.Errorf("listed after disabling = %v", got)
					}
					checkConsistent(t, opts, nil)
				})
			}
		}
	}
}

func TestSetDisabledKilledAtEveryPoint(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process per point")
	}
	ref := newWorld(t)
	opts := ref.opts(t, agents.ScopeProject)
	mustInstall(t, opts, toggleSet(t, ref, "1.0.0")...)
	old := toggleSnapshots(t, ref)
	if _, err := SetDisabled(t.Context(), []string{"a", "b", "c"}, true, opts); err != nil {
		t.Fatal(err)
	}
	neu := toggleSnapshots(t, ref)
	for _, noExchange := range []string{"0", "1"} {
		for _, point := range points {
			for _, n := range toggleOccurrences(point, noExchange == "1") {
				t.Run(fmt.Sprintf("noexchange=%s/%s/%d", noExchange, point, n), func(t *testing.T) {
					w := newWorld(t)
					opts := w.opts(t, agents.ScopeProject)
					mustInstall(t, opts, toggleSet(t, w, "1.0.0")...)
					cmd := helper(t, w, "kill", nil, "HELPER_DISABLE=a,b,c", "HELPER_POINT="+point, "HELPER_N="+strconv.Itoa(n), "HELPER_NOEXCHANGE="+noExchange)
					out, err := cmd.CombinedOutput()
					var ee *exec.ExitError
					if !errors.As(err, &ee) || ee.ProcessState.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
						t.Fatalf("helper = %v, want killed by SIGKILL\n%s", err, out)
					}
					gap := noExchange == "1" && point == PointMidSwap
					got := toggleSnapshots(t, w)
					for d, snap := range got {
						if snap != old[d] && snap != neu[d] && !(gap && snap == "absent") {
							t.Errorf("after a kill at %s #%d, %s holds neither state:\n%s", point, n, d, snap)
						}
					}
					if !gap {
						list, _ := Scan(t.Context(), opts)
						for _, in := range list {
							if in.State != StateOK {
								t.Errorf("Scan before recovery: %s in %s = %s %v", in.Name, in.Root, in.State, in.ModifiedFiles)
							}
						}
					}
					if err := Recover(t.Context(), opts); err != nil {
						t.Fatalf("Recover() = %v", err)
					}
					checkConsistent(t, opts, nil)
					for d, snap := range toggleSnapshots(t, w) {
						if snap != old[d] && snap != neu[d] {
							t.Errorf("after recovery from a kill at %s #%d, %s holds neither state:\n%s", point, n, d, snap)
						}
					}
					if _, err := SetDisabled(t.Context(), []string{"a", "b", "c"}, true, opts); err != nil {
						t.Fatal(err)
					}
					checkConsistent(t, opts, nil)
					for d, snap := range toggleSnapshots(t, w) {
						if snap != neu[d] {
							t.Errorf("after disabling again, %s =\n%s\nwant\n%s", d, snap, neu[d])
						}
					}
				})
			}
		}
	}
}
