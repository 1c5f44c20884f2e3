package publish

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"

	"github.com/agent-skills/agent-skills/format"
)

func TestPublishNewSkillIntoEmptyRegistry(t *testing.T) {
	root, src := t.TempDir(), t.TempDir()
	pkgDir := writePkg(t, src, pkgSpec{name: "alpha", version: "1.0.0", body: "First."})
	ctx := context.Background()
	now := func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) }
	target := FolderTarget{Root: root}
	plan, err := Prepare(ctx, pkgDir, target, Options{Now: now})
	if err != nil {
		t.Fatalf("Prepare(%q) = %v", pkgDir, err)
	}
	pkg, _ := format.Load(os.DirFS(pkgDir), format.LoadOptions{})
	want, _ := format.Digest(pkg.FS, pkg.Files)
	if plan.Integrity != want {
		t.Errorf("Prepare(%q).Integrity = %q, want %q", pkgDir, plan.Integrity, want)
	}
	if plan.Path != "skills/alpha" {
		t.Errorf("Prepare(%q).Path = %q, want %q", pkgDir, plan.Path, "skills/alpha")
	}
	for _, s := range []string{"name: alpha", "latest: 1.0.0", "path: skills/alpha", "publishedAt: \"2026-11-30T12:00:00Z\"", "integrity: " + want} {
		if !strings.Contains(string(plan.Entry), s) {
			t.Errorf("Prepare(%q).Entry = %s, want it to contain %q", pkgDir, plan.Entry, s)
		}
	}
	if !strings.Contains(string(plan.EntryJSON), `"integrity": "`+want+`"`) {
		t.Errorf("Prepare(%q).EntryJSON = %s, want the integrity", pkgDir, plan.EntryJSON)
	}
	res, err := target.Write(ctx, plan, pkgDir)
	if err != nil {
		t.Fatalf("Write(%q) = %v", pkgDir, err)
	}
	if !res.Copied || res.Path != "skills/alpha" {
		t.Errorf("Write(%q) = %+v, want a copy to skills/alpha", pkgDir, res)
	}
	idx := readIndex(t, root)
	s, ok := idx.Skill("alpha")
	if !ok || s.Latest != "1.0.0" || len(s.Versions) != 1 || s.Versions[0].Path != "skills/alpha" {
		t.Fatalf("index after Write = %+v, want alpha 1.0.0 at skills/alpha", s)
	}
	if _, err := openLocal(t, root).Package(ctx, "alpha", "1.0.0"); err != nil {
		t.Errorf("Package(alpha, 1.0.0) = %v, want a verified package", err)
	}
	if got := entries(t, filepath.Join(root, "skills")); got != "alpha" {
		t.Errorf("skills/ holds %q, want only alpha (no staging left)", got)
	}
}

func TestPublishSecondVersionArchivesTheFirst(t *testing.T) {
	root, src1, src2 := t.TempDir(), t.TempDir(), t.TempDir()
	publishTo(t, root, writePkg(t, src1, pkgSpec{name: "alpha", version: "1.0.0", body: "First."}))
	plan, res := publishTo(t, root, writePkg(t, src2, pkgSpec{name: "alpha", version: "1.1.0", body: "Second.", keywords: "[test, second]"}))
	if !slices.Equal(res.Archived, []string{"alpha@1.0.0"}) || len(res.Dropped) != 0 {
		t.Errorf("Write(alpha 1.1.0) archived %v, dropped %v; want [alpha@1.0.0], none", res.Archived, res.Dropped)
	}
	idx := readIndex(t, root)
	s, _ := idx.Skill("alpha")
	if s.Latest != "1.1.0" || !slices.Equal(s.Keywords, []string{"test", "second"}) {
		t.Errorf("skill after Write = latest %q keywords %v, want 1.1.0 [test second]", s.Latest, s.Keywords)
	}
	old, _ := s.Version("1.0.0")
	if old.Tarball != "archive/alpha-1.0.0.tar.gz" || old.Path != "" {
		t.Errorf("1.0.0 entry = %+v, want tarball archive/alpha-1.0.0.tar.gz", old)
	}
	if s.Versions[0].Version != "1.1.0" {
		t.Errorf("versions[0] = %s, want the new version first", s.Versions[0].Version)
	}
	reg := openLocal(t, root)
	for _, v := range []string{"1.0.0", "1.1.0"} {
		if _, err := reg.Package(context.Background(), "alpha", v); err != nil {
			t.Errorf("Package(alpha, %s) = %v, want a verified package", v, err)
		}
	}
	got, _ := os.ReadFile(filepath.Join(root, "skills", "alpha", "SKILL.md"))
	if !strings.Contains(string(got), "Second.") {
		t.Errorf("skills/alpha/SKILL.md = %q, want the new version's", got)
	}
	if plan.Path != "skills/alpha" {
		t.Errorf("Prepare(alpha 1.1.0).Path = %q, want the existing version's path", plan.Path)
	}
}

func TestPrepareRefuses(t *testing.T) {
	root, base := t.TempDir(), t.TempDir()
	publishTo(t, root, writePkg(t, base, pkgSpec{name: "alpha", version: "1.0.0"}))
	publishTo(t, root, writePkg(t, t.TempDir(), pkgSpec{name: "beta", version: "2.0.0"}))
	tests := []struct {
		desc  string
		spec  pkgSpec
		known []string
		code  string
	}{
		{"version exists", pkgSpec{name: "alpha", version: "1.0.0", body: "changed"}, nil, "ASK_PUBLISH_VERSION_EXISTS"},
		{"same precedence, build metadata", pkgSpec{name: "alpha", version: "1.0.0+b1"}, nil, "ASK_PUBLISH_VERSION_EXISTS"},
		{"older than latest", pkgSpec{name: "alpha", version: "0.9.0"}, nil, "ASK_PUBLISH_VERSION_NOT_NEWER"},
		{"prerelease below a release", pkgSpec{name: "alpha", version: "1.0.0-rc.1"}, nil, "ASK_PUBLISH_VERSION_NOT_NEWER"},
		{"unknown agent", pkgSpec{name: "gamma", version: "1.0.0", extra: "compatibility:\n  agents:\n    - id: claude-code\n    - id: emacs-bot\n"}, []string{"claude-code", "codex"}, "ASK_AGENT_UNKNOWN"},
		{"missing dependency", pkgSpec{name: "gamma", version: "1.0.0", extra: "dependencies:\n  - name: nowhere\n    version: ^1.0.0\n"}, nil, "ASK_SKILL_NOT_FOUND"},
		{"no satisfying version", pkgSpec{name: "gamma", version: "1.0.0", extra: "dependencies:\n  - name: beta\n    version: ^3.0.0\n"}, nil, "ASK_VERSION_NOT_FOUND"},
		{"strict validation", pkgSpec{name: "gamma", version: "1.0.0", extra: "colour: blue\n"}, nil, "ASK_VALIDATION_FAILED"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			dir := writePkg(t, t.TempDir(), tt.spec)
			_, err := Prepare(context.Background(), dir, FolderTarget{Root: root}, Options{KnownAgents: tt.known})
			if got := codeOf(err); got != tt.code {
				t.Fatalf("Prepare(%s) = %v (code %q), want code %s", tt.desc, err, got, tt.code)
			}
			if tt.code == "ASK_VALIDATION_FAILED" {
				e := err.(*Error)
				if len(e.Diagnostics) == 0 || e.Diagnostics[0].Code != "ASK_MANIFEST_UNKNOWN_KEY" {
					t.Errorf("Prepare(%s).Diagnostics = %v, want ASK_MANIFEST_UNKNOWN_KEY", tt.desc, e.Diagnostics)
				}
			}
			if len(codeHints(err)) == 0 {
				t.Errorf("Prepare(%s) error has no hint", tt.desc)
			}
		})
	}
}

// codeHints returns the next actions of err, if any.
func codeHints(err error) []string { return askerr.TryOf(err) }

func TestPrepareAccepts(t *testing.T) {
	root := t.TempDir()
	publishTo(t, root, writePkg(t, t.TempDir(), pkgSpec{name: "alpha", version: "1.0.0"}))
	publishTo(t, root, writePkg(t, t.TempDir(), pkgSpec{name: "beta", version: "2.1.0", extra: "dependencies:\n  - name: alpha\n    version: ^1.0.0\n"}))
	tests := []struct {
		desc     string
		spec     pkgSpec
		deps     map[string]string
		warnings int
		latest   string
	}{
		{"prerelease above every version", pkgSpec{name: "alpha", version: "2.0.0-rc.1"}, nil, 0, "1.0.0"},
		{"transitive dependency", pkgSpec{name: "gamma", version: "1.0.0", extra: "dependencies:\n  - name: beta\n    version: ^2.0.0\n"}, map[string]string{"alpha": "1.0.0", "beta": "2.1.0"}, 0, "1.0.0"},
		{"missing optional dependency", pkgSpec{name: "gamma", version: "1.0.0", extra: "optionalDependencies:\n  - name: nowhere\n    version: ^1.0.0\n"}, nil, 1, "1.0.0"},
		{"known agent", pkgSpec{name: "gamma", version: "1.0.0", extra: "compatibility:\n  agents:\n    - id: codex\n"}, nil, 0, "1.0.0"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			dir := writePkg(t, t.TempDir(), tt.spec)
			plan, err := Prepare(context.Background(), dir, FolderTarget{Root: root}, Options{KnownAgents: []string{"claude-code", "codex"}})
			if err != nil {
				t.Fatalf("Prepare(%s) = %v, want success", tt.desc, err)
			}
			if len(plan.Dependencies) != len(tt.deps) {
				t.Errorf("Prepare(%s).Dependencies = %v, want %v", tt.desc, plan.Dependencies, tt.deps)
			}
			for k, v := range tt.deps {
				if plan.Dependencies[k] != v {
					t.Errorf("Prepare(%s).Dependencies[%s] = %q, want %q", tt.desc, k, plan.Dependencies[k], v)
				}
			}
			if len(plan.Warnings) != tt.warnings {
				t.Errorf("Prepare(%s).Warnings = %v, want %d", tt.desc, plan.Warnings, tt.warnings)
			}
			if plan.Skill.Latest != tt.latest {
				t.Errorf("Prepare(%s).Skill.Latest = %q, want %q", tt.desc, plan.Skill.Latest, tt.latest)
			}
		})
	}
}

func TestPublishPrereleaseKeepsLatest(t *testing.T) {
	root := t.TempDir()
	publishTo(t, root, writePkg(t, t.TempDir(), pkgSpec{name: "alpha", version: "1.0.0"}))
	_, res := publishTo(t, root, writePkg(t, t.TempDir(), pkgSpec{name: "alpha", version: "2.0.0-rc.1", body: "rc"}))
	s, _ := readIndex(t, root).Skill("alpha")
	if s.Latest != "1.0.0" || len(s.Versions) != 2 {
		t.Errorf("after publishing 2.0.0-rc.1: latest %q, %d versions; want 1.0.0, 2 (result %+v)", s.Latest, len(s.Versions), res)
	}
}

func TestWriteRefusesChangedPackage(t *testing.T) {
	root := t.TempDir()
	dir := writePkg(t, t.TempDir(), pkgSpec{name: "alpha", version: "1.0.0"})
	target := FolderTarget{Root: root}
	plan, err := Prepare(context.Background(), dir, target, Options{})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "SKILL.md"), "---\nname: alpha\ndescription: edited after prepare\n---\n")
	_, err = target.Write(context.Background(), plan, dir)
	if got := codeOf(err); got != "ASK_INTEGRITY_MISMATCH" {
		t.Fatalf("Write(changed package) = %v, want ASK_INTEGRITY_MISMATCH", err)
	}
	if _, err := os.Stat(filepath.Join(root, "skills", "alpha")); err == nil {
		t.Errorf("Write(changed package) left skills/alpha behind")
	}
	if _, err := os.Stat(filepath.Join(root, "registry", "skills.yaml")); err == nil {
		t.Errorf("Write(changed package) wrote the index")
	}
}

func TestLocatePathConflict(t *testing.T) {
	root := t.TempDir()
	publishTo(t, root, writePkg(t, t.TempDir(), pkgSpec{name: "alpha", version: "1.0.0"}))
	idx := readIndex(t, root)
	// Point beta's would-be folder at alpha's by renaming alpha's path.
	s, _ := idx.Skill("alpha")
	s.Versions[0].Path = "skills/beta"
	_, err := FolderTarget{Root: root}.Locate(idx, "beta", t.TempDir())
	if got := codeOf(err); got != "ASK_PUBLISH_PATH_CONFLICT" {
		t.Fatalf("Locate(beta) = %v, want ASK_PUBLISH_PATH_CONFLICT", err)
	}
}

func TestWriteStampsUpdatedAt(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "registry", "skills.yaml"), "# mine\nschemaVersion: 1\nupdatedAt: 2020-01-01T00:00:00Z\nskills: []\n")
	dir := writePkg(t, t.TempDir(), pkgSpec{name: "alpha", version: "1.0.0"})
	target := FolderTarget{Root: root}
	now := func() time.Time { return time.Date(2026, 11, 30, 8, 0, 0, 0, time.FixedZone("X", 3600)) }
	plan, err := Prepare(context.Background(), dir, target, Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := target.Write(context.Background(), plan, dir); err != nil {
		t.Fatal(err)
	}
	idx := readIndex(t, root)
	if idx.UpdatedAt != "2026-11-30T07:00:00Z" {
		t.Errorf("updatedAt after Write = %q, want 2026-11-30T07:00:00Z", idx.UpdatedAt)
	}
	if v := plan.NewVersion(); v.PublishedAt != "2026-11-30T07:00:00Z" {
		t.Errorf("Prepare.NewVersion().PublishedAt = %q, want UTC 2026-11-30T07:00:00Z", v.PublishedAt)
	}
	data, _ := os.ReadFile(filepath.Join(root, "registry", "skills.yaml"))
	if !strings.HasPrefix(string(data), "# mine\n") {
		t.Errorf("index lost its comment:\n%s", data)
	}
}

func TestPrepareResolvesThroughArchivedVersions(t *testing.T) {
	root := t.TempDir()
	publishTo(t, root, writePkg(t, t.TempDir(), pkgSpec{name: "alpha", version: "1.0.0"}))
	publishTo(t, root, writePkg(t, t.TempDir(), pkgSpec{name: "beta", version: "1.0.0", extra: "dependencies:\n  - name: alpha\n    version: 1.0.0\n"}))
	// alpha 1.0.0 now lives only in archive/alpha-1.0.0.tar.gz.
	publishTo(t, root, writePkg(t, t.TempDir(), pkgSpec{name: "alpha", version: "1.1.0", body: "new"}))
	publishTo(t, root, writePkg(t, t.TempDir(), pkgSpec{name: "alpha", version: "1.2.0", body: "newer"}))
	dir := writePkg(t, t.TempDir(), pkgSpec{name: "gamma", version: "1.0.0", extra: "dependencies:\n  - name: beta\n    version: ^1.0.0\n  - name: alpha\n    version: ~1.0.0 || ^1.1.0\n"})
	plan, err := Prepare(context.Background(), dir, FolderTarget{Root: root}, Options{})
	if err != nil {
		t.Fatalf("Prepare(gamma) = %v", err)
	}
	if plan.Dependencies["alpha"] != "1.0.0" || plan.Dependencies["beta"] != "1.0.0" {
		t.Errorf("Prepare(gamma).Dependencies = %v, want alpha 1.0.0 (from its tarball) and beta 1.0.0", plan.Dependencies)
	}
	s, _ := readIndex(t, root).Skill("alpha")
	if v, _ := s.Version("1.0.0"); v.Tarball == "" {
		t.Fatalf("alpha 1.0.0 = %+v, want it archived", v)
	}
	if v, _ := s.Version("1.1.0"); v.Tarball == "" {
		t.Errorf("alpha 1.1.0 = %+v, want it archived", v)
	}
}
