package skillset

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/cli/internal/workspace"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/resolve"
)

// This file is the fixture of the use-case tests: a throw-away machine
// with a fake HOME, a project with .git, and a local registry "team" that
// the tests publish packages into.

// world is one machine, one project and one local registry.
type world struct {
	t                     *testing.T
	home, proj, reg, base string
	env                   map[string]string
	// published are the packages in the registry, by name and version.
	published map[string][]pkgSpec
}

// pkgSpec is one package version to publish.
type pkgSpec struct {
	name, version string
	// deps and optional map dependency names to ranges; suggests are
	// names.
	deps, optional map[string]string
	suggests       []string
	// files are extra files (path → content) besides skill.yaml and
	// SKILL.md; body replaces SKILL.md's body.
	files map[string]string
	body  string
	// integrity, when set, is what the index records instead of the
	// digest of the files (a registry whose bytes changed).
	integrity string
}

// bothAgents are the agents the use-case tests act for.
var bothAgents = []string{"claude-code", "codex"}

// newWorld makes a machine whose config.json names only the local
// registry "team", and an empty project.
func newWorld(t *testing.T) *world {
	t.Helper()
	base := t.TempDir()
	w := &world{t: t, base: base, home: filepath.Join(base, "home"), proj: filepath.Join(base, "proj"),
		reg: filepath.Join(base, "reg"), published: map[string][]pkgSpec{}}
	w.env = map[string]string{
		"HOME":              w.home,
		"AGENT_SKILLS_HOME": filepath.Join(w.home, ".agent-skills"),
		"CLAUDE_CONFIG_DIR": filepath.Join(w.home, ".claude"),
		"CODEX_HOME":        filepath.Join(w.home, ".codex"),
	}
	mkdir(t, filepath.Join(w.proj, ".git"))
	writeFile(t, filepath.Join(w.env["AGENT_SKILLS_HOME"], "config.json"),
		fmt.Sprintf(`{"registries":[{"name":"team","url":%q,"kind":"local","trusted":true}]}`, w.reg))
	w.writeIndex()
	return w
}

// machine is the workspace of one command run in the project.
func (w *world) machine() *workspace.Machine {
	return &workspace.Machine{Getenv: func(k string) string { return w.env[k] }, Cwd: w.proj}
}

// open opens a session for both agents, in the project unless global.
func (w *world) open(global bool, fault func(string) error) *Session {
	w.t.Helper()
	return w.openFor(global, bothAgents, fault)
}

// openFor opens a session for the agents named.
func (w *world) openFor(global bool, ids []string, fault func(string) error) *Session {
	w.t.Helper()
	sc := workspace.ScopeRequest{Project: !global, Global: global}
	s, err := Open(w.t.Context(), w.machine(), Options{Scope: sc, Agents: ids, Generator: "agent-skills@test", Fault: fault})
	if err != nil {
		w.t.Fatalf("Open(global=%v) = %v", global, err)
	}
	return s
}

// publish writes each package into the registry and rewrites the index.
func (w *world) publish(specs ...pkgSpec) {
	w.t.Helper()
	for _, p := range specs {
		dir := w.pkgDir(p.name, p.version)
		os.RemoveAll(dir)
		writePackage(w.t, dir, p)
		vs := slices.DeleteFunc(w.published[p.name], func(q pkgSpec) bool { return q.version == p.version })
		w.published[p.name] = append(vs, p)
	}
	w.writeIndex()
}

// pkgDir is where a published package lives in the registry.
func (w *world) pkgDir(name, version string) string {
	return filepath.Join(w.reg, "pkgs", name, version)
}

// writeIndex writes registry/skills.yaml for every published package,
// each version's integrity computed with format.Digest.
func (w *world) writeIndex() {
	w.t.Helper()
	var b strings.Builder
	b.WriteString("schemaVersion: 1\nname: team\nskills:")
	if len(w.published) == 0 {
		b.WriteString(" []")
	}
	b.WriteString("\n")
	for _, name := range slices.Sorted(maps.Keys(w.published)) {
		fmt.Fprintf(&b, "  - name: %s\n    description: Test skill %s.\n    versions:\n", name, name)
		for _, p := range w.published[name] {
			sum := p.integrity
			if sum == "" {
				sum = digestOf(w.t, w.pkgDir(name, p.version))
			}
			fmt.Fprintf(&b, "      - version: %s\n        path: pkgs/%s/%s\n        integrity: %s\n", p.version, name, p.version, sum)
		}
	}
	writeFile(w.t, filepath.Join(w.reg, "registry", "skills.yaml"), b.String())
}

// writePackage writes skill.yaml, SKILL.md and the extra files of p to dir.
func writePackage(t *testing.T, dir string, p pkgSpec) {
	t.Helper()
	var m strings.Builder
	fmt.Fprintf(&m, "schemaVersion: 1\nname: %s\nkind: skill\nversion: %s\n", p.name, p.version)
	fmt.Fprintf(&m, "description: Test skill %s. Use when testing.\nlicense: MIT\nfiles: [SKILL.md", p.name)
	for _, f := range slices.Sorted(maps.Keys(p.files)) {
		m.WriteString(", " + f)
	}
	m.WriteString("]\n")
	for _, list := range []struct {
		key  string
		deps map[string]string
	}{{"dependencies", p.deps}, {"optionalDependencies", p.optional}} {
		if len(list.deps) == 0 {
			continue
		}
		m.WriteString(list.key + ":\n")
		for _, d := range slices.Sorted(maps.Keys(list.deps)) {
			fmt.Fprintf(&m, "  - name: %s\n    version: %q\n", d, list.deps[d])
		}
	}
	if len(p.suggests) > 0 {
		m.WriteString("suggests: [" + strings.Join(p.suggests, ", ") + "]\n")
	}
	writeFile(t, filepath.Join(dir, "skill.yaml"), m.String())
	body := p.body
	if body == "" {
		body = fmt.Sprintf("# %s %s\n\nDo the thing.\n", p.name, p.version)
	}
	writeFile(t, filepath.Join(dir, "SKILL.md"),
		fmt.Sprintf("---\nname: %s\ndescription: Test skill %s. Use when testing.\n---\n%s", p.name, p.name, body))
	for f, content := range p.files {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(f)), content)
	}
}

// digestOf is the canonical integrity of the package folder dir.
func digestOf(t *testing.T, dir string) string {
	t.Helper()
	pkg, diags := format.Load(os.DirFS(dir), format.LoadOptions{})
	if pkg == nil || diags.HasErrors() {
		t.Fatalf("format.Load(%s) = %v", dir, diags)
	}
	sum, err := format.Digest(pkg.FS, pkg.Files)
	if err != nil {
		t.Fatalf("format.Digest(%s) = %v", dir, err)
	}
	return sum
}

// lock reads the project's skills.lock; nil when there is none.
func (w *world) lock() *resolve.Lock {
	w.t.Helper()
	l, err := ReadLock(filepath.Join(w.proj, workspace.LockFileName))
	if err != nil {
		w.t.Fatalf("ReadLock = %v", err)
	}
	return l
}

// lockedVersions renders the lock as "name@version[agents]" sorted, ""
// without a lock.
func (w *world) lockedVersions() string {
	w.t.Helper()
	l := w.lock()
	if l == nil {
		return ""
	}
	var out []string
	for _, n := range slices.Sorted(maps.Keys(l.Skills)) {
		s := l.Skills[n]
		out = append(out, fmt.Sprintf("%s@%s%v", n, s.Version, s.Agents))
	}
	return strings.Join(out, " ")
}

// root returns the skills folder of agent id in the project or globally.
func (w *world) root(global bool, id string) string {
	switch {
	case global && id == "claude-code":
		return filepath.Join(w.env["CLAUDE_CONFIG_DIR"], "skills")
	case global:
		return filepath.Join(w.home, ".agents", "skills")
	case id == "claude-code":
		return filepath.Join(w.proj, ".claude", "skills")
	}
	return filepath.Join(w.proj, ".agents", "skills")
}

// installedVersion reads the version of SKILL.md's heading of name in
// the root of agent id ("" when it is not there).
func (w *world) installedVersion(global bool, id, name string) string {
	w.t.Helper()
	data, err := os.ReadFile(filepath.Join(w.root(global, id), name, "SKILL.md"))
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "# "+name+" "); ok {
			return v
		}
	}
	return "?"
}

// scan lists what the session's agents hold in its scope.
func (w *world) scan(s *Session) []install.Installed {
	w.t.Helper()
	found, err := install.Scan(w.t.Context(), install.Options{Scope: s.Scope.Kind, Env: s.Env, Agents: s.Agents})
	if err != nil {
		w.t.Fatalf("install.Scan = %v", err)
	}
	return found
}

// results renders an outcome's results as "outcome name version
// [readers]" lines, in order.
func results(o *Outcome) []string {
	if o == nil {
		return nil
	}
	var out []string
	for _, r := range o.Results {
		out = append(out, fmt.Sprintf("%s %s %s %v", r.Outcome, r.Name, r.Version, r.Readers))
	}
	return out
}

// notices renders an outcome's notices as "level: text" lines.
func notices(o *Outcome) []string {
	if o == nil {
		return nil
	}
	var out []string
	for _, n := range o.Notices {
		out = append(out, string(n.Level)+": "+n.Text)
	}
	return out
}

// hasLine reports whether some line contains want.
func hasLine(lines []string, want string) bool {
	return slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, want) })
}

func mkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	mkdir(t, filepath.Dir(path))
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// codeOf is the ASK_* code of err, "" for nil (askerr.CodeOf calls
// nil ASK_INTERNAL).
func codeOf(err error) string {
	if err == nil {
		return ""
	}
	return askerr.CodeOf(err)
}

// recordRegistries rewrites skills.lock with regs (name → local folder)
// as its registries section; nil drops the section, which leaves a lock
// that does not say where its registries are, as every lock written
// before lockfileVersion 2.
func (w *world) recordRegistries(regs map[string]string) {
	w.t.Helper()
	l := w.lock()
	l.Registries = nil
	for n, dir := range regs {
		if l.Registries == nil {
			l.Registries = map[string]resolve.LockedRegistry{}
		}
		l.Registries[n] = resolve.LockedRegistry{Kind: "local", URL: dir}
	}
	writeFile(w.t, filepath.Join(w.proj, workspace.LockFileName), string(l.Encode()))
}
