package install

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/resolve"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/format"
)

// pkgSpec describes a test package.
type pkgSpec struct {
	name, version, kind string
	compat              []string
	extra               map[string]string // more files, shipped under references/
}

// writePkg writes spec into a fresh folder under base and loads it.
func writePkg(t testing.TB, base string, spec pkgSpec) Item {
	t.Helper()
	kind := spec.kind
	if kind == "" {
		kind = "skill"
	}
	dir := filepath.Join(base, "payload", spec.name+"-"+spec.version)
	files := map[string]string{}
	entry := "SKILL.md"
	if kind == "command" {
		entry = "COMMAND.md"
		files[entry] = fmt.Sprintf("---\ndescription: Command %s at %s.\n---\nDo %s %s.\n", spec.name, spec.version, spec.name, spec.version)
	} else {
		files[entry] = fmt.Sprintf("---\nname: %s\ndescription: Skill %s at version %s. Use it in tests.\n---\n# %s\n\nVersion %s body.\n", spec.name, spec.name, spec.version, spec.name, spec.version)
	}
	list := "files:\n  - " + entry + "\n  - skill.yaml\n"
	if len(spec.extra) > 0 {
		list += "  - references/\n"
	}
	for p, c := range spec.extra {
		files["references/"+p] = c
	}
	compat := ""
	if len(spec.compat) > 0 {
		compat = "compatibility:\n  agents:\n"
		for _, c := range spec.compat {
			compat += "    - id: " + c + "\n"
		}
	}
	files["skill.yaml"] = fmt.Sprintf("schemaVersion: 1\nname: %s\nkind: %s\nversion: %s\ndescription: Skill %s at version %s.\nlicense: MIT\n%s%s",
		spec.name, kind, spec.version, spec.name, spec.version, compat, list)
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkg, ds := format.Load(os.DirFS(dir), format.LoadOptions{})
	if ds.HasErrors() {
		t.Fatalf("format.Load(%s) = %v", dir, ds)
	}
	integrity, err := format.Digest(pkg.FS, pkg.Files)
	if err != nil {
		t.Fatal(err)
	}
	return Item{Pkg: pkg, Dir: dir, Registry: "test", Resolved: "file://" + dir, Integrity: integrity, Role: resolve.RoleRequested}
}

// world is a fake machine: a home folder and a project.
type world struct {
	base, home, project, lock string
}

func newWorld(t testing.TB) *world {
	t.Helper()
	base := t.TempDir()
	w := &world{base: base, home: filepath.Join(base, "home"), project: filepath.Join(base, "project")}
	w.lock = filepath.Join(w.home, ".agent-skills", "locks", "project.lock")
	for _, d := range []string{w.home, filepath.Join(w.project, ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

// opts returns options for the given agents in the given scope.
func (w *world) opts(t testing.TB, scope agents.Scope, ids ...string) Options {
	t.Helper()
	if len(ids) == 0 {
		ids = []string{"claude-code", "codex"}
	}
	sel, err := agents.Default().Select(ids)
	if err != nil {
		t.Fatal(err)
	}
	return Options{
		Scope:  scope,
		Env:    agents.Env{Home: w.home, ProjectRoot: w.project, WorkDir: w.project, Getenv: func(string) string { return "" }},
		Agents: sel,
	}
}

// snapshot describes every file, link and folder under dir: path, type,
// mode and content digest, one line each, sorted.
func snapshot(t testing.TB, dir string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) && p == dir {
				return filepath.SkipDir
			}
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			lines = append(lines, fmt.Sprintf("%s/ %v", rel, info.Mode()))
		case info.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			lines = append(lines, fmt.Sprintf("%s -> %s", rel, target))
		default:
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(data)
			lines = append(lines, fmt.Sprintf("%s %v %s", rel, info.Mode(), hex.EncodeToString(sum[:8])))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// mustInstall installs items and fails the test on error.
func mustInstall(t testing.TB, opts Options, items ...Item) *Report {
	t.Helper()
	rep, err := Install(t.Context(), items, opts)
	if err != nil {
		t.Fatalf("Install(%v) = %v", names(items), err)
	}
	return rep
}

func names(items []Item) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.Pkg.Name()+"@"+it.Pkg.Version())
	}
	return out
}

// outcomes renders a report as "name@root-suffix=outcome" lines.
func outcomes(w *world, rep *Report) []string {
	var out []string
	for _, r := range rep.Results {
		where := r.Agent
		if r.Root != "" {
			where = strings.TrimPrefix(strings.TrimPrefix(r.Root, w.project+"/"), w.home+"/")
		}
		out = append(out, fmt.Sprintf("%s %s %s", r.Name, where, r.Outcome))
	}
	return out
}

func readFile(t testing.TB, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

func formatCompat(id, min string) format.AgentCompat {
	return format.AgentCompat{ID: id, MinVersion: min}
}

// shown is what a user reads of err: its message and its detail lines.
func shown(err error) string {
	return strings.Join(append([]string{err.Error()}, askerr.DetailOf(err)...), "\n")
}

// checkConsistent asserts that every package the scan finds is ok, that no
// pending receipt or staging leftover remains, and, for the names in want,
// the installed version.
func checkConsistent(t testing.TB, opts Options, want map[string]string) {
	t.Helper()
	list, err := Scan(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range list {
		if in.State != StateOK || in.Pending {
			t.Errorf("Scan: %s in %s = %s pending=%v %v", in.Name, in.Root, in.State, in.Pending, in.ModifiedFiles)
		}
		if v, ok := want[in.Name]; ok && v != "" && in.Version != v {
			t.Errorf("Scan: %s in %s = version %s, want %s", in.Name, in.Root, in.Version, v)
		}
		if ents, _ := os.ReadDir(stagingDir(in.Root)); len(ents) > 0 {
			t.Errorf("staging leftovers in %s: %v", in.Root, ents)
		}
	}
}

// victim writes the folder outside the project that a hostile clone aims
// at, and returns it.
func victim(t *testing.T, w *world) string {
	t.Helper()
	v := filepath.Join(w.base, "victim")
	for p, c := range map[string]string{"Documents/thesis.tex": "thesis", ".ssh/id_ed25519": "key", "secret-dir/plans.txt": "TOP-SECRET"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(v, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(v, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return v
}

// plant writes files and links below dir: a value starting with "-> " is
// a link to the rest, any other value a file's content.
func plant(t *testing.T, dir string, entries map[string]string) {
	t.Helper()
	keys := make([]string, 0, len(entries))
	for k := range entries {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		p := filepath.Join(dir, filepath.FromSlash(k))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		v := entries[k]
		var err error
		switch {
		case strings.HasPrefix(v, "-> "):
			err = os.Symlink(strings.TrimPrefix(v, "-> "), p)
		case v == "/":
			err = os.MkdirAll(p, 0o755)
		default:
			err = os.WriteFile(p, []byte(v), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}
