//go:build unix

package install

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/resolve"
)

var points = []string{PointStaged, PointBeforeSwap, PointMidSwap, PointAfterSwap, PointBeforeReceipt, PointAfterReceipt}

// faultSet writes the packages of the fault tests: version 1 of a, b and
// the command c, and version 2 of them plus a new package d. Installed
// for Claude Code and Codex, version 2 is seven transactions.
func faultSet(t testing.TB, w *world) (v1, v2 []Item) {
	v1 = []Item{
		writePkg(t, w.base, pkgSpec{name: "a", version: "1.0.0", extra: map[string]string{"r.md": "a1"}}),
		writePkg(t, w.base, pkgSpec{name: "b", version: "1.0.0"}),
		writePkg(t, w.base, pkgSpec{name: "c", version: "1.0.0", kind: "command"}),
	}
	v2 = []Item{
		writePkg(t, w.base, pkgSpec{name: "a", version: "2.0.0", extra: map[string]string{"r.md": "a2", "s.md": "s"}}),
		writePkg(t, w.base, pkgSpec{name: "b", version: "2.0.0"}),
		writePkg(t, w.base, pkgSpec{name: "c", version: "2.0.0", kind: "command"}),
		writePkg(t, w.base, pkgSpec{name: "d", version: "2.0.0"}),
	}
	return v1, v2
}

// occurrences returns which calls of point to fault in the fault set's
// version-2 install: the first, a middle one and the last. Every point is
// reached once per transaction (seven), except mid-swap, reached only by
// swaps that are not one atomic step: the command's, and with the
// fallback also the four folders that existed.
func occurrences(point string, noExchange bool) []int {
	switch {
	case point != PointMidSwap:
		return []int{1, 4, 7}
	case noExchange:
		return []int{1, 3, 5}
	}
	return []int{1}
}

// countingHook returns a hook that calls fire on the n-th call at point.
func countingHook(point string, n int, fire func() error) func(string) error {
	var mu sync.Mutex
	seen := 0
	return func(p string) error {
		if p != point {
			return nil
		}
		mu.Lock()
		seen++
		hit := seen == n
		mu.Unlock()
		if hit {
			return fire()
		}
		return nil
	}
}

func TestFaultInjectionRollsBack(t *testing.T) {
	errInjected := errors.New("injected")
	modes := map[string]func() error{
		"error":  func() error { return errInjected },
		"panic":  func() error { panic("injected panic") },
		"goexit": func() error { runtime.Goexit(); return nil },
	}
	for _, noExchange := range []bool{false, true} {
		for _, point := range points {
			for _, n := range occurrences(point, noExchange) {
				for mode, fire := range modes {
					name := fmt.Sprintf("exchange=%v/%s/%d/%s", !noExchange, point, n, mode)
					t.Run(name, func(t *testing.T) {
						w := newWorld(t)
						opts := w.opts(t, agents.ScopeProject)
						opts.noExchange = noExchange
						v1, v2 := faultSet(t, w)
						mustInstall(t, opts, v1...)
						user := filepath.Join(w.project, ".claude/skills/a/mine.txt")
						os.WriteFile(user, []byte("mine"), 0o644)
						before := snapshot(t, w.project)
						opts.Hook = countingHook(point, n, fire)
						var err error
						done := make(chan struct{})
						go func() {
							defer close(done)
							defer func() {
								if r := recover(); r != nil {
									err = fmt.Errorf("panic: %v", r)
								}
							}()
							_, err = Install(t.Context(), v2, opts)
							if err == nil {
								err = errors.New("no error")
							}
						}()
						<-done
						switch mode {
						case "error":
							if !errors.Is(err, errInjected) {
								t.Errorf("Install with a failing hook = %v, want the injected error", err)
							}
						case "panic":
							if err == nil || !strings.Contains(err.Error(), "injected panic") {
								t.Errorf("Install with a panicking hook = %v, want the panic", err)
							}
						case "goexit":
							if err != nil {
								t.Errorf("Install with runtime.Goexit = %v, want the goroutine to end", err)
							}
						}
						if after := snapshot(t, w.project); after != before {
							t.Fatalf("tree after a fault:\n%s\nwant\n%s", after, before)
						}
						opts.Hook = nil
						mustInstall(t, opts, v2...)
						if readFile(t, user) != "mine" {
							t.Errorf("user file lost")
						}
						checkConsistent(t, opts, map[string]string{"a": "2.0.0", "b": "2.0.0", "c": "2.0.0", "d": "2.0.0"})
					})
				}
			}
		}
	}
}

// TestHelperProcess is the child of the subprocess tests; it does nothing
// in a normal run.
func TestHelperProcess(t *testing.T) {
	mode := os.Getenv("INSTALL_HELPER")
	if mode == "" {
		t.Skip("helper process only")
	}
	w := &world{base: os.Getenv("HELPER_BASE")}
	w.home, w.project = filepath.Join(w.base, "home"), filepath.Join(w.base, "project")
	w.lock = filepath.Join(w.home, ".agent-skills", "locks", "project.lock")
	opts := w.opts(t, agents.ScopeProject)
	opts.noExchange = os.Getenv("HELPER_NOEXCHANGE") == "1"
	var items []Item
	for _, dir := range strings.Split(os.Getenv("HELPER_ITEMS"), ",") {
		if dir == "" {
			continue // SetDisabled takes names, not items
		}
		pkg, ds := format.Load(os.DirFS(dir), format.LoadOptions{})
		if ds.HasErrors() {
			t.Fatal(ds)
		}
		integrity, _ := format.Digest(pkg.FS, pkg.Files)
		items = append(items, Item{Pkg: pkg, Dir: dir, Integrity: integrity, Role: resolve.RoleRequested})
	}
	if mode == "kill" {
		n, _ := strconv.Atoi(os.Getenv("HELPER_N"))
		opts.Hook = countingHook(os.Getenv("HELPER_POINT"), n, func() error {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		})
	}
	// The CLI holds the run lock around every install; so do the
	// concurrent helpers.
	if err := WithLock(t.Context(), w.lock, func() error {
		if names := os.Getenv("HELPER_DISABLE"); names != "" {
			_, err := SetDisabled(t.Context(), strings.Split(names, ","), true, opts)
			return err
		}
		_, err := Install(t.Context(), items, opts)
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

// helper starts the test binary as a helper process.
func helper(t *testing.T, w *world, mode string, items []Item, env ...string) *exec.Cmd {
	var dirs []string
	for _, it := range items {
		dirs = append(dirs, it.Dir)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), append([]string{
		"INSTALL_HELPER=" + mode, "HELPER_BASE=" + w.base, "HELPER_ITEMS=" + strings.Join(dirs, ","),
	}, env...)...)
	return cmd
}

// destSnapshots returns the snapshot of every package destination.
func destSnapshots(t *testing.T, w *world) map[string]string {
	out := map[string]string{}
	for _, d := range []string{".claude/skills/a", ".claude/skills/b", ".claude/skills/d", ".agents/skills/a", ".agents/skills/b", ".agents/skills/d", ".claude/commands/c.md"} {
		p := filepath.Join(w.project, d)
		if !exists(p) {
			out[d] = "absent"
			continue
		}
		if strings.HasSuffix(d, ".md") {
			out[d] = readFile(t, p)
			continue
		}
		out[d] = snapshot(t, p)
	}
	return out
}

func TestKillAtEveryPoint(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 30 processes")
	}
	ref := newWorld(t)
	v1, v2 := faultSet(t, ref)
	opts := ref.opts(t, agents.ScopeProject)
	mustInstall(t, opts, v1...)
	old := destSnapshots(t, ref)
	mustInstall(t, opts, v2...)
	neu := destSnapshots(t, ref)

	for _, noExchange := range []string{"0", "1"} {
		for _, point := range points {
			for _, n := range occurrences(point, noExchange == "1") {
				t.Run(fmt.Sprintf("noexchange=%s/%s/%d", noExchange, point, n), func(t *testing.T) {
					w := newWorld(t)
					v1, v2 := faultSet(t, w)
					opts := w.opts(t, agents.ScopeProject)
					mustInstall(t, opts, v1...)
					cmd := helper(t, w, "kill", v2, "HELPER_POINT="+point, "HELPER_N="+strconv.Itoa(n), "HELPER_NOEXCHANGE="+noExchange)
					out, err := cmd.CombinedOutput()
					var ee *exec.ExitError
					if !errors.As(err, &ee) || ee.ProcessState.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
						t.Fatalf("helper = %v, want killed by SIGKILL\n%s", err, out)
					}
					// Only the fallback, killed between its two renames,
					// may leave a destination missing until recovery.
					gap := noExchange == "1" && point == PointMidSwap
					got := destSnapshots(t, w)
					for d, snap := range got {
						if snap != old[d] && snap != neu[d] && !(gap && snap == "absent") {
							t.Errorf("after a kill at %s #%d, %s holds neither version:\n%s", point, n, d, snap)
						}
					}
					for _, root := range []string{".claude/skills", ".agents/skills", ".claude/commands"} {
						dir := receiptsDir(filepath.Join(w.project, root))
						ents, _ := os.ReadDir(dir)
						for _, e := range ents {
							data, _ := os.ReadFile(filepath.Join(dir, e.Name()))
							name, isReceipt := strings.CutSuffix(e.Name(), ".json")
							if isReceipt {
								if _, err := decodeReceipt(data, name); err != nil {
									t.Errorf("receipt %s does not parse: %v", e.Name(), err)
								}
							}
						}
					}
					// Before recovery, Scan already tells the truth.
					list, _ := Scan(t.Context(), opts)
					for _, in := range list {
						if in.State != StateOK && !gap {
							t.Errorf("Scan before recovery: %s in %s = %s %v", in.Name, in.Root, in.State, in.ModifiedFiles)
						}
					}
					if err := Recover(t.Context(), opts); err != nil {
						t.Fatalf("Recover() = %v", err)
					}
					checkConsistent(t, opts, nil)
					after := destSnapshots(t, w)
					for d, snap := range after {
						if snap != old[d] && snap != neu[d] {
							t.Errorf("after recovery from a kill at %s #%d, %s holds neither version:\n%s", point, n, d, snap)
						}
						if snap != got[d] && got[d] != "absent" {
							t.Errorf("Recover changed %s", d)
						}
					}
					mustInstall(t, opts, v2...)
					checkConsistent(t, opts, map[string]string{"a": "2.0.0", "b": "2.0.0", "c": "2.0.0", "d": "2.0.0"})
				})
			}
		}
	}
}

func TestConcurrentInstalls(t *testing.T) {
	for _, kind := range []string{"goroutines", "processes"} {
		t.Run(kind, func(t *testing.T) {
			if kind == "processes" && testing.Short() {
				t.Skip("starts 20 processes")
			}
			w := newWorld(t)
			opts := w.opts(t, agents.ScopeProject)
			var shared []Item
			for _, v := range []string{"1.0.0", "1.1.0", "2.0.0"} {
				shared = append(shared, writePkg(t, w.base, pkgSpec{name: "shared", version: v, extra: map[string]string{"v.md": v}}))
			}
			var wg sync.WaitGroup
			errs := make([]error, 20)
			for i := range 20 {
				own := writePkg(t, w.base, pkgSpec{name: fmt.Sprintf("own-%02d", i), version: "1.0.0"})
				items := []Item{shared[i%3], own}
				wg.Add(1)
				go func() {
					defer wg.Done()
					if kind == "goroutines" {
						errs[i] = WithLock(t.Context(), w.lock, func() error {
							_, err := Install(t.Context(), items, opts)
							return err
						})
						return
					}
					out, err := helper(t, w, "install", items).CombinedOutput()
					if err != nil {
						errs[i] = fmt.Errorf("%v\n%s", err, out)
					}
				}()
			}
			wg.Wait()
			for i, err := range errs {
				if err != nil {
					t.Errorf("install %d = %v", i, err)
				}
			}
			checkConsistent(t, opts, nil)
			list, _ := Scan(t.Context(), opts)
			var got []string
			for _, in := range list {
				got = append(got, in.Name)
			}
			if len(got) != 42 {
				t.Errorf("Scan found %d packages, want 42 (21 names in 2 roots): %v", len(got), got)
			}
			v := list[slices.IndexFunc(list, func(in Installed) bool { return in.Name == "shared" })].Version
			body := readFile(t, filepath.Join(w.project, ".claude/skills/shared/references/v.md"))
			if body != v {
				t.Errorf("shared: receipt says %s, files hold %s", v, body)
			}
		})
	}
}
