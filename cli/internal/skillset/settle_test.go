package skillset

import (
	"slices"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/resolve"
)

// Digests of the settle tests: one per version of a package.
const (
	sum1 = "sha256-dRlH3/+LPYFFn06ULXQYDD/9Gu2JHpI3qFM2CJrlu90="
	sum2 = "sha256-uBGJ8cNlVscwMKQIYVLGy0BeP5Q+CvGRVE0CPDFcDL8="
)

// entry is a lock entry from the registry "team".
func entry(version, sum string, agents []string, deps map[string]string) resolve.LockedSkill {
	if deps == nil {
		deps = map[string]string{}
	}
	return resolve.LockedSkill{Version: version, Registry: "team", Resolved: "team:" + version, Integrity: sum,
		Agents: agents, Dependencies: deps}
}

// held is what Scan reports for name at version in the root one agent reads.
func held(name, version, sum, agent string) install.Installed {
	return install.Installed{Name: name, Version: version, Integrity: sum, State: install.StateOK,
		Readers: []string{agent}, Agents: []string{agent}}
}

func lockOf(skills map[string]resolve.LockedSkill) *resolve.Lock {
	return &resolve.Lock{LockfileVersion: 1, Skills: skills}
}

var both = []string{"claude-code", "codex"}

func TestSettle(t *testing.T) {
	e1 := entry("1.0.0", sum1, both, nil)
	e2 := entry("1.1.0", sum2, nil, nil)
	remove := func(before *resolve.LockedSkill) journalSkill {
		js := journalSkill{Change: changeRemove}
		if before != nil {
			js.Before = entryOf(*before)
		}
		return js
	}
	move := func(before *resolve.LockedSkill, after resolve.LockedSkill) journalSkill {
		js := journalSkill{Change: changeInstall, After: entryOf(after)}
		if before != nil {
			js.Before = entryOf(*before)
		}
		return js
	}
	tests := []struct {
		name    string
		lock    *resolve.Lock
		agents  []string
		skills  map[string]journalSkill
		found   []install.Installed
		want    string // the skills block of the settled lock
		partial []string
	}{
		{
			name: "removal done", lock: lockOf(map[string]resolve.LockedSkill{"alpha": e1}),
			skills: map[string]journalSkill{"alpha": remove(&e1)},
			want:   "skills: {}\n",
		},
		{
			name: "removal cut short keeps the agents that still have it", lock: lockOf(map[string]resolve.LockedSkill{"alpha": e1}),
			skills: map[string]journalSkill{"alpha": remove(&e1)}, found: []install.Installed{held("alpha", "1.0.0", sum1, "codex")},
			want: "agents: [codex]", partial: []string{"alpha"},
		},
		{
			name: "removal not started changes nothing", lock: lockOf(map[string]resolve.LockedSkill{"alpha": e1}),
			skills: map[string]journalSkill{"alpha": remove(&e1)},
			found:  []install.Installed{held("alpha", "1.0.0", sum1, "codex"), held("alpha", "1.0.0", sum1, "claude-code")},
			want:   "agents: [claude-code, codex]", partial: []string{"alpha"},
		},
		{
			name: "a folder left with the user's files is removed", lock: lockOf(map[string]resolve.LockedSkill{"alpha": e1}),
			skills: map[string]journalSkill{"alpha": remove(&e1)},
			found:  []install.Installed{{Name: "alpha", State: install.StateUnmanaged, Readers: []string{"codex"}}},
			want:   "skills: {}\n",
		},
		{
			name: "removal for some agents keeps the others", agents: []string{"claude-code"},
			lock:   lockOf(map[string]resolve.LockedSkill{"alpha": e1}),
			skills: map[string]journalSkill{"alpha": remove(&e1)},
			want:   "agents: [codex]",
		},
		{
			name: "an entry changed since is left alone", lock: lockOf(map[string]resolve.LockedSkill{"alpha": entry("3.0.0", sum2, both, nil)}),
			skills: map[string]journalSkill{"alpha": remove(&e1)},
			want:   "version: 3.0.0",
		},
		{
			name: "new skill in place", lock: nil,
			skills: map[string]journalSkill{"alpha": move(nil, e2)}, found: []install.Installed{held("alpha", "1.1.0", sum2, "codex")},
			want: "version: 1.1.0",
		},
		{
			name: "new skill not in place", lock: nil,
			skills: map[string]journalSkill{"alpha": move(nil, e2)},
			want:   "<nil>", partial: []string{"alpha"},
		},
		{
			name: "update done", lock: lockOf(map[string]resolve.LockedSkill{"alpha": e1}),
			skills: map[string]journalSkill{"alpha": move(&e1, e2)},
			found:  []install.Installed{held("alpha", "1.1.0", sum2, "codex"), held("alpha", "1.1.0", sum2, "claude-code")},
			want:   "version: 1.1.0\n    registry: team\n    resolved: team:1.1.0\n    integrity: " + sum2 + "\n    agents: [claude-code, codex]",
		},
		{
			name: "update not started", lock: lockOf(map[string]resolve.LockedSkill{"alpha": e1}),
			skills:  map[string]journalSkill{"alpha": move(&e1, e2)},
			found:   []install.Installed{held("alpha", "1.0.0", sum1, "codex"), held("alpha", "1.0.0", sum1, "claude-code")},
			want:    "version: 1.0.0\n    registry: team\n    resolved: team:1.0.0\n    integrity: " + sum1 + "\n    agents: [claude-code, codex]",
			partial: []string{"alpha"},
		},
		{
			name: "update cut short keeps the old version for the agents that have it", lock: lockOf(map[string]resolve.LockedSkill{"alpha": e1}),
			skills:  map[string]journalSkill{"alpha": move(&e1, e2)},
			found:   []install.Installed{held("alpha", "1.0.0", sum1, "codex"), held("alpha", "1.1.0", sum2, "claude-code")},
			want:    "version: 1.0.0\n    registry: team\n    resolved: team:1.0.0\n    integrity: " + sum1 + "\n    agents: [codex]",
			partial: []string{"alpha"},
		},
		{
			name: "restore on a fresh clone changes nothing", lock: lockOf(map[string]resolve.LockedSkill{"alpha": e1}),
			skills: map[string]journalSkill{"alpha": move(&e1, e1)},
			want:   "agents: [claude-code, codex]", partial: []string{"alpha"},
		},
		{
			name: "restore cut short keeps every agent", lock: lockOf(map[string]resolve.LockedSkill{"alpha": e1}),
			skills: map[string]journalSkill{"alpha": move(&e1, e1)}, found: []install.Installed{held("alpha", "1.0.0", sum1, "claude-code")},
			want: "agents: [claude-code, codex]",
		},
		{
			name: "a dependency that moved alone is recorded at its version",
			lock: lockOf(map[string]resolve.LockedSkill{
				"app": entry("1.0.0", sum1, both, map[string]string{"lib": "1.0.0"}),
				"lib": entry("1.0.0", sum1, both, nil),
			}),
			skills: map[string]journalSkill{
				"app": move(ptr(entry("1.0.0", sum1, both, map[string]string{"lib": "1.0.0"})), entry("1.1.0", sum2, nil, map[string]string{"lib": "1.1.0"})),
				"lib": move(ptr(entry("1.0.0", sum1, both, nil)), e2),
			},
			found: []install.Installed{held("lib", "1.1.0", sum2, "codex"), held("lib", "1.1.0", sum2, "claude-code"),
				held("app", "1.0.0", sum1, "codex"), held("app", "1.0.0", sum1, "claude-code")},
			want: "  app:\n    version: 1.0.0\n    registry: team\n    resolved: team:1.0.0\n    integrity: " + sum1 +
				"\n    agents: [claude-code, codex]\n    dependencies:\n      lib: 1.1.0\n  lib:\n    version: 1.1.0",
			partial: []string{"app"},
		},
		{
			name: "a dependency not yet in place is taken from the journal", lock: nil,
			skills: map[string]journalSkill{
				"app": move(nil, entry("1.1.0", sum2, nil, map[string]string{"lib": "1.1.0"})),
				"lib": move(nil, e2),
			},
			found:   []install.Installed{held("app", "1.1.0", sum2, "codex")},
			want:    "  lib:\n    version: 1.1.0",
			partial: []string{"lib"},
		},
	}
	// disable and enable: the same entry, in the other state.
	off := e1
	off.Disabled = true
	heldOff := func(agent string) install.Installed {
		in := held("alpha", "1.0.0", sum1, agent)
		in.Disabled = true
		return in
	}
	tests = append(tests, []struct {
		name    string
		lock    *resolve.Lock
		agents  []string
		skills  map[string]journalSkill
		found   []install.Installed
		want    string
		partial []string
	}{
		{
			name: "disable done", lock: lockOf(map[string]resolve.LockedSkill{"alpha": e1}),
			skills: map[string]journalSkill{"alpha": move(&e1, off)},
			found:  []install.Installed{heldOff("codex"), heldOff("claude-code")},
			want:   "    agents: [claude-code, codex]\n    disabled: true\n",
		},
		{
			name: "disable cut short records it, to be finished", lock: lockOf(map[string]resolve.LockedSkill{"alpha": e1}),
			skills: map[string]journalSkill{"alpha": move(&e1, off)},
			found:  []install.Installed{heldOff("codex"), held("alpha", "1.0.0", sum1, "claude-code")},
			want:   "    disabled: true\n", partial: []string{"alpha"},
		},
		{
			name: "disable not started keeps it enabled", lock: lockOf(map[string]resolve.LockedSkill{"alpha": e1}),
			skills: map[string]journalSkill{"alpha": move(&e1, off)},
			found:  []install.Installed{held("alpha", "1.0.0", sum1, "codex"), held("alpha", "1.0.0", sum1, "claude-code")},
			want:   "    agents: [claude-code, codex]\n    dependencies: {}\n", partial: []string{"alpha"},
		},
		{
			name: "enable done", lock: lockOf(map[string]resolve.LockedSkill{"alpha": off}),
			skills: map[string]journalSkill{"alpha": move(&off, e1)},
			found:  []install.Installed{held("alpha", "1.0.0", sum1, "codex"), held("alpha", "1.0.0", sum1, "claude-code")},
			want:   "    agents: [claude-code, codex]\n    dependencies: {}\n",
		},
	}...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			agents := tt.agents
			if agents == nil {
				agents = both
			}
			j := &journal{Agents: agents, Skills: tt.skills}
			got := settle(tt.lock, j, tt.found)
			text := "<nil>"
			if got.lock != nil {
				text = string(got.lock.Encode())
				if _, err := resolve.DecodeLock(got.lock.Encode(), "skills.lock"); err != nil {
					t.Fatalf("settle(%s) = a lock that does not read back: %v\n%s", tt.name, err, text)
				}
			}
			if !strings.Contains(text, tt.want) {
				t.Errorf("settle(%s) =\n%s\nwant it to contain\n%s", tt.name, text, tt.want)
			}
			if !slices.Equal(got.partial, tt.partial) {
				t.Errorf("settle(%s).partial = %v, want %v", tt.name, got.partial, tt.partial)
			}
			// Settling again changes nothing: a run killed after writing
			// the lock and before removing the journal is settled twice.
			if got.lock != nil {
				again := settle(got.lock, j, tt.found)
				if again.changed || string(again.lock.Encode()) != text {
					t.Errorf("settle(%s) twice =\n%s\nwant\n%s", tt.name, again.lock.Encode(), text)
				}
			}
			if tt.lock != nil {
				want := string(tt.lock.Encode()) != text
				if got.changed != want {
					t.Errorf("settle(%s).changed = %v, want %v", tt.name, got.changed, want)
				}
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestDependentsFirst(t *testing.T) {
	g := &depGraph{deps: map[string]map[string]string{
		"app": {"lib": "1.0.0", "util": "1.0.0"}, "lib": {"util": "1.0.0"}, "util": {}, "x": {},
	}}
	tests := []struct{ in, want []string }{
		{[]string{"util", "lib", "app"}, []string{"app", "lib", "util"}},
		{[]string{"x", "util", "app"}, []string{"x", "app", "util"}},
		{[]string{"app", "x"}, []string{"app", "x"}},
	}
	for _, tt := range tests {
		if got := g.dependentsFirst(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("dependentsFirst(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestDependenciesFirst(t *testing.T) {
	fs := []fetched{
		{want: want{name: "app", deps: map[string]string{"lib": "1.0.0"}}},
		{want: want{name: "lib", deps: map[string]string{"util": "1.0.0"}}},
		{want: want{name: "other"}},
		{want: want{name: "util"}},
	}
	var got []string
	for _, i := range dependenciesFirst(fs) {
		got = append(got, fs[i].name)
	}
	if want := []string{"util", "lib", "app", "other"}; !slices.Equal(got, want) {
		t.Errorf("dependenciesFirst = %v, want %v", got, want)
	}
}
