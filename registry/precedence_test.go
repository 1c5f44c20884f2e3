package registry

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/format"
)

// pkgSpec is one in-memory package: name, version and dependency lines.
type pkgSpec struct {
	name, version string
	deps          []string // "name range"
}

// memRegistry opens a bundled registry holding the packages; each
// package lives in directory name-version.
func memRegistry(t *testing.T, regName string, untrusted bool, pkgs ...pkgSpec) Registry {
	t.Helper()
	fsys := fstest.MapFS{}
	var idx Index
	idx.SchemaVersion = 1
	for _, p := range pkgs {
		dir := p.name + "-" + p.version
		m := fmt.Sprintf("name: %s\nversion: %s\ndescription: %s skill.\nfiles: [SKILL.md]\n", p.name, p.version, p.name)
		if len(p.deps) > 0 {
			m += "dependencies:\n"
			for _, d := range p.deps {
				n, r, _ := strings.Cut(d, " ")
				m += fmt.Sprintf("  - name: %s\n    version: '%s'\n", n, r)
			}
		}
		fsys[dir+"/skill.yaml"] = &fstest.MapFile{Data: []byte(m)}
		fsys[dir+"/SKILL.md"] = &fstest.MapFile{Data: []byte("---\nname: " + p.name + "\ndescription: x\n---\n")}
	}
	for _, p := range pkgs {
		dir := p.name + "-" + p.version
		sub, _ := fs.Sub(fsys, dir)
		pkg, diags := format.Load(sub, format.LoadOptions{})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		sum, err := format.Digest(sub, pkg.Files)
		if err != nil {
			t.Fatal(err)
		}
		s, ok := idx.Skill(p.name)
		if !ok {
			s = &Skill{Name: p.name}
			idx.Skills = append(idx.Skills, s)
			idx.buildMap()
		}
		s.Versions = append(s.Versions, &Version{Version: p.version, Path: dir, Integrity: sum})
	}
	data, err := DecodeIndex(idx.EncodeYAML(), regName)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Open(Spec{Name: regName, Kind: KindBundled, Untrusted: untrusted}, Options{Bundled: fsys, BundledIndex: data.EncodeYAML()})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// downRegistry is a registry that cannot be asked.
func downRegistry(t *testing.T, name string) Registry {
	r, err := Open(Spec{Name: name, URL: t.TempDir() + "/missing"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestSetPrecedence(t *testing.T) {
	company := memRegistry(t, "company", false, pkgSpec{"java-basics", "1.0.0", nil}, pkgSpec{"java-performance", "1.0.0", []string{"java-basics ^1.0.0"}})
	official := memRegistry(t, "official", false, pkgSpec{"java-basics", "9.0.0", nil}, pkgSpec{"java-basics", "1.1.0", nil}, pkgSpec{"jvm-gc", "1.0.0", nil})
	var n notices
	set := NewSet(n.add, company, official)

	// The first registry owns the name: official's 9.0.0 never shows.
	owner, vs, err := set.Versions(t.Context(), "", "java-basics")
	if err != nil || owner != "company" || len(vs) != 1 || vs[0].Version != "1.0.0" {
		t.Errorf("Versions(java-basics) = %q %v %v, want company [1.0.0]", owner, vs, err)
	}
	// A qualified reference bypasses precedence; versions oldest first.
	owner, vs, err = set.Versions(t.Context(), "official", "java-basics")
	if err != nil || owner != "official" || fmt.Sprint(vs) != "[{1.1.0 false} {9.0.0 false}]" {
		t.Errorf("Versions(official:java-basics) = %q %v %v", owner, vs, err)
	}
	// A name only the later registry has belongs to it.
	if owner, _, err := set.Versions(t.Context(), "", "jvm-gc"); err != nil || owner != "official" {
		t.Errorf("Versions(jvm-gc) = %q, %v, want official", owner, err)
	}
	req, err := set.Requirements(t.Context(), "", "java-performance", "1.0.0")
	if err != nil || fmt.Sprint(req.Dependencies) != "[{java-basics ^1.0.0}]" {
		t.Errorf("Requirements(java-performance) = %+v, %v", req, err)
	}
	if _, _, err := set.Versions(t.Context(), "", "nope-skill"); codeOf(err) != "ASK_SKILL_NOT_FOUND" || !errors.Is(err, ErrNotFound) {
		t.Errorf("Versions(unknown) = %v, want ASK_SKILL_NOT_FOUND", err)
	}
	if _, _, err := set.Versions(t.Context(), "elsewhere", "java-basics"); codeOf(err) != "ASK_REGISTRY_UNKNOWN" {
		t.Errorf("Versions(elsewhere:java-basics) = %v, want ASK_REGISTRY_UNKNOWN", err)
	}
	if len(n.list) != 0 {
		t.Errorf("notices = %q, want none", n.list)
	}
}

func TestSetUnreachable(t *testing.T) {
	official := memRegistry(t, "official", false, pkgSpec{"java-basics", "1.0.0", nil})
	var n notices
	set := NewSet(n.add, downRegistry(t, "company"), official)
	for range 2 {
		_, _, err := set.Owner(t.Context(), "java-basics")
		if codeOf(err) != "ASK_REGISTRY_UNAVAILABLE" || !strings.Contains(err.Error(), `"company" could not be asked`) {
			t.Fatalf("Owner(java-basics) = %v, want ASK_REGISTRY_UNAVAILABLE naming company", err)
		}
		if !slices.ContainsFunc(hints(err), func(h string) bool { return strings.Contains(h, "official:java-basics") }) {
			t.Errorf("Owner hints = %q, want the qualified reference", hints(err))
		}
	}
	if len(n.list) != 1 {
		t.Errorf("notices = %q, want exactly one", n.list)
	}
	if _, _, err := set.Owner(t.Context(), "nope-skill"); codeOf(err) != "ASK_REGISTRY_UNAVAILABLE" {
		t.Errorf("Owner(unknown) with a registry down = %v, want ASK_REGISTRY_UNAVAILABLE", err)
	}
	// Qualified references still work.
	if owner, _, err := set.Versions(t.Context(), "official", "java-basics"); err != nil || owner != "official" {
		t.Errorf("Versions(official:java-basics) = %q, %v", owner, err)
	}
	// A registry that is down but comes later does not matter.
	set2 := NewSet(n.add, official, downRegistry(t, "later"))
	if r, _, err := set2.Owner(t.Context(), "java-basics"); err != nil || r.Name() != "official" {
		t.Errorf("Owner with a later registry down = %v, %v", r, err)
	}
	// Search skips the registry that is down.
	loaded, err := set.Indexes(t.Context(), "")
	if err != nil || len(loaded) != 1 || loaded[0].Registry != "official" {
		t.Errorf("Indexes() = %v, %v", loaded, err)
	}
}

// invalidRegistry is a local registry whose index escapes its folder.
func invalidRegistry(t *testing.T, name string) Registry {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "registry"), 0o755); err != nil {
		t.Fatal(err)
	}
	idx := "schemaVersion: 1\nskills:\n  - name: esc\n    versions:\n      - version: 1.0.0\n        path: ../outside\n" +
		"        integrity: sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n"
	if err := os.WriteFile(filepath.Join(dir, "registry", "skills.yaml"), []byte(idx), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Open(Spec{Name: name, URL: dir, Kind: KindLocal}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestSetInvalidIndex: a bare name answered by precedence reports an
// invalid index as ASK_REGISTRY_INVALID_INDEX, exactly as the qualified
// reference does, never as a registry that could not be asked (B17).
func TestSetInvalidIndex(t *testing.T) {
	official := memRegistry(t, "official", false, pkgSpec{"java-basics", "1.0.0", nil})
	var n notices
	set := NewSet(n.add, invalidRegistry(t, "r"), official)
	for _, name := range []string{"esc", "java-basics", "nope-skill"} {
		if _, _, err := set.Owner(t.Context(), name); codeOf(err) != "ASK_REGISTRY_INVALID_INDEX" {
			t.Errorf("Owner(%s) with an invalid first index = %v (%s), want ASK_REGISTRY_INVALID_INDEX", name, err, codeOf(err))
		}
	}
	if _, _, err := set.Lookup(t.Context(), "r", "esc"); codeOf(err) != "ASK_REGISTRY_INVALID_INDEX" {
		t.Errorf("Lookup(r:esc) = %v, want ASK_REGISTRY_INVALID_INDEX", err)
	}
	// After the registry that owns the name, a broken one does not matter.
	set2 := NewSet(n.add, official, invalidRegistry(t, "later"))
	if r, _, err := set2.Owner(t.Context(), "java-basics"); err != nil || r.Name() != "official" {
		t.Errorf("Owner with a later invalid index = %v, %v, want official", r, err)
	}
}

func TestSetUntrusted(t *testing.T) {
	mirror := memRegistry(t, "mirror", true, pkgSpec{"java-basics", "5.0.0", nil}, pkgSpec{"only-here", "1.0.0", nil})
	official := memRegistry(t, "official", false, pkgSpec{"java-basics", "1.0.0", nil})
	set := NewSet(nil, mirror, official)
	if r, _, err := set.Owner(t.Context(), "java-basics"); err != nil || r.Name() != "official" {
		t.Errorf("Owner(java-basics) = %v, %v, want official over the untrusted mirror", r, err)
	}
	_, _, err := set.Owner(t.Context(), "only-here")
	if codeOf(err) != "ASK_SKILL_NOT_FOUND" || !strings.Contains(strings.Join(hints(err), " "), "mirror:only-here") {
		t.Errorf("Owner(only-here) = %v %q, want ASK_SKILL_NOT_FOUND hinting mirror:only-here", err, hints(err))
	}
	if owner, _, err := set.Versions(t.Context(), "mirror", "only-here"); err != nil || owner != "mirror" {
		t.Errorf("Versions(mirror:only-here) = %q, %v", owner, err)
	}
}
