package main

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The operations, in the order they run: every install of a series runs
// before any list, restore or remove, so that the removes — the only big
// deletes — come last and slow no file creation measured after them.
var ops = []string{"start", "install", "list", "restore", "remove"}

// Within a round the tools always run in this order; "floor" is cp -r (and
// rm -rf for remove) and yields two figures, "copy" and "durable" (the same
// plus one sync -f).
var tools = []string{"ours", "theirs", "floor"}

// sample is one timed run of one tool.
type sample struct {
	ok   bool
	wall time.Duration
	rss  int64 // KiB, the largest of the run's processes
}

// series is one size: its generated skills and every sample.
type series struct {
	c     config
	n     int
	dir   string
	src   string
	names []string

	res   map[string][]sample // "op/tool" (tool: ours, theirs, copy, durable) → one per round
	fails []string
	notes []string
	rss   []int64 // our install's peak RSS from GNU time -v, KiB
}

func newSeries(c config, n int) (*series, error) {
	dir := filepath.Join(c.work, fmt.Sprintf("n%d", n))
	if _, err := os.Stat(dir); err == nil {
		return nil, fmt.Errorf("%s exists: give bench-peers an empty -work folder", dir)
	}
	s := &series{c: c, n: n, dir: dir, src: filepath.Join(dir, "src"), res: map[string][]sample{}}
	names, err := generate(s.src, n)
	if err != nil {
		return nil, err
	}
	s.names = names
	return s, nil
}

func (s *series) measure() {
	for _, op := range s.c.ops {
		for r := 0; r < s.c.rounds; r++ {
			for _, tool := range tools {
				s.once(op, tool, r)
			}
		}
	}
	s.measureRSS()
}

func (s *series) failures() int { return len(s.fails) }

func (s *series) record(op, key string, r int, smp sample) {
	k := op + "/" + key
	if s.res[k] == nil {
		s.res[k] = make([]sample, s.c.rounds)
	}
	s.res[k][r] = smp
}

func (s *series) fail(op, tool string, r int, format string, args ...any) {
	s.fails = append(s.fails, fmt.Sprintf("%s %s, round %d: %s", tool, op, r+1, fmt.Sprintf(format, args...)))
}

// runDir is one run's scratch folder: a fresh HOME and a project with .git.
type runDir struct{ root, home, proj string }

func (s *series) newRunDir(op, tool string, r int) (runDir, error) {
	root := filepath.Join(s.dir, "runs", fmt.Sprintf("%s-%s-%d", op, tool, r+1))
	d := runDir{root: root, home: filepath.Join(root, "home"), proj: filepath.Join(root, "proj")}
	for _, p := range []string{d.home, filepath.Join(d.proj, ".git")} {
		if err := os.MkdirAll(p, 0o755); err != nil {
			return d, err
		}
	}
	return d, nil
}

// installDir is the project that install round r of tool left behind, which
// list and remove of the same round act on and restore takes its lock from.
func (s *series) installDir(tool string, r int) runDir {
	root := filepath.Join(s.dir, "runs", fmt.Sprintf("install-%s-%d", tool, r+1))
	return runDir{root: root, home: filepath.Join(root, "home"), proj: filepath.Join(root, "proj")}
}

func (s *series) installOK(tool string, r int) bool {
	key := tool
	if tool == "floor" {
		key = "durable"
	}
	v := s.res["install/"+key]
	return v != nil && v[r].ok
}

// step is one process; mark, when set, records the time from the first
// step's start to this step's end under that key.
type step struct {
	argv []string
	dir  string
	env  []string
	mark string
}

// runSteps syncs the file system (untimed, so that no run pays for the
// previous one's write-back), then runs the steps in order.
func runSteps(steps []step, timeout time.Duration) (marks map[string]time.Duration, rss int64, stdout string, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	syscall.Sync()
	marks = map[string]time.Duration{}
	var all bytes.Buffer
	t0 := time.Now()
	for _, st := range steps {
		cmd := exec.CommandContext(ctx, st.argv[0], st.argv[1:]...)
		cmd.Dir, cmd.Env = st.dir, st.env
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		err := cmd.Run()
		if cmd.ProcessState != nil {
			if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru.Maxrss > rss {
				rss = ru.Maxrss
			}
		}
		if ctx.Err() != nil {
			err = fmt.Errorf("killed after the -timeout of %s", timeout)
		}
		if err != nil {
			return marks, rss, all.String(), fmt.Errorf("%s: %v\n%s", strings.Join(short(st.argv), " "), err, tail(o.String()+e.String(), 12))
		}
		if st.mark != "" {
			marks[st.mark] = time.Since(t0)
		}
		all.Write(o.Bytes())
	}
	return marks, rss, all.String(), nil
}

func short(argv []string) []string {
	if len(argv) > 12 {
		return append(append([]string{}, argv[:12]...), fmt.Sprintf("… (%d more)", len(argv)-12))
	}
	return argv
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{"…"}, lines[len(lines)-n:]...)
	}
	return "    " + strings.Join(lines, "\n    ")
}

// env is the whole environment a tool gets: nothing of the caller's but PATH
// (no agent, CI or telemetry variables leak in), a fresh HOME, and for
// vercel skills telemetry off (its only network use for a local source).
func (s *series) env(tool string, d runDir) []string {
	e := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + d.home, "LANG=C.UTF-8", "TERM=dumb", "NO_COLOR=1", "TMPDIR=" + os.TempDir()}
	switch tool {
	case "ours":
		e = append(e, "AGENT_SKILLS_HOME="+filepath.Join(d.home, ".agent-skills"))
	case "theirs":
		e = append(e, "DISABLE_TELEMETRY=1", "DO_NOT_TRACK=1")
	}
	return e
}

func (s *series) theirs(args ...string) []string {
	return append([]string{s.c.node, s.c.theirs}, args...)
}

// oursAgents name, for ours, the two agents theirs gets as claude-code and codex.
var oursAgents = []string{"--project", "--agent", "claude", "--agent", "codex"}

func (s *series) oursInstall() []string {
	return append([]string{s.c.ours, "install", s.src, "--skill", "*"}, oursAgents...)
}

func (s *series) once(op, tool string, r int) {
	if tool == "floor" && (op == "start" || op == "list") {
		return // no floor for these
	}
	var d runDir
	var err error
	switch op {
	case "start", "install", "restore":
		d, err = s.newRunDir(op, tool, r)
	case "list", "remove":
		if !s.installOK(tool, r) {
			s.fail(op, tool, r, "not run: the install of the same round failed or was not run")
			return
		}
		d = s.installDir(tool, r)
	}
	if err != nil {
		s.fail(op, tool, r, "scratch folder: %v", err)
		return
	}
	var steps []step
	one := func(argv ...string) {
		steps = []step{{argv: argv, dir: d.proj, env: s.env(tool, d), mark: tool}}
	}
	claude, agents := filepath.Join(d.proj, ".claude", "skills"), filepath.Join(d.proj, ".agents", "skills")
	floorCopy := func() {
		for _, p := range []string{filepath.Dir(claude), filepath.Dir(agents)} {
			if err = os.MkdirAll(p, 0o755); err != nil {
				return
			}
		}
		e := s.env(tool, d)
		from := filepath.Join(s.src, "skills")
		steps = []step{
			{argv: []string{"cp", "-r", from, claude}, dir: d.proj, env: e},
			{argv: []string{"cp", "-r", from, agents}, dir: d.proj, env: e, mark: "copy"},
			{argv: []string{"sync", "-f", claude}, dir: d.proj, env: e, mark: "durable"},
		}
	}
	switch op + "/" + tool {
	case "start/ours":
		one(s.c.ours, "--version")
	case "start/theirs":
		one(s.theirs("--version")...)
	case "install/ours":
		one(s.oursInstall()...)
	case "install/theirs":
		one(s.theirs("add", s.src, "--skill", "*", "--agent", "claude-code", "codex", "--copy", "-y")...)
	case "install/floor", "restore/floor":
		floorCopy()
	case "list/ours":
		one(s.c.ours, "list", "--project")
	case "list/theirs":
		one(s.theirs("list")...)
	case "restore/ours":
		err = copyFile(filepath.Join(s.installDir(tool, r).proj, "skills.lock"), filepath.Join(d.proj, "skills.lock"))
		// The lock records the agents, but a fresh HOME shows no agent to detect:
		// name the same two, as theirs is told nothing either.
		one(append([]string{s.c.ours, "install"}, oursAgents...)...)
	case "restore/theirs":
		err = copyFile(filepath.Join(s.installDir(tool, r).proj, "skills-lock.json"), filepath.Join(d.proj, "skills-lock.json"))
		one(s.theirs("experimental_install")...)
	case "remove/ours":
		one(append(append([]string{s.c.ours, "uninstall"}, s.names...), oursAgents...)...)
	case "remove/theirs":
		one(s.theirs("remove", "--all")...)
	case "remove/floor":
		e := s.env(tool, d)
		steps = []step{
			{argv: []string{"rm", "-rf", claude, agents}, dir: d.proj, env: e, mark: "copy"},
			{argv: []string{"sync", "-f", d.proj}, dir: d.proj, env: e, mark: "durable"},
		}
	default:
		s.fail(op, tool, r, "the harness has no command for this")
		return
	}
	if err != nil {
		s.fail(op, tool, r, "setup: %v", err)
		return
	}
	marks, rss, stdout, err := runSteps(steps, s.c.timeout)
	keys := []string{tool}
	if tool == "floor" {
		keys = []string{"copy", "durable"}
	}
	if err == nil {
		err = s.verify(op, tool, r, d, stdout)
	}
	for _, k := range keys {
		s.record(op, k, r, sample{ok: err == nil, wall: marks[k], rss: rss})
	}
	if err != nil {
		s.fail(op, tool, r, "%v", err)
		return
	}
	if op == "install" && r == 0 {
		f, dirs := countTree(d.proj)
		s.notes = append(s.notes, fmt.Sprintf("%s install writes %d files and %d folders into the project (.git aside)", tool, f, dirs))
	}
}

// verify checks that a run did the work: both agents' folders hold exactly
// the N generated skills as real folders with a regular SKILL.md (not
// symlinks), list printed every name, remove left none.
func (s *series) verify(op, tool string, r int, d runDir, stdout string) error {
	claude, agents := filepath.Join(d.proj, ".claude", "skills"), filepath.Join(d.proj, ".agents", "skills")
	switch op {
	case "install":
		return s.expectRoots(claude, agents)
	case "restore":
		if tool == "theirs" {
			// experimental_install restores into .agents/skills only (it records no agents
			// and restores for the "universal" agents); Claude Code's folder stays empty.
			if err := s.expectRoots(agents); err != nil {
				return err
			}
			got, _, _ := skillsIn(claude)
			if r == 0 {
				s.notes = append(s.notes, fmt.Sprintf("theirs restore (experimental_install) put %d of %d skills into .claude/skills (it restores into .agents/skills only): it does half the writes ours does", len(got), s.n))
			}
			return nil
		}
		return s.expectRoots(claude, agents)
	case "list":
		var missing []string
		for _, n := range s.names {
			if !strings.Contains(stdout, n) {
				missing = append(missing, n)
			}
		}
		if len(missing) > 0 {
			return fmt.Errorf("list printed %d of %d names (first missing: %s)", s.n-len(missing), s.n, missing[0])
		}
	case "remove":
		for _, root := range []string{claude, agents} {
			got, links, err := skillsIn(root)
			if err != nil {
				return err
			}
			if len(got)+links > 0 {
				return fmt.Errorf("%s still holds %d skills after remove", rel(d.proj, root), len(got)+links)
			}
		}
	}
	return nil
}

func (s *series) expectRoots(roots ...string) error {
	for _, root := range roots {
		got, links, err := skillsIn(root)
		if err != nil {
			return err
		}
		if links > 0 {
			return fmt.Errorf("%s: %d skills are symlinks, not copies", root, links)
		}
		if !equal(got, s.names) {
			return fmt.Errorf("%s holds %d skills with a SKILL.md, want the %d generated ones", root, len(got), s.n)
		}
	}
	return nil
}

// skillsIn lists the folders of root (not starting with a dot) that are real
// folders holding a regular SKILL.md, sorted, and counts symlinked entries.
func skillsIn(root string) (names []string, links int, err error) {
	ents, err := os.ReadDir(root)
	if os.IsNotExist(err) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if e.Type()&fs.ModeSymlink != 0 {
			links++
			continue
		}
		fi, err := os.Lstat(filepath.Join(root, e.Name(), "SKILL.md"))
		if err == nil && e.IsDir() && fi.Mode().IsRegular() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names, links, nil
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	bb := append([]string{}, b...)
	sort.Strings(bb)
	for i := range a {
		if a[i] != bb[i] {
			return false
		}
	}
	return true
}

func countTree(proj string) (files, dirs int) {
	_ = filepath.WalkDir(proj, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if e.IsDir() && e.Name() == ".git" {
			return filepath.SkipDir
		}
		if p == proj {
			return nil
		}
		if e.IsDir() {
			dirs++
		} else {
			files++
		}
		return nil
	})
	return files, dirs
}

func rel(base, p string) string {
	if r, err := filepath.Rel(base, p); err == nil {
		return r
	}
	return p
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o644)
}

var maxRSS = regexp.MustCompile(`Maximum resident set size \(kbytes\): (\d+)`)

// measureRSS runs our install under GNU time -v, rounds times, each in a
// fresh project, after every timed run of the series.
func (s *series) measureRSS() {
	if _, err := os.Stat(s.c.timeBin); err != nil {
		s.notes = append(s.notes, fmt.Sprintf("peak RSS with time -v not measured: %v", err))
		return
	}
	for r := 0; r < s.c.rounds; r++ {
		d, err := s.newRunDir("rss", "ours", r)
		if err != nil {
			s.fail("install (time -v)", "ours", r, "scratch folder: %v", err)
			continue
		}
		argv := append([]string{s.c.timeBin, "-v"}, s.oursInstall()...)
		ctx, cancel := context.WithTimeout(context.Background(), s.c.timeout)
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Dir, cmd.Env = d.proj, s.env("ours", d)
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		err = cmd.Run()
		cancel()
		if err == nil {
			err = s.expectRoots(filepath.Join(d.proj, ".claude", "skills"), filepath.Join(d.proj, ".agents", "skills"))
		}
		m := maxRSS.FindStringSubmatch(e.String())
		if err != nil || m == nil {
			s.fail("install (time -v)", "ours", r, "%v\n%s", err, tail(o.String()+e.String(), 12))
			continue
		}
		kib, _ := strconv.ParseInt(m[1], 10, 64)
		s.rss = append(s.rss, kib)
	}
}
