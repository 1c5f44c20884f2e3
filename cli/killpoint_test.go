//go:build unix

package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/skillset"
	"github.com/agent-skills/agent-skills/cli/internal/workspace"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/resolve"
)

// The kill-point tests kill agent-skills (cli.run in a helper process,
// the test binary itself) with SIGKILL at randomly chosen occurrences of
// its fault-injection points — install's per-transaction points and the
// journal's — run the next command, and check that skills.lock, the
// receipts and the folders agree; then they run the killed command again
// and check that it finishes exactly as an uninterrupted run does. The
// seed is logged; AGENT_SKILLS_KILL_SEED repeats a run.

// killAgents are the agents every kill-point command acts for: two roots.
var killAgents = []string{"claude-code", "codex"}

// killPoints is how many kill points each test tries, killWorkers how
// many at a time.
const (
	killPoints  = 50
	killWorkers = 4
)

// killWorld is a throw-away HOME, project and local registry.
type killWorld struct {
	home, proj string
}

func (w *killWorld) getenv(k string) string {
	switch k {
	case "HOME":
		return w.home
	case "AGENT_SKILLS_HOME":
		return filepath.Join(w.home, ".agent-skills")
	case "NO_COLOR", "AGENT_SKILLS_NO_UPDATE_NOTIFIER":
		return "1"
	}
	return ""
}

// run runs agent-skills in process; --project-root is added for every
// command that takes it.
func (w *killWorld) run(ctx context.Context, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	args = append(slices.Clone(args), "--project-root", w.proj)
	code = run(ctx, args, nil, &out, &errb, w.getenv)
	return code, out.String(), errb.String()
}

// must runs a command that has to succeed.
func (w *killWorld) must(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errs := w.run(t.Context(), args...)
	if code != 0 {
		t.Fatalf("agent-skills %s exited %d\n%s%s", strings.Join(args, " "), code, out, errs)
	}
	return out + errs
}

// killPackage is one package version of the kill-point registry.
type killPackage struct {
	name, version string
	deps          map[string]string
}

// killRegistry publishes every package into a local registry under base
// and returns its folder.
func killRegistry(t *testing.T, base string, pkgs []killPackage) string {
	t.Helper()
	reg := filepath.Join(base, "reg")
	if err := os.MkdirAll(filepath.Join(reg, "registry"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(reg, "registry", "skills.yaml"), "schemaVersion: 1\nname: team\nskills: []\n")
	pub := &killWorld{home: filepath.Join(base, "publisher"), proj: base}
	for _, p := range pkgs {
		dir := filepath.Join(base, "src", p.version, p.name)
		var deps string
		if len(p.deps) > 0 {
			deps = "dependencies:\n"
			for _, d := range slices.Sorted(maps.Keys(p.deps)) {
				deps += fmt.Sprintf("  - name: %s\n    version: %s\n", d, p.deps[d])
			}
		}
		writeFile(t, filepath.Join(dir, "skill.yaml"), fmt.Sprintf(
			"schemaVersion: 1\nname: %s\nkind: skill\nversion: %s\ndescription: Kill-point test skill %s. Use when testing.\nlicense: MIT\nfiles: [SKILL.md, references/]\n%s",
			p.name, p.version, p.name, deps))
		writeFile(t, filepath.Join(dir, "SKILL.md"), fmt.Sprintf(
			"---\nname: %s\ndescription: Kill-point test skill %s. Use when testing.\n---\n# %s %s\n", p.name, p.name, p.name, p.version))
		writeFile(t, filepath.Join(dir, "references", "notes.md"), strings.Repeat(p.name+" "+p.version+"\n", 50))
		// The fixture's history is made up (app 1.1.0 drops a dependency,
		// a major change): --accept-bump publishes it as it is.
		code, out, errs := pub.runNoRoot(t.Context(), "-q", "publish", dir, "--registry", reg, "--write", "--accept-bump")
		if code != 0 {
			t.Fatalf("publish %s@%s exited %d\n%s%s", p.name, p.version, code, out, errs)
		}
	}
	return reg
}

// runNoRoot runs a command that takes no --project-root.
func (w *killWorld) runNoRoot(ctx context.Context, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(ctx, args, nil, &out, &errb, w.getenv)
	return code, out.String(), errb.String()
}

// killFixture is the registry of the kill-point tests: app needs lib and,
// at 1.0.0, helper, which 1.1.0 no longer needs; s1…s5 stand alone; keep
// is never touched; extra is new to the install test; other is installed
// by an unrelated next command.
func killFixture(t *testing.T, base string) string {
	var pkgs []killPackage
	for _, v := range []string{"1.0.0", "1.1.0"} {
		pkgs = append(pkgs, killPackage{name: "lib", version: v})
		for i := 1; i <= 5; i++ {
			pkgs = append(pkgs, killPackage{name: fmt.Sprintf("s%d", i), version: v})
		}
	}
	pkgs = append(pkgs,
		killPackage{name: "helper", version: "1.0.0"},
		killPackage{name: "app", version: "1.0.0", deps: map[string]string{"lib": "^1.0.0", "helper": "^1.0.0"}},
		killPackage{name: "app", version: "1.1.0", deps: map[string]string{"lib": "^1.1.0"}},
		killPackage{name: "keep", version: "1.0.0"},
		killPackage{name: "extra", version: "1.0.0"},
		killPackage{name: "other", version: "1.0.0"},
	)
	return killRegistry(t, base, pkgs)
}

// newKillWorld makes a HOME configured with the registry and an empty
// project, and installs the starting set: everything at 1.0.0.
func newKillWorld(t *testing.T, dir, reg string) *killWorld {
	w := &killWorld{home: filepath.Join(dir, "home"), proj: filepath.Join(dir, "proj")}
	if err := os.MkdirAll(filepath.Join(w.proj, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(w.home, ".agent-skills", "config.json"),
		fmt.Sprintf(`{"registries":[{"name":"team","url":%q,"kind":"local","trusted":true}]}`, reg))
	w.must(t, "-q", "install", "app@1.0.0", "lib@1.0.0", "s1@1.0.0", "s2@1.0.0", "s3@1.0.0", "s4@1.0.0", "s5@1.0.0", "keep@1.0.0",
		"--project", "--agent", strings.Join(killAgents, ","))
	return w
}

// copyTo copies the world to dir, which must not exist: a fresh world in
// the same state for every kill point, cheaper than installing again.
func (w *killWorld) copyTo(t *testing.T, dir string) *killWorld {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("cp", "-a", w.home, w.proj, dir).CombinedOutput(); err != nil {
		t.Fatalf("cp -a: %v\n%s", err, out)
	}
	return &killWorld{home: filepath.Join(dir, filepath.Base(w.home)), proj: filepath.Join(dir, filepath.Base(w.proj))}
}

// killOpts are the install options that see the roots of killAgents.
func (w *killWorld) killOpts(t *testing.T) install.Options {
	t.Helper()
	as, err := agents.Default().Select(killAgents)
	if err != nil {
		t.Fatal(err)
	}
	ws := &workspace.Machine{Getenv: w.getenv, Cwd: w.proj}
	cfg, err := ws.LoadConfig()
	if err != nil {
		t.Fatal(err)
	}
	return install.Options{Scope: agents.ScopeProject, Env: ws.AgentEnv(cfg, w.proj), Agents: as}
}

// state is what the consistency checks read: the lock and the scan.
type killState struct {
	lock  *resolve.Lock
	found []install.Installed
}

func (w *killWorld) state(t *testing.T) killState {
	t.Helper()
	l, err := skillset.ReadLock(filepath.Join(w.proj, workspace.LockFileName))
	if err != nil {
		t.Fatalf("skills.lock does not read back: %v", err)
	}
	found, err := install.Scan(t.Context(), w.killOpts(t))
	if err != nil {
		t.Fatal(err)
	}
	return killState{l, found}
}

// journalFile is the project's run journal.
func (w *killWorld) journalFile() string {
	return skillset.JournalPath(&workspace.Machine{Getenv: w.getenv}, workspace.Scope{Kind: agents.ScopeProject, Root: w.proj})
}

// checkConsistent asserts that after a mutating command no journal is
// left, every install is complete and unchanged, and skills.lock and the
// receipts agree: every agent an entry names holds that version, and no
// receipt claims a version for an agent the lock gives another.
func (w *killWorld) checkConsistent(t *testing.T) killState {
	t.Helper()
	if _, err := os.Lstat(w.journalFile()); err == nil {
		t.Errorf("the run journal is still there after a mutating command")
	}
	st := w.state(t)
	skills := map[string]resolve.LockedSkill{}
	if st.lock != nil {
		skills = st.lock.Skills
	}
	for _, in := range st.found {
		if in.State != install.StateOK || in.Pending {
			t.Errorf("%s in %s is %s (pending %v) %v", in.Name, in.Root, in.State, in.Pending, in.ModifiedFiles)
		}
		if ents, _ := os.ReadDir(filepath.Join(in.Root, ".agent-skills", "staging")); len(ents) > 0 {
			t.Errorf("staging leftovers in %s", in.Root)
		}
		e, ok := skills[in.Name]
		switch {
		case !ok:
			t.Errorf("%s %s is installed in %s but not in skills.lock", in.Name, in.Version, in.Root)
		case e.Version == in.Version:
			if !format.SameIntegrity(e.Integrity, in.Integrity) {
				t.Errorf("%s %s in %s: integrity %s, skills.lock %s", in.Name, in.Version, in.Root, in.Integrity, e.Integrity)
			}
			for _, a := range in.Agents {
				if !slices.Contains(e.Agents, a) {
					t.Errorf("%s %s is installed for %s, which skills.lock does not list (%v)", in.Name, in.Version, a, e.Agents)
				}
			}
		default:
			for _, a := range in.Agents {
				if slices.Contains(e.Agents, a) {
					t.Errorf("skills.lock has %s %s for %s, whose root holds %s", in.Name, e.Version, a, in.Version)
				}
			}
		}
	}
	for name, e := range skills {
		for _, a := range e.Agents {
			if !slices.ContainsFunc(st.found, func(in install.Installed) bool {
				return in.Name == name && in.Version == e.Version && slices.Contains(in.Agents, a)
			}) {
				t.Errorf("skills.lock has %s %s for %s, which holds no such install", name, e.Version, a)
			}
		}
	}
	return st
}

// names returns the installed names, sorted and without repeats.
func (st killState) names() []string {
	var out []string
	for _, in := range st.found {
		out = append(out, in.Name)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// summary renders the lock's skills and the installs, for comparing with
// an uninterrupted run; the agents' receipts are in it, the install times
// not.
func (st killState) summary(drop string) string {
	var b strings.Builder
	if st.lock != nil {
		l := &resolve.Lock{LockfileVersion: st.lock.LockfileVersion, Skills: map[string]resolve.LockedSkill{}}
		for n, s := range st.lock.Skills {
			if n != drop {
				l.Skills[n] = s
			}
		}
		b.Write(l.Encode())
	}
	for _, in := range st.found {
		if in.Name != drop {
			fmt.Fprintf(&b, "%s %s %s %v %s\n", filepath.Base(filepath.Dir(in.Root)), in.Name, in.Version, in.Agents, in.Role)
		}
	}
	return b.String()
}

// TestKillPointHelper is the process the kill-point tests kill; it does
// nothing in a normal run.
func TestKillPointHelper(t *testing.T) {
	if os.Getenv("AGENT_SKILLS_KILL_HELPER") == "" {
		t.Skip("helper process only")
	}
	var args []string
	if err := json.Unmarshal([]byte(os.Getenv("KILL_ARGS")), &args); err != nil {
		t.Fatal(err)
	}
	at, _ := strconv.Atoi(os.Getenv("KILL_AT"))
	w := &killWorld{home: os.Getenv("KILL_HOME"), proj: os.Getenv("KILL_PROJECT")}
	var mu sync.Mutex
	seen := 0
	hook := func(string) error {
		mu.Lock()
		seen++
		hit := seen == at
		mu.Unlock()
		if hit {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		}
		return nil
	}
	if code, out, errs := w.run(withFault(context.Background(), hook), args...); code != 0 {
		t.Fatalf("agent-skills %v exited %d\n%s%s", args, code, out, errs)
	}
}

// killAt runs args in a helper process killed at the at-th fault point.
func (w *killWorld) killAt(t *testing.T, at int, args []string) {
	t.Helper()
	enc, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillPointHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), "AGENT_SKILLS_KILL_HELPER=1", "KILL_ARGS="+string(enc), "KILL_AT="+strconv.Itoa(at),
		"KILL_HOME="+w.home, "KILL_PROJECT="+w.proj)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ProcessState.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("helper killed at point %d = %v, want killed by SIGKILL\n%s", at, err, out)
	}
}

// countPoints runs args in process and returns the fault points reached,
// in order.
func (w *killWorld) countPoints(t *testing.T, args []string) []string {
	t.Helper()
	var mu sync.Mutex
	var seen []string
	ctx := withFault(t.Context(), func(point string) error {
		mu.Lock()
		seen = append(seen, point)
		mu.Unlock()
		return nil
	})
	if code, out, errs := w.run(ctx, args...); code != 0 {
		t.Fatalf("agent-skills %v exited %d\n%s%s", args, code, out, errs)
	}
	return seen
}

// killSeed returns the seed of a kill-point test, logged so that a
// failure can be repeated.
func killSeed(t *testing.T) uint64 {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("AGENT_SKILLS_KILL_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("AGENT_SKILLS_KILL_SEED=%q: %v", s, err)
		}
		seed = v
	}
	t.Logf("seed %d (AGENT_SKILLS_KILL_SEED=%d repeats this run)", seed, seed)
	return seed
}

// killTest kills the command args at killPoints random fault points (at
// every one, when it has fewer and fewer are allowed) and checks each
// outcome; removed are the skills the command removes.
func killTest(t *testing.T, args []string, removed []string, fewerAllowed bool) {
	if testing.Short() {
		t.Skip("starts a process per kill point")
	}
	seed := killSeed(t)
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	base := t.TempDir()
	reg := killFixture(t, base)

	// An uninterrupted run: what every killed run must end as.
	start := newKillWorld(t, filepath.Join(base, "start"), reg)
	ref := start.copyTo(t, filepath.Join(base, "ref"))
	total := len(ref.countPoints(t, args))
	want := ref.checkConsistent(t).summary("")
	n := killPoints
	switch {
	case total >= n:
	case fewerAllowed:
		n = total
	default:
		t.Fatalf("%v reaches %d fault points, fewer than the %d to kill at", args, total, killPoints)
	}
	points := rng.Perm(total)[:n]
	slices.Sort(points)
	nexts := []string{"again", "install-other", "restore", "read-only"}
	// The points run a few at a time: most of a point's time is spent
	// waiting for fsync, which overlaps well.
	var wg sync.WaitGroup
	sem := make(chan struct{}, killWorkers)
	defer wg.Wait()
	for i, p := range points {
		at := p + 1
		next := nexts[rng.IntN(len(nexts))]
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			killPoint(t, i, at, total, next, args, removed, start, base, want)
		}()
	}
}

// killPoint is one kill point of killTest: kill at the at-th fault point,
// run next, check, run the command again, check.
func killPoint(t *testing.T, i, at, total int, next string, args, removed []string, start *killWorld, base, want string) {
	t.Run(fmt.Sprintf("%02d-point-%d-of-%d-then-%s", i, at, total, next), func(t *testing.T) {
		w := start.copyTo(t, filepath.Join(base, strconv.Itoa(i)))
		w.killAt(t, at, args)
		before := w.state(t)
		switch next {
		case "again":
			w.must(t, args...)
		case "install-other":
			w.must(t, "install", "other@1.0.0", "--project", "--agent", strings.Join(killAgents, ","))
		case "restore":
			w.must(t, "install", "--project", "--agent", strings.Join(killAgents, ","))
		case "read-only":
			w.checkReadOnly(t, before, removed)
			w.must(t, args...)
		}
		st := w.checkConsistent(t)
		if next == "restore" {
			// The restore never brings back a skill the killed command
			// had removed: skills.lock no longer names it.
			for _, n := range removed {
				if slices.Contains(st.names(), n) && !slices.Contains(before.names(), n) {
					t.Errorf("the restore after the kill reinstalled %s, which the killed command had removed", n)
				}
			}
		}
		if next == "install-other" || next == "restore" {
			w.must(t, args...)
			w.checkConsistent(t)
		}
		drop := ""
		if next == "install-other" {
			drop = "other"
		}
		if got := w.state(t).summary(drop); got != want {
			t.Errorf("after the kill and running it again:\n%s\nwant (an uninterrupted run):\n%s", got, want)
		}
	})
}

// checkReadOnly runs list and doctor after a kill: they report a pending
// journal, write nothing, and doctor never offers to restore a skill the
// killed command had removed.
func (w *killWorld) checkReadOnly(t *testing.T, before killState, removed []string) {
	t.Helper()
	lockBefore, _ := os.ReadFile(filepath.Join(w.proj, workspace.LockFileName))
	journalBefore, jerr := os.ReadFile(w.journalFile())
	_, _, listErr := w.run(t.Context(), "list", "--project")
	code, doctorOut, _ := w.run(t.Context(), "doctor")
	if jerr == nil {
		if !strings.Contains(listErr, "interrupted") {
			t.Errorf("list did not report the pending journal:\n%s", listErr)
		}
		if !strings.Contains(doctorOut, "interrupted") {
			t.Errorf("doctor did not report the pending journal:\n%s", doctorOut)
		}
	}
	for _, n := range removed {
		re := regexp.MustCompile(`(?m)^\s*FAIL ` + n + ` \(skills\.lock\): locked at .* but not installed`)
		if re.MatchString(doctorOut) {
			t.Errorf("doctor offers to restore %s, which the killed command removed:\n%s", n, doctorOut)
		}
	}
	if code != 0 && !strings.Contains(doctorOut, "FAIL") {
		t.Errorf("doctor exited %d without a failing check:\n%s", code, doctorOut)
	}
	lockAfter, _ := os.ReadFile(filepath.Join(w.proj, workspace.LockFileName))
	journalAfter, _ := os.ReadFile(w.journalFile())
	if !bytes.Equal(lockBefore, lockAfter) || !bytes.Equal(journalBefore, journalAfter) {
		t.Errorf("list or doctor wrote skills.lock or the journal")
	}
	if after := w.state(t); after.summary("") != before.summary("") {
		t.Errorf("list or doctor changed the roots")
	}
}

func TestKillPointsUninstall(t *testing.T) {
	// app goes with helper, the dependency nothing else needs; lib was
	// asked for and stays, and so does keep.
	args := []string{"uninstall", "app", "s1", "s2", "s3", "s4", "s5", "--agent", strings.Join(killAgents, ",")}
	killTest(t, args, []string{"app", "helper", "s1", "s2", "s3", "s4", "s5"}, false)
}

func TestKillPointsUpdate(t *testing.T) {
	// Every skill moves to 1.1.0, app's new version drops helper, which
	// is pruned; keep has no newer version.
	killTest(t, []string{"update", "--agent", strings.Join(killAgents, ",")}, []string{"helper"}, false)
}

func TestKillPointsInstall(t *testing.T) {
	// A new skill and two moving ones: every fault point of the run.
	killTest(t, []string{"install", "extra@1.0.0", "s1@1.1.0", "s2@1.1.0", "--project", "--agent", strings.Join(killAgents, ",")}, nil, true)
}

// TestKilledUninstallFinishes is B04: an uninstall of several skills for
// two agents killed half-way through its removals left skills.lock naming
// every skill; running it again failed with ASK_NOT_INSTALLED, and doctor
// offered the restore that brought them all back.
func TestKilledUninstallFinishes(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	base := t.TempDir()
	w := newKillWorld(t, filepath.Join(base, "w"), killFixture(t, base))
	args := []string{"uninstall", "app", "s1", "s2", "s3", "s4", "s5", "--agent", strings.Join(killAgents, ",")}
	points := w.copyTo(t, filepath.Join(base, "count")).countPoints(t, args)
	// Kill after the fifth of the fourteen removals: app, s1 and half of
	// s2 are gone.
	at, swaps := 0, 0
	for i, p := range points {
		if p == install.PointAfterSwap {
			if swaps++; swaps == 5 {
				at = i + 1
				break
			}
		}
	}
	w.killAt(t, at, args)
	st := w.state(t)
	if got, want := st.names(), []string{"helper", "keep", "lib", "s2", "s3", "s4", "s5"}; !slices.Equal(got, want) {
		t.Fatalf("installed after the kill = %v, want %v", got, want)
	}

	// Read-only commands report the interrupted run and never offer to
	// restore what it removed.
	_, doctorOut, _ := w.run(t.Context(), "doctor")
	for _, want := range []string{
		`FAIL skills.lock: an interrupted "agent-skills uninstall app s1 s2 s3 s4 s5" (started `,
		"locked but removed: app s1",
		"fix: agent-skills uninstall app s1 s2 s3 s4 s5 --agent claude-code,codex   (finishes it)",
	} {
		if !strings.Contains(doctorOut, want) {
			t.Errorf("doctor after the kill does not say %q:\n%s", want, doctorOut)
		}
	}
	if strings.Contains(doctorOut, "restores everything skills.lock records") {
		t.Errorf("doctor after the kill offers the restore:\n%s", doctorOut)
	}
	if _, _, errs := w.run(t.Context(), "list", "--project"); !strings.Contains(errs, `an interrupted "agent-skills uninstall app s1 s2 s3 s4 s5"`) {
		t.Errorf("list after the kill does not report the interrupted run:\n%s", errs)
	}

	// Running it again finishes it.
	code, out, errs := w.run(t.Context(), args...)
	if code != 0 {
		t.Fatalf("the same uninstall again exited %d\n%s%s", code, out, errs)
	}
	if !strings.Contains(errs, "already removed by the interrupted") || !strings.Contains(out, "removed s3 1.0.0") {
		t.Errorf("the same uninstall again said:\n%s%s", out, errs)
	}
	st = w.checkConsistent(t)
	if got, want := st.names(), []string{"keep", "lib"}; !slices.Equal(got, want) {
		t.Errorf("installed after running it again = %v, want %v", got, want)
	}
	if got := slices.Sorted(maps.Keys(st.lock.Skills)); !slices.Equal(got, []string{"keep", "lib"}) {
		t.Errorf("skills.lock after running it again = %v, want [keep lib]", got)
	}
	// And the restore brings back nothing it removed.
	w.must(t, "install", "--project", "--agent", strings.Join(killAgents, ","))
	if got := w.checkConsistent(t).names(); !slices.Equal(got, []string{"keep", "lib"}) {
		t.Errorf("installed after a restore = %v, want [keep lib]", got)
	}
}

// TestUnusableJournalStops: a journal that cannot be read stops every
// command that would change skills.lock, which could otherwise keep
// naming skills that are gone; read-only commands report it.
func TestUnusableJournalStops(t *testing.T) {
	base := t.TempDir()
	w := newKillWorld(t, filepath.Join(base, "w"), killFixture(t, base))
	writeFile(t, w.journalFile(), `{"schemaVersion":1,"command":"uninstall"`)
	lockBefore, _ := os.ReadFile(filepath.Join(w.proj, workspace.LockFileName))
	for _, args := range [][]string{
		{"install", "other@1.0.0", "--project", "--agent", "claude-code"},
		{"uninstall", "s1", "--agent", "claude-code"},
		{"update", "--agent", "claude-code"},
	} {
		code, out, errs := w.run(t.Context(), args...)
		if code != 1 || !strings.Contains(errs, "code: ASK_JOURNAL_INVALID") || !strings.Contains(errs, "rm "+w.journalFile()) {
			t.Errorf("agent-skills %s with an unusable journal exited %d, want 1 with ASK_JOURNAL_INVALID\n%s%s",
				strings.Join(args, " "), code, out, errs)
		}
	}
	if lockAfter, _ := os.ReadFile(filepath.Join(w.proj, workspace.LockFileName)); !bytes.Equal(lockBefore, lockAfter) {
		t.Errorf("skills.lock changed")
	}
	if _, out, _ := w.run(t.Context(), "doctor"); !strings.Contains(out, "FAIL skills.lock: the journal of an interrupted run cannot be used") {
		t.Errorf("doctor does not report the unusable journal:\n%s", out)
	}
	if _, _, errs := w.run(t.Context(), "list", "--project"); !strings.Contains(errs, "the journal of an interrupted run cannot be used") {
		t.Errorf("list does not report the unusable journal:\n%s", errs)
	}
	os.Remove(w.journalFile())
	w.must(t, "install", "other@1.0.0", "--project", "--agent", "claude-code")
}
