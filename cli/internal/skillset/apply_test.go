package skillset

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/cli/internal/workspace"
	"github.com/agent-skills/agent-skills/resolve"
)

func TestDependenciesFirstOrders(t *testing.T) {
	f := func(name string, deps ...string) fetched {
		d := map[string]string{}
		for _, n := range deps {
			d[n] = "1.0.0"
		}
		return fetched{want: want{name: name, deps: d}}
	}
	tests := []struct {
		name string
		fs   []fetched
		want []string
	}{
		{"none", nil, nil},
		{"independent keep their order", []fetched{f("b"), f("a"), f("c")}, []string{"b", "a", "c"}},
		{"a chain", []fetched{f("app", "lib"), f("lib", "util"), f("util")}, []string{"util", "lib", "app"}},
		{"a diamond", []fetched{f("app", "left", "right"), f("left", "base"), f("right", "base"), f("base")}, []string{"base", "left", "right", "app"}},
		{"dependencies not fetched are ignored", []fetched{f("app", "installed"), f("lib")}, []string{"app", "lib"}},
	}
	for _, tt := range tests {
		var got []string
		for _, i := range dependenciesFirst(tt.fs) {
			got = append(got, tt.fs[i].name)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("dependenciesFirst(%s) = %q, want %q", tt.name, got, tt.want)
		}
	}
	// A cycle, which resolution refuses anyway, still places each once.
	if got := dependenciesFirst([]fetched{f("a", "b"), f("b", "a")}); len(got) != 2 || got[0] == got[1] {
		t.Errorf("dependenciesFirst(a cycle) = %v, want each package once", got)
	}
}

func TestSortResults(t *testing.T) {
	fs := []fetched{{want: want{name: "app"}}, {want: want{name: "lib"}}, {want: want{name: "util"}}}
	r := func(name, root string) install.Result { return install.Result{Name: name, Root: root} }
	// Installed dependencies first, each in two roots.
	rep := &install.Report{Results: []install.Result{
		r("util", "/a"), r("util", "/c"), r("lib", "/a"), r("lib", "/c"), r("app", "/a"), r("app", "/c"),
	}}
	sortResults(rep, fs)
	var got []string
	for _, x := range rep.Results {
		got = append(got, x.Name+x.Root)
	}
	// Back in the order of fs, each package's roots in the order installed.
	want := []string{"app/a", "app/c", "lib/a", "lib/c", "util/a", "util/c"}
	if !slices.Equal(got, want) {
		t.Errorf("sortResults = %q, want %q", got, want)
	}
}

// journalOp is an install in project /p for both agents, with lock l.
func journalOp(t *testing.T, kind agents.Scope, l *resolve.Lock) *op {
	t.Helper()
	as, err := agents.Default().Select(both)
	if err != nil {
		t.Fatal(err)
	}
	root := "/p"
	if kind == agents.ScopeGlobal {
		root = ""
	}
	s := &Session{Scope: workspace.Scope{Kind: kind, Root: root}, Agents: as}
	return &op{Session: s, lock: l, command: "install", requested: []string{"app"}, flags: []string{"--force"}}
}

// fetchedAt is a registry package of team fetched at version with digest sum.
func fetchedAt(name, version, sum string, deps map[string]string) fetched {
	if deps == nil {
		deps = map[string]string{}
	}
	return fetched{want: want{name: name, version: version, registry: "team", deps: deps},
		item: install.Item{Registry: "team", Resolved: "team:" + version, Integrity: sum}}
}

func TestInstallJournal(t *testing.T) {
	claude := []string{"claude-code"}
	lock := lockOf(map[string]resolve.LockedSkill{
		"app":   entry("1.0.0", sum1, claude, map[string]string{"lib": "1.0.0"}),
		"lib":   entry("1.0.0", sum1, claude, nil),
		"other": entry("1.0.0", sum1, claude, map[string]string{"lib": "1.0.0"}),
		"still": entry("2.0.0", sum1, claude, nil),
	})
	sel := func(name, version string, deps map[string]string) resolve.Selection {
		return resolve.Selection{Name: name, Version: version, Registry: "team", Dependencies: deps}
	}
	tests := []struct {
		name   string
		lock   *resolve.Lock
		fs     []fetched
		plan   *resolve.Plan
		before map[string]string // name → "version[agents]" of the entry before; absent: none
		after  map[string]string // name → "version[agents] deps"
	}{
		{
			name: "a new skill", lock: nil,
			fs:     []fetched{fetchedAt("app", "1.0.0", sum1, map[string]string{"lib": "1.0.0"})},
			before: map[string]string{},
			after:  map[string]string{"app": "1.0.0[] map[lib:1.0.0]"},
		},
		{
			name: "the same bytes installed earlier for other agents keep them", lock: lock,
			fs:     []fetched{fetchedAt("app", "1.0.0", sum1, map[string]string{"lib": "1.0.0"})},
			before: map[string]string{"app": "1.0.0[claude-code]"},
			after:  map[string]string{"app": "1.0.0[claude-code] map[lib:1.0.0]"},
		},
		{
			name: "the same version with other bytes starts afresh", lock: lock,
			fs:     []fetched{fetchedAt("app", "1.0.0", sum2, map[string]string{"lib": "1.0.0"})},
			before: map[string]string{"app": "1.0.0[claude-code]"},
			after:  map[string]string{"app": "1.0.0[] map[lib:1.0.0]"},
		},
		{
			name: "a new version starts afresh", lock: lock,
			fs:     []fetched{fetchedAt("lib", "1.1.0", sum2, nil)},
			before: map[string]string{"lib": "1.0.0[claude-code]"},
			after:  map[string]string{"lib": "1.1.0[] map[]"},
		},
		{
			name: "a skill that stays put gets its new dependency versions", lock: lock,
			fs: []fetched{fetchedAt("lib", "1.1.0", sum2, nil)},
			plan: &resolve.Plan{Skills: []resolve.Selection{
				sel("app", "1.0.0", map[string]string{"lib": "1.1.0"}),
				sel("lib", "1.1.0", nil),
				sel("other", "1.0.0", map[string]string{"lib": "1.1.0"}),
				sel("still", "2.0.0", nil),
			}},
			before: map[string]string{"app": "1.0.0[claude-code]", "lib": "1.0.0[claude-code]", "other": "1.0.0[claude-code]"},
			after: map[string]string{"app": "1.0.0[claude-code] map[lib:1.1.0]", "lib": "1.1.0[] map[]",
				"other": "1.0.0[claude-code] map[lib:1.1.0]"},
		},
		{
			name: "a planned skill that moves or is new is not journalled without its package", lock: lock,
			plan:   &resolve.Plan{Skills: []resolve.Selection{sel("still", "2.1.0", nil), sel("new", "1.0.0", nil)}},
			before: map[string]string{},
			after:  map[string]string{},
		},
	}
	for _, tt := range tests {
		p := journalOp(t, agents.ScopeProject, tt.lock)
		j := p.installJournal(tt.fs, tt.plan)
		if j.Command != "install" || !slices.Equal(j.Requested, []string{"app"}) || !slices.Equal(j.Flags, []string{"--force"}) ||
			j.Project != "/p" || !slices.Equal(j.Agents, both) || j.SchemaVersion != journalSchema {
			t.Errorf("installJournal(%s) = %+v, want the command, names, flags, project and agents of the op", tt.name, j)
		}
		gotBefore, gotAfter := map[string]string{}, map[string]string{}
		for n, js := range j.Skills {
			if js.Change != changeInstall {
				t.Errorf("installJournal(%s): %s change %q, want %q", tt.name, n, js.Change, changeInstall)
			}
			if js.Before != nil {
				gotBefore[n] = js.Before.Version + "[" + strings.Join(js.Before.Agents, " ") + "]"
			}
			gotAfter[n] = js.After.Version + "[" + strings.Join(js.After.Agents, " ") + "] " + fmtDeps(js.After.Dependencies)
		}
		if !maps.Equal(gotBefore, tt.before) {
			t.Errorf("installJournal(%s) before = %v, want %v", tt.name, gotBefore, tt.before)
		}
		if !maps.Equal(gotAfter, tt.after) {
			t.Errorf("installJournal(%s) after = %v, want %v", tt.name, gotAfter, tt.after)
		}
	}
	if j := journalOp(t, agents.ScopeGlobal, lock).installJournal([]fetched{fetchedAt("app", "1.0.0", sum1, nil)}, nil); j != nil {
		t.Errorf("installJournal(global) = %+v, want nil", j)
	}
}

func TestInstallJournalRecordsSources(t *testing.T) {
	f := fetched{want: want{name: "src", version: "0.1.0", source: "github:acme/skills", ref: "v0.1.0", commit: "c1", subpath: "skills/src", deps: map[string]string{}},
		item: install.Item{Resolved: "https://github.com/acme/skills.git#c1:skills/src", Integrity: sum1}}
	j := journalOp(t, agents.ScopeProject, nil).installJournal([]fetched{f}, nil)
	got := j.Skills["src"].After.locked()
	want := resolve.LockedSkill{Version: "0.1.0", Source: "github:acme/skills", Ref: "v0.1.0", Commit: "c1", Subpath: "skills/src",
		Resolved: "https://github.com/acme/skills.git#c1:skills/src", Integrity: sum1, Dependencies: map[string]string{}}
	if string(lockOf(map[string]resolve.LockedSkill{"src": got}).Encode()) != string(lockOf(map[string]resolve.LockedSkill{"src": want}).Encode()) {
		t.Errorf("installJournal(source).After = %+v, want %+v", got, want)
	}
}

func TestRemovalJournal(t *testing.T) {
	lock := lockOf(map[string]resolve.LockedSkill{"app": entry("1.0.0", sum1, both, nil)})
	for _, l := range []*resolve.Lock{lock, nil} {
		p := journalOp(t, agents.ScopeProject, l)
		p.command = "uninstall"
		j := p.removalJournal([]string{"app", "gone"})
		if got := j.names(changeRemove); !slices.Equal(got, []string{"app", "gone"}) {
			t.Errorf("removalJournal(app gone).names = %q, want both removed", got)
		}
		if b := j.Skills["app"].Before; (b != nil) != (l != nil) || b != nil && b.Version != "1.0.0" {
			t.Errorf("removalJournal: app before = %+v, want the lock's entry when there is a lock", b)
		}
		if j.Skills["gone"].Before != nil || j.Skills["app"].After != nil {
			t.Errorf("removalJournal: gone before = %+v, app after = %+v; want neither", j.Skills["gone"].Before, j.Skills["app"].After)
		}
		if j.check("/p", agents.Default()) != "" {
			t.Errorf("removalJournal(app gone).check = %q, want a usable journal", j.check("/p", agents.Default()))
		}
	}
	if j := journalOp(t, agents.ScopeGlobal, lock).removalJournal([]string{"app"}); j != nil {
		t.Errorf("removalJournal(global) = %+v, want nil", j)
	}
}

// fmtDeps renders dependencies as "map[a:1.0.0 b:2.0.0]".
func fmtDeps(d map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(d)) {
		parts = append(parts, k+":"+d[k])
	}
	return "map[" + strings.Join(parts, " ") + "]"
}

// The journal of an install gives the packages without dependencies one
// empty map between them, encoded {} as each one's own was, and gives
// each package with some a copy of its own.
func TestInstallJournalSharesNoDependencies(t *testing.T) {
	p := journalOp(t, agents.ScopeProject, nil)
	var fs []fetched
	for i := range 200 {
		fs = append(fs, fetchedAt(fmt.Sprintf("s-%03d", i), "1.0.0", sum1, nil))
	}
	deps := map[string]string{"s-000": "1.0.0"}
	fs = append(fs, fetchedAt("app", "1.0.0", sum1, deps))
	allocs := testing.AllocsPerRun(5, func() { p.installJournal(fs, nil) })
	j := p.installJournal(fs, nil)
	// One lock entry per package, and the journal's map.
	if limit := float64(len(fs)) * 1.5; allocs > limit {
		t.Errorf("the journal of %d packages took %.0f allocations, want at most %.0f", len(fs), allocs, limit)
	}
	app := j.Skills["app"].After.Dependencies
	if !maps.Equal(app, deps) {
		t.Errorf("app's journalled dependencies = %v, want %v", app, deps)
	}
	deps["s-001"] = "1.0.0"
	if len(app) != 1 {
		t.Errorf("app's journalled dependencies follow its fetched map: %v", app)
	}
	var b bytes.Buffer
	if err := encodeJournal(&b, j); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(b.String(), `"dependencies": {}`); got != 200 {
		t.Errorf("the journal records %d packages without dependencies as {}, want 200", got)
	}
}
