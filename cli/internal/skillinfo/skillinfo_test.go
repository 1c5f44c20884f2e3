package skillinfo

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/resolve"
	"github.com/agent-skills/agent-skills/skills"
)

// bundled is the set of the bundled collection alone.
func bundled(t *testing.T) *registry.Set {
	t.Helper()
	idx, err := fs.ReadFile(skills.FS, "registry/skills.yaml")
	if err != nil {
		t.Fatal(err)
	}
	reg, err := registry.Open(registry.Spec{Name: "bundled", URL: "bundled:", Kind: registry.KindBundled},
		registry.Options{Bundled: skills.FS, BundledIndex: idx, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return registry.NewSet(nil, reg)
}

func TestLookup(t *testing.T) {
	set := bundled(t)
	info, err := Lookup(t.Context(), set, resolve.Reference{Name: "java-performance"})
	if err != nil {
		t.Fatal(err)
	}
	if info.Registry != "bundled" || info.Owner != "bundled" || info.Version != info.Latest || info.Kind != "skill" ||
		info.Integrity == "" || len(info.Versions) == 0 || info.Description == "" {
		t.Errorf("Lookup(java-performance) = %+v", info)
	}
	found := false
	for _, d := range info.Dependencies {
		found = found || d.Name == "java-basics"
	}
	if !found || info.License == "" {
		t.Errorf("Lookup(java-performance) = dependencies %v, license %q; want java-basics and a licence", info.Dependencies, info.License)
	}
}

func TestLookupVersions(t *testing.T) {
	set := bundled(t)
	tests := []struct {
		rng, code string
	}{
		{"", ""},
		{"latest", ""},
		{">=1.0.0", ""},
		{"99.0.0", registry.CodeVersionNotFound},
		{"^99", registry.CodeVersionNotFound},
	}
	for _, tt := range tests {
		info, err := Lookup(t.Context(), set, resolve.Reference{Name: "java-basics", Range: tt.rng})
		if tt.code != "" {
			var e *askerr.Error
			if !errors.As(err, &e) || e.Code != tt.code || len(e.Detail) == 0 {
				t.Errorf("Lookup(java-basics@%s) = %v, want %s listing the published versions", tt.rng, err, tt.code)
			}
			continue
		}
		if err != nil || info.Version == "" {
			t.Errorf("Lookup(java-basics@%s) = %v, %v", tt.rng, info, err)
		}
	}
	if _, err := Lookup(t.Context(), set, resolve.Reference{Name: "no-such-skill"}); !errors.Is(err, registry.ErrNotFound) {
		t.Errorf("Lookup(no-such-skill) = %v, want registry.ErrNotFound", err)
	}
}

// A misspelt name gets the near names and the info command for the nearest.
func TestLookupDidYouMean(t *testing.T) {
	set := bundled(t)
	_, err := Lookup(t.Context(), set, resolve.Reference{Name: "java-basic"})
	if !errors.Is(err, registry.ErrNotFound) || askerr.CodeOf(err) != registry.CodeSkillNotFound {
		t.Fatalf("Lookup(java-basic) = %v, want %s", err, registry.CodeSkillNotFound)
	}
	if d := askerr.DetailOf(err); len(d) == 0 || d[len(d)-1] != "java-basic: did you mean java-basics (registry bundled)?" {
		t.Errorf("Lookup(java-basic) detail = %q, want the near name last", d)
	}
	if try := askerr.TryOf(err); len(try) < 2 || try[0] != "agent-skills info java-basics" {
		t.Errorf("Lookup(java-basic) try = %q, want the corrected command first", try)
	}
	if _, err := Lookup(t.Context(), set, resolve.Reference{Name: "no-such-skill"}); len(askerr.DetailOf(err)) != 0 {
		t.Errorf("Lookup(no-such-skill) detail = %q, want none: nothing is near", askerr.DetailOf(err))
	}
}
