package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/config"
	"github.com/agent-skills/agent-skills/registry"
)

// writeRegistry makes a local registry folder whose index lists names
// (the payloads are not needed to decide who owns a name).
func writeRegistry(t *testing.T, dir, name string, skills ...string) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "schemaVersion: 1\nname: %s\nskills:\n", name)
	for _, s := range skills {
		fmt.Fprintf(&b, "  - name: %s\n    description: The %s skill.\n    versions:\n      - version: 1.0.0\n        path: skills/%s\n        integrity: sha256-%s=\n", s, s, s, strings.Repeat("A", 43))
	}
	writeTestFile(t, filepath.Join(dir, "registry", "skills.yaml"), b.String())
}

func writeTestFile(t *testing.T, file, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// owners returns the owner of each name in set, or the error code.
func owners(t *testing.T, set *registry.Set, names ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, n := range names {
		r, _, err := set.Owner(t.Context(), n)
		if err != nil {
			out[n] = askerr.CodeOf(err)
			continue
		}
		out[n] = r.Name()
	}
	return out
}

// TestProjectRegistriesComeAfterTheUsers: the design's precedence with a
// project file (docs/security.md): a project registry owns only the names
// none of the user's registries has — it can neither take over a bundled
// skill's name nor one the user's own registry publishes — and one named
// like a user's registry is the user's, with a notice when they differ.
// A global command never reads the project's file.
func TestProjectRegistriesComeAfterTheUsers(t *testing.T) {
	var notices []string
	m, home, proj := machine(t, map[string]string{"AGENT_SKILLS_OFFLINE": "1"})
	m.Notify = func(s string) { notices = append(notices, s) }
	mine, elsewhere := filepath.Join(home, "mine"), filepath.Join(home, "elsewhere")
	writeRegistry(t, mine, "mine", "shared", "mine-only")
	writeRegistry(t, elsewhere, "elsewhere", "shared", "mine-only")
	writeRegistry(t, filepath.Join(proj, "team-reg"), "team", "java-basics", "shared", "team-only")
	cfg := config.Default()
	cfg.Registries = []config.Registry{cfg.Registries[0], {Name: "mine", URL: mine, Kind: config.KindLocal, Trusted: true}}
	if err := cfg.Save(m.ConfigPath()); err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, config.ProjectPath(proj), `{"registries": [
  {"name": "team", "url": "team-reg"},
  {"name": "mine", "url": "`+filepath.ToSlash(elsewhere)+`", "kind": "local"}
]}`)

	set, _, err := m.ConfiguredFor(proj)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, r := range set.Registries() {
		order = append(order, r.Name())
	}
	if want := []string{"bundled", "mine", "team"}; !slices.Equal(order, want) {
		t.Errorf("ConfiguredFor(project) registries = %v, want %v", order, want)
	}
	got := owners(t, set, "java-basics", "shared", "mine-only", "team-only")
	want := map[string]string{"java-basics": "bundled", "shared": "mine", "mine-only": "mine", "team-only": "team"}
	for n, w := range want {
		if got[n] != w {
			t.Errorf("owner of %s = %s, want %s", n, got[n], w)
		}
	}
	if r, _ := set.Get("mine"); r.Spec().URL != mine {
		t.Errorf("registry mine is %s, want the user's %s", r.Spec().URL, mine)
	}
	if len(notices) != 1 || !strings.Contains(notices[0], "project registry mine") || !strings.Contains(notices[0], "your own registry mine") {
		t.Errorf("notices = %q, want one saying the user's mine shadows the project's", notices)
	}

	set, _, err = m.ConfiguredFor("")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := set.Get("team"); ok {
		t.Errorf("ConfiguredFor(\"\") has the project's team registry")
	}

	list, err := m.RegistryList(cfg, proj)
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := list.Get("team"); !ok || r.From != FromProject || r.File != config.ProjectPath(proj) || r.URL != filepath.Join(proj, "team-reg") {
		t.Errorf("RegistryList team = %+v, want from the project, at its team-reg folder", r)
	}
	if r, _ := list.Get("bundled"); r.From != FromUser {
		t.Errorf("RegistryList bundled from %q, want %q", r.From, FromUser)
	}
	if len(list.Shadowed) != 1 || list.Shadowed[0].By.URL != mine || !list.FromProject() {
		t.Errorf("RegistryList shadowed = %+v", list.Shadowed)
	}
}

// TestProjectRegistriesSameAsTheUsers: a user who adds the project's
// registry under its name (with --first, say: their confirmation that it
// may own names) gets their own order and no notice.
func TestProjectRegistriesSameAsTheUsers(t *testing.T) {
	var notices []string
	m, _, proj := machine(t, map[string]string{"AGENT_SKILLS_OFFLINE": "1"})
	m.Notify = func(s string) { notices = append(notices, s) }
	team := filepath.Join(proj, "team-reg")
	writeRegistry(t, team, "team", "java-basics")
	cfg := config.Default()
	cfg.Registries = append([]config.Registry{{Name: "team", URL: team, Kind: config.KindLocal, Trusted: true}}, cfg.Registries...)
	if err := cfg.Save(m.ConfigPath()); err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, config.ProjectPath(proj), `{"registries": [{"name": "team", "url": "./team-reg"}]}`)
	set, _, err := m.ConfiguredFor(proj)
	if err != nil {
		t.Fatal(err)
	}
	if got := owners(t, set, "java-basics"); got["java-basics"] != "team" {
		t.Errorf("owner of java-basics = %s, want team (first in the user's own list)", got["java-basics"])
	}
	if len(set.Registries()) != 3 || len(notices) != 0 {
		t.Errorf("registries = %d, notices = %q; want 3 and none", len(set.Registries()), notices)
	}
}

// TestHostileProjectRegistries: a project file that asks for credentials,
// plain http to a remote host, a git remote helper or a reserved name is
// refused whole with every problem, and none of it is opened; loopback
// http, as for the user's own registries, is allowed.
func TestHostileProjectRegistries(t *testing.T) {
	m, _, proj := machine(t, nil)
	writeTestFile(t, config.ProjectPath(proj), `{"registries": [
  {"name": "official", "url": "https://elsewhere.example/skills.git"},
  {"name": "leak", "url": "https://bob:s3cret@git.example.com/skills.git"},
  {"name": "plain", "url": "http://skills.example.com/index.json"},
  {"name": "hook", "url": "ext::sh -c touch% /tmp/pwned", "kind": "git"},
  {"name": "dash", "url": "https://git.example.com/r.git", "ref": "--upload-pack=x"},
  {"name": "loop", "url": "http://127.0.0.1:9/index.json"}
]}`)
	_, _, err := m.ConfiguredFor(proj)
	var pe *config.ProjectError
	if !errors.As(err, &pe) {
		t.Fatalf("ConfiguredFor = %v, want a *config.ProjectError", err)
	}
	if askerr.CodeOf(err) != config.CodeProjectRegistriesInvalid {
		t.Errorf("code = %s, want %s", askerr.CodeOf(err), config.CodeProjectRegistriesInvalid)
	}
	lines := map[int]bool{}
	for _, p := range pe.Problems {
		lines[p.Line] = true
		if strings.Contains(p.Message, "s3cret") {
			t.Errorf("a problem shows the password: %s", p.Message)
		}
	}
	for _, l := range []int{2, 3, 4, 5, 6} {
		if !lines[l] {
			t.Errorf("no problem reported on line %d: %+v", l, pe.Problems)
		}
	}
	if lines[7] {
		t.Errorf("the loopback http registry was refused: %+v", pe.Problems)
	}
	// The user's own registries still open for a global command.
	if _, _, err := m.ConfiguredFor(""); err != nil {
		t.Errorf("ConfiguredFor(\"\") = %v, want the user's registries", err)
	}
}

// TestProjectFolderRegistryIndexMustBeAFile: a cloned project cannot make
// a command read its registry's index through a link, or from a pipe that
// never ends; a folder registry inside the project says where payloads
// come from relative to the project, so skills.lock is the same in every
// clone.
func TestProjectFolderRegistryIndexMustBeAFile(t *testing.T) {
	m, home, proj := machine(t, nil)
	outside := filepath.Join(home, "real")
	writeRegistry(t, outside, "real", "linked-skill")
	writeRegistry(t, filepath.Join(proj, "inside"), "inside", "inside-skill")
	if err := os.MkdirAll(filepath.Join(proj, "linked", "registry"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "registry", "skills.yaml"), filepath.Join(proj, "linked", "registry", "skills.yaml")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := os.MkdirAll(filepath.Join(proj, "pipe", "registry"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := mkfifo(filepath.Join(proj, "pipe", "registry", "skills.yaml")); err != nil {
		t.Skip("no named pipes here:", err)
	}
	writeTestFile(t, config.ProjectPath(proj), `{"registries": [
  {"name": "inside", "url": "inside"},
  {"name": "linked", "url": "linked"},
  {"name": "pipe", "url": "pipe"}
]}`)
	cfg := config.Default()
	cfg.Registries = cfg.Registries[:1] // bundled alone: nothing to reach
	if err := cfg.Save(m.ConfigPath()); err != nil {
		t.Fatal(err)
	}
	set, _, err := m.ConfiguredFor(proj)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"linked", "pipe"} {
		reg, _ := set.Get(name)
		done := make(chan error, 1)
		go func() { _, err := reg.Index(t.Context()); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("%s: Index() = %v, want it refused as not a regular file", name, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: Index() is still reading after 10 s", name)
		}
	}
	reg, _ := set.Get("inside")
	if got, err := reg.Resolved(t.Context(), "inside-skill", "1.0.0"); err != nil || got != "./inside:skills/inside-skill" {
		t.Errorf("Resolved(inside-skill) = %q, %v; want ./inside:skills/inside-skill", got, err)
	}
}

// TestUnreachableUserRegistryKeepsItsNames: a user's registry that cannot
// be reached (official, offline and never fetched) does not hand the
// names it may have to a project registry after it: a bare name the
// project's registry has is ASK_REGISTRY_UNAVAILABLE, as for any later
// registry, and the project's registry answers only when named.
func TestUnreachableUserRegistryKeepsItsNames(t *testing.T) {
	m, _, proj := machine(t, map[string]string{"AGENT_SKILLS_OFFLINE": "1"})
	writeRegistry(t, filepath.Join(proj, "team-reg"), "team", "team-only")
	writeTestFile(t, config.ProjectPath(proj), `{"registries": [{"name": "team", "url": "team-reg"}]}`)
	set, _, err := m.ConfiguredFor(proj) // the default configuration: bundled, official
	if err != nil {
		t.Fatal(err)
	}
	got := owners(t, set, "team-only", "java-basics")
	if got["team-only"] != registry.CodeRegistryUnavailable || got["java-basics"] != "bundled" {
		t.Errorf("owners = %v, want team-only %s (official might have it) and java-basics bundled", got, registry.CodeRegistryUnavailable)
	}
	team, ok := set.Get("team")
	if !ok {
		t.Fatal("the project's team registry is not in the set")
	}
	if _, err := team.Resolved(t.Context(), "team-only", "1.0.0"); err != nil {
		t.Errorf("team:team-only = %v, want it served when named", err)
	}
}
