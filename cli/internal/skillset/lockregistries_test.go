package skillset

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/config"
	"github.com/agent-skills/agent-skills/cli/internal/workspace"
	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/resolve"
)

// TestLockRegistryMismatch: a lock can never point a registry's name at
// another place than the configuration, or agent-skills for bundled and
// official, has it; the refusal names both places and the skills locked
// there. The same place reached another way (ssh or https, a trailing
// slash, a link) is no mismatch.
func TestLockRegistryMismatch(t *testing.T) {
	dir := t.TempDir()
	cfg := config.Default()
	cfg.Registries = append(cfg.Registries,
		config.Registry{Name: "team", URL: "https://git.example.com/team/skills.git", Kind: config.KindGit, Ref: "main", Trusted: true},
		config.Registry{Name: "web", URL: "https://skills.example.com/index.json", Kind: config.KindHTTP, Trusted: true},
		config.Registry{Name: "here", URL: dir, Kind: config.KindLocal, Trusted: true})
	for _, tc := range []struct {
		name   string
		rec    resolve.LockedRegistry
		reg    string
		inMsg  []string
		inRest []string
	}{
		{"bundled elsewhere", resolve.LockedRegistry{Kind: "local", URL: filepath.Join(dir, "evil")}, "bundled",
			[]string{`registry "bundled" at ` + filepath.Join(dir, "evil"), "agent-skills' own collection (bundled:)"},
			[]string{"from-bundled 1.0.0", "not one agent-skills wrote"}},
		{"bundled as git", resolve.LockedRegistry{Kind: "git", URL: "https://evil.example/skills.git"}, "bundled",
			[]string{"https://evil.example/skills.git"}, nil},
		{"official elsewhere", resolve.LockedRegistry{Kind: "git", URL: "https://evil.example/skills.git"}, "official",
			[]string{`registry "official" at https://evil.example/skills.git`, config.OfficialURL}, nil},
		{"official at another ref", resolve.LockedRegistry{Kind: "git", URL: config.OfficialURL, Ref: "evil"}, "official",
			[]string{config.OfficialURL}, []string{"(ref evil)"}},
		{"configured git elsewhere", resolve.LockedRegistry{Kind: "git", URL: "https://evil.example/team/skills.git", Ref: "main"}, "team",
			[]string{"https://evil.example/team/skills.git", "https://git.example.com/team/skills.git"},
			[]string{"this machine's configuration git https://git.example.com/team/skills.git (ref main)", "registry add team https://evil.example/team/skills.git --ref main"}},
		{"configured git, other ref", resolve.LockedRegistry{Kind: "git", URL: "https://git.example.com/team/skills.git", Ref: "evil"}, "team",
			nil, []string{"(ref evil)", "(ref main)"}},
		{"configured http elsewhere", resolve.LockedRegistry{Kind: "http", URL: "https://evil.example/index.json"}, "web",
			[]string{"https://evil.example/index.json", "https://skills.example.com/index.json"}, nil},
		{"configured kind differs", resolve.LockedRegistry{Kind: "local", URL: filepath.Join(dir, "x")}, "web", nil, nil},
		{"configured folder elsewhere", resolve.LockedRegistry{Kind: "local", URL: filepath.Join(dir, "other")}, "here", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			extra, err := lockOnlyRegistries(lockWith(map[string]resolve.LockedRegistry{tc.reg: tc.rec}), userList(cfg))
			if codeOf(err) != CodeLockRegistryMismatch || extra != nil {
				t.Fatalf("got %v, %v; want %s", extra, err, CodeLockRegistryMismatch)
			}
			e := err.(*askerr.Error)
			rest := strings.Join(append(e.Detail, e.Try...), "\n")
			for _, s := range tc.inMsg {
				if !strings.Contains(e.Message, s) {
					t.Errorf("message %q lacks %q", e.Message, s)
				}
			}
			for _, s := range append(tc.inRest, "from-"+tc.reg+" 1.0.0", "Nothing was changed.") {
				if !strings.Contains(rest, s) {
					t.Errorf("detail/try %q lacks %q", rest, s)
				}
			}
		})
	}

	// Two at once: one error naming both.
	_, err := lockOnlyRegistries(lockWith(map[string]resolve.LockedRegistry{
		"official": {Kind: "git", URL: "https://evil.example/a.git"},
		"team":     {Kind: "git", URL: "https://evil.example/b.git"},
	}), userList(cfg))
	if codeOf(err) != CodeLockRegistryMismatch || !strings.Contains(err.Error(), `2 registries elsewhere than agent-skills has them: "official", "team"`) {
		t.Fatalf("two mismatches: %v", err)
	}

	// The same places, written as agent-skills itself or another
	// transport writes them: accepted, and nothing to add.
	same := lockWith(map[string]resolve.LockedRegistry{
		"bundled":  {Kind: "bundled", URL: config.BundledURL},
		"official": {Kind: "git", URL: config.OfficialURL},
		"team":     {Kind: "git", URL: "git@git.example.com:team/skills.git", Ref: "main"},
		"web":      {Kind: "http", URL: "https://SKILLS.example.com/index.json/"},
		"here":     {Kind: "local", URL: "file://" + dir + "/"},
	})
	if extra, err := lockOnlyRegistries(same, userList(cfg)); err != nil || len(extra) != 0 {
		t.Fatalf("the same places: %v, %v", extra, err)
	}
}

// TestLockOnlyRegistries: a registry only the lock names is added after
// the configured ones, untrusted (it never owns a name by precedence); a
// name no registry can have, or a place that is not one, is refused as an
// invalid lock.
func TestLockOnlyRegistries(t *testing.T) {
	dir := t.TempDir()
	cfg := config.Default()
	l := &resolve.Lock{LockfileVersion: 2, Registries: map[string]resolve.LockedRegistry{
		"team": {Kind: "git", URL: "file://" + dir + "/team", Ref: "main"},
		"web":  {Kind: "http", URL: "http://127.0.0.1:8080/index.json"},
		"here": {Kind: "local", URL: dir},
	}}
	extra, err := lockOnlyRegistries(l, userList(cfg))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range extra {
		names = append(names, r.Name)
		if r.Trusted {
			t.Errorf("%s is trusted; a registry only the lock names never is", r.Name)
		}
	}
	if !slices.Equal(names, []string{"here", "team", "web"}) {
		t.Fatalf("extra = %v", names)
	}
	if extra[1].Ref != "main" || extra[1].URL != "file://"+dir+"/team" {
		t.Errorf("team = %+v", extra[1])
	}

	for name, rec := range map[string]resolve.LockedRegistry{
		"github":  {Kind: "git", URL: "https://evil.example/x.git"},
		"gitlab":  {Kind: "http", URL: "https://evil.example/index.json"},
		"rel":     {Kind: "local", URL: "reg"},
		"relgit":  {Kind: "git", URL: "reg.git"},
		"web2":    {Kind: "http", URL: "ftp://evil.example/index.json"},
		"bundle2": {Kind: "bundled", URL: "/etc"},
	} {
		l := &resolve.Lock{LockfileVersion: 2, Registries: map[string]resolve.LockedRegistry{name: rec}}
		if _, err := lockOnlyRegistries(l, userList(cfg)); codeOf(err) != resolve.CodeLockInvalid || !strings.Contains(strings.Join(err.(*askerr.Error).Detail, "\n"), "registries."+name+": ") {
			t.Errorf("%s %+v: %v, want %s", name, rec, err, resolve.CodeLockInvalid)
		}
	}
}

// TestLockedRegistryHasNoCredentials: what a registry's configuration
// puts in skills.lock never carries a password, nor user information
// over http(s) (often a token); ssh keeps its user, which is no secret.
func TestLockedRegistryHasNoCredentials(t *testing.T) {
	for _, tc := range []struct {
		spec registry.Spec
		want resolve.LockedRegistry
	}{
		{registry.Spec{Kind: "git", URL: "https://alice:s3cret@git.example.com/team/skills.git", Ref: "main"},
			resolve.LockedRegistry{Kind: "git", URL: "https://git.example.com/team/skills.git", Ref: "main"}},
		{registry.Spec{Kind: "git", URL: "https://ghp_token@github.com/team/skills.git#v1"},
			resolve.LockedRegistry{Kind: "git", URL: "https://github.com/team/skills.git", Ref: "v1"}},
		{registry.Spec{Kind: "http", URL: "https://tok:x-oauth@skills.example.com/index.json", Ref: "ignored"},
			resolve.LockedRegistry{Kind: "http", URL: "https://skills.example.com/index.json"}},
		{registry.Spec{Kind: "git", URL: "ssh://git:pw@git.example.com/team/skills.git"},
			resolve.LockedRegistry{Kind: "git", URL: "ssh://git@git.example.com/team/skills.git"}},
		{registry.Spec{Kind: "git", URL: "git@git.example.com:team/skills.git"},
			resolve.LockedRegistry{Kind: "git", URL: "git@git.example.com:team/skills.git"}},
	} {
		got := lockedRegistry(tc.spec)
		if got != tc.want {
			t.Errorf("lockedRegistry(%s) = %+v, want %+v", tc.spec.URL, got, tc.want)
		}
		// What is recorded reads back: the codec refuses credentials.
		l := &resolve.Lock{LockfileVersion: resolve.LockfileVersion, Registries: map[string]resolve.LockedRegistry{"r": got}, Skills: map[string]resolve.LockedSkill{}}
		if _, err := resolve.DecodeLock(l.Encode(), "skills.lock"); err != nil {
			t.Errorf("%s: recorded %+v does not read back: %v", tc.spec.URL, got, err)
		}
	}
}

// lockWith is a lock recording regs, with one skill locked to each.
func lockWith(regs map[string]resolve.LockedRegistry) *resolve.Lock {
	l := &resolve.Lock{LockfileVersion: resolve.LockfileVersion, Registries: regs, Skills: map[string]resolve.LockedSkill{}}
	for name := range regs {
		l.Skills["from-"+name] = resolve.LockedSkill{Version: "1.0.0", Registry: name}
	}
	return l
}

// userList is the registry list of a machine whose configuration is cfg
// and whose project has no registries file.
func userList(cfg *config.Config) *workspace.RegistryList {
	l := &workspace.RegistryList{}
	for _, r := range cfg.Registries {
		l.Registries = append(l.Registries, workspace.ListedRegistry{Registry: r, From: workspace.FromUser})
	}
	return l
}

// TestLockRegistryMismatchProjectFile: a registry the project's
// skills-registries.json names is configured too — a lock that records
// the same name elsewhere is refused, and one that agrees adds nothing.
func TestLockRegistryMismatchProjectFile(t *testing.T) {
	list := userList(config.Default())
	list.Registries = append(list.Registries, workspace.ListedRegistry{From: workspace.FromProject,
		Registry: config.Registry{Name: "team", URL: "https://git.example.com/team/skills.git", Kind: config.KindGit, Ref: "main"}})
	elsewhere := lockWith(map[string]resolve.LockedRegistry{"team": {Kind: "git", URL: "https://evil.example/team/skills.git", Ref: "main"}})
	if extra, err := lockOnlyRegistries(elsewhere, list); codeOf(err) != CodeLockRegistryMismatch || extra != nil {
		t.Fatalf("lock elsewhere than the project file: got %v, %v; want %s", extra, err, CodeLockRegistryMismatch)
	}
	same := lockWith(map[string]resolve.LockedRegistry{"team": {Kind: "git", URL: "https://git.example.com/team/skills.git", Ref: "main"}})
	if extra, err := lockOnlyRegistries(same, list); err != nil || len(extra) != 0 {
		t.Fatalf("lock agreeing with the project file: got %v, %v; want nothing to add", extra, err)
	}
}
