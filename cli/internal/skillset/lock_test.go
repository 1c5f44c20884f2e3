package skillset

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/resolve"
)

func TestReadLock(t *testing.T) {
	dir := t.TempDir()
	good := lockOf(map[string]resolve.LockedSkill{"alpha": entry("1.0.0", sum1, both, nil)})
	writeFile(t, filepath.Join(dir, "good.lock"), string(good.Encode()))
	writeFile(t, filepath.Join(dir, "bad.lock"), "lockfileVersion: 1\nskills: [\n")
	mkdir(t, filepath.Join(dir, "folder.lock"))
	tests := []struct {
		path string
		code string // "" for success
		want int    // skills read
	}{
		{"", "", 0},
		{filepath.Join(dir, "missing.lock"), "", 0},
		{filepath.Join(dir, "good.lock"), "", 1},
		{filepath.Join(dir, "bad.lock"), "ASK_LOCK_INVALID", 0},
		{filepath.Join(dir, "folder.lock"), askerr.CodeIO, 0},
	}
	for _, tt := range tests {
		l, err := ReadLock(tt.path)
		if codeOf(err) != tt.code {
			t.Errorf("ReadLock(%q) = %v, want code %q", tt.path, err, tt.code)
			continue
		}
		if n := 0; l != nil {
			n = len(l.Skills)
			if n != tt.want {
				t.Errorf("ReadLock(%q) read %d skills, want %d", tt.path, n, tt.want)
			}
		} else if tt.want != 0 {
			t.Errorf("ReadLock(%q) = nil, want %d skills", tt.path, tt.want)
		}
	}
}

func TestWriteLock(t *testing.T) {
	s := &Session{opts: Options{Generator: "agent-skills@9.9.9"}}
	path := filepath.Join(t.TempDir(), "skills.lock")
	l := lockOf(map[string]resolve.LockedSkill{"alpha": entry("1.0.0", sum1, both, nil)})
	if err := s.writeLock(path, l); err != nil {
		t.Fatalf("writeLock() = %v", err)
	}
	got, err := ReadLock(path)
	if err != nil || got.GeneratedWith != "agent-skills@9.9.9" || got.Skills["alpha"].Version != "1.0.0" {
		t.Fatalf("ReadLock(written) = %+v, %v; want alpha 1.0.0 generated with the session's generator", got, err)
	}
	// An unchanged lock is not rewritten.
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	os.Chtimes(path, old, old)
	if err := s.writeLock(path, l); err != nil {
		t.Fatalf("writeLock(unchanged) = %v", err)
	}
	if fi, _ := os.Stat(path); !fi.ModTime().Equal(old) {
		t.Errorf("writeLock(unchanged) rewrote the file: mtime %v, want %v", fi.ModTime(), old)
	}
	// A lock that would not read back is never written.
	broken := lockOf(map[string]resolve.LockedSkill{"alpha": entry("1.0.0", sum1, both, map[string]string{"ghost": "1.0.0"})})
	if err := s.writeLock(path, broken); codeOf(err) != askerr.CodeInternal {
		t.Errorf("writeLock(dangling dependency) = %v, want %s", err, askerr.CodeInternal)
	}
	if got, _ := ReadLock(path); got == nil || len(got.Skills["alpha"].Dependencies) != 0 {
		t.Errorf("writeLock(dangling dependency) wrote it")
	}
	// A folder in the way is an I/O error.
	if err := s.writeLock(filepath.Join(path, "skills.lock"), l); codeOf(err) != askerr.CodeIO {
		t.Errorf("writeLock(below a file) = %v, want %s", err, askerr.CodeIO)
	}
}

func TestSortedAgents(t *testing.T) {
	tests := []struct{ in, want []string }{
		{nil, nil},
		{[]string{"codex", "claude-code", "codex"}, []string{"claude-code", "codex"}},
		{[]string{"b", "a", "b", "a"}, []string{"a", "b"}},
	}
	for _, tt := range tests {
		in := slices.Clone(tt.in)
		if got := sortedAgents(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("sortedAgents(%q) = %q, want %q", in, got, tt.want)
		}
		if !slices.Equal(tt.in, in) {
			t.Errorf("sortedAgents(%q) changed its argument to %q", in, tt.in)
		}
	}
}

func TestFrozenCheck(t *testing.T) {
	l := lockOf(map[string]resolve.LockedSkill{
		"app": entry("1.0.0", sum1, both, nil),
		"src": {Version: "0.1.0", Source: "github:acme/skills", Commit: "c1", Subpath: "skills/src", Integrity: sum1, Agents: both},
	})
	w := func(name, version, registry string) want {
		return want{name: name, version: version, registry: registry}
	}
	src := func(source, commit, integrity string) fetched {
		return fetched{want: want{name: "src", version: "0.1.0", source: source, commit: commit, integrity: integrity}}
	}
	tests := []struct {
		name    string
		lock    *resolve.Lock
		wants   []want
		sources []fetched
		diffs   []string // nil: allowed
	}{
		{"nothing planned", l, nil, nil, nil},
		{"what the lock records", l, []want{w("app", "1.0.0", "team")}, []fetched{src("github:acme/skills", "c1", sum1)}, nil},
		{"no lock", nil, []want{w("app", "1.0.0", "team")}, nil, []string{"app@1.0.0 is not in skills.lock"}},
		{"a new skill", l, []want{w("new", "2.0.0", "team")}, nil, []string{"new@2.0.0 is not in skills.lock"}},
		{"another version", l, []want{w("app", "1.1.0", "team")}, nil, []string{"app: skills.lock has app@1.0.0 from team, the plan needs 1.1.0 from team"}},
		{"another registry", l, []want{w("app", "1.0.0", "other")}, nil, []string{"app: skills.lock has app@1.0.0 from team, the plan needs 1.0.0 from other"}},
		{"a source at another commit", l, nil, []fetched{src("github:acme/skills", "c2", sum1)}, []string{"src from github:acme/skills at c2 is not what skills.lock records"}},
		{"a source with other bytes", l, nil, []fetched{src("github:acme/skills", "c1", sum2)}, []string{"src from github:acme/skills at c1 is not what skills.lock records"}},
		{"a source from elsewhere", l, nil, []fetched{src("github:other/skills", "c1", sum1)}, []string{"src from github:other/skills at c1 is not what skills.lock records"}},
		{"every difference is listed", nil, []want{w("app", "1.0.0", "team"), w("lib", "1.0.0", "team")}, []fetched{src("github:acme/skills", "c1", sum1)},
			[]string{"src from github:acme/skills at c1 is not what skills.lock records", "app@1.0.0 is not in skills.lock", "lib@1.0.0 is not in skills.lock"}},
	}
	for _, tt := range tests {
		err := frozenCheck(tt.lock, tt.wants, tt.sources)
		if tt.diffs == nil {
			if err != nil {
				t.Errorf("frozenCheck(%s) = %v, want nil", tt.name, err)
			}
			continue
		}
		if codeOf(err) != CodeLockFrozen || !slices.Equal(askerr.DetailOf(err), tt.diffs) {
			t.Errorf("frozenCheck(%s) = %v %q, want %s %q", tt.name, err, askerr.DetailOf(err), CodeLockFrozen, tt.diffs)
		}
	}
}

func TestRestoreWants(t *testing.T) {
	l := lockOf(map[string]resolve.LockedSkill{
		"lib": entry("1.1.0", sum2, both, nil),
		"app": entry("1.0.0", sum1, both, map[string]string{"lib": "1.1.0"}),
		"gc":  entry("2.0.0", sum1, both, nil),
		"src": {Version: "0.1.0", Source: "github:acme/skills", Commit: "c1", Integrity: sum1, Agents: both},
	})
	tests := []struct {
		name  string
		roles map[string]resolve.Role
		want  map[string]resolve.Role
	}{
		{"a fresh clone requests everything", nil,
			map[string]resolve.Role{"app": resolve.RoleRequested, "gc": resolve.RoleRequested, "lib": resolve.RoleRequested}},
		{"installed skills keep their roles", map[string]resolve.Role{"lib": resolve.RoleDependency, "gc": resolve.RoleSuggested, "app": resolve.RoleRequested},
			map[string]resolve.Role{"app": resolve.RoleRequested, "gc": resolve.RoleSuggested, "lib": resolve.RoleDependency}},
		{"a role for a source skill is ignored", map[string]resolve.Role{"src": resolve.RoleDependency},
			map[string]resolve.Role{"app": resolve.RoleRequested, "gc": resolve.RoleRequested, "lib": resolve.RoleRequested}},
	}
	for _, tt := range tests {
		got := restoreWants(l, tt.roles)
		var names []string
		for _, w := range got {
			names = append(names, w.name)
			if w.role != tt.want[w.name] {
				t.Errorf("restoreWants(%s): %s has role %q, want %q", tt.name, w.name, w.role, tt.want[w.name])
			}
			e := l.Skills[w.name]
			if w.version != e.Version || w.registry != e.Registry || w.integrity != e.Integrity || !maps.Equal(w.deps, e.Dependencies) || !w.keepRole {
				t.Errorf("restoreWants(%s): %s = %+v, want the lock's version, registry, integrity and dependencies, keeping roles", tt.name, w.name, w)
			}
		}
		if want := []string{"app", "gc", "lib"}; !slices.Equal(names, want) {
			t.Errorf("restoreWants(%s) = %q, want %q (sorted, without the source skill)", tt.name, names, want)
		}
	}
}

// TestPortableResolved: a local source's resolved location (the folder,
// "#<commit>:" and the skill's path) is made relative with its source,
// the folder's links resolved, and left alone when the source stays
// outside the project.
func TestPortableResolved(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "proj")
	mkdir(t, filepath.Join(root, "vendor", "src", "skills", "a"))
	outside := filepath.Join(base, "elsewhere")
	mkdir(t, outside)
	// The project reached through a link: only the real paths compare.
	linked := filepath.Join(base, "link")
	if err := os.Symlink(root, linked); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, source, resolved string
		wantSource, wantRes    string
	}{
		{"inside", filepath.Join(root, "vendor", "src"), filepath.Join(root, "vendor", "src") + "#:skills/a",
			"./vendor/src", "./vendor/src#:skills/a"},
		{"through a link", filepath.Join(linked, "vendor", "src"), filepath.Join(linked, "vendor", "src") + "#:skills/a",
			"./vendor/src", "./vendor/src#:skills/a"},
		{"git commit", filepath.Join(root, "vendor", "src"), filepath.Join(root, "vendor", "src") + "#0123abcd:skills/a",
			"./vendor/src", "./vendor/src#0123abcd:skills/a"},
		{"outside", outside, outside + "#:skills/a", outside, outside + "#:skills/a"},
		{"root itself", root, root + "#:skills/a", ".", root + "#:skills/a"},
	}
	for _, tt := range tests {
		l := lockOf(map[string]resolve.LockedSkill{"a": {Version: "1.0.0", Source: tt.source, Resolved: tt.resolved, Integrity: sum1}})
		got := portable(l, root).Skills["a"]
		if got.Source != tt.wantSource || got.Resolved != tt.wantRes {
			t.Errorf("%s: portable gave source %q resolved %q, want %q and %q", tt.name, got.Source, got.Resolved, tt.wantSource, tt.wantRes)
		}
	}
}
