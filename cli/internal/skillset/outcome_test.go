package skillset

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/cli/internal/workspace"
	"github.com/agent-skills/agent-skills/resolve"
)

func TestNewOutcome(t *testing.T) {
	as, err := agents.Default().Select([]string{"codex", "claude-code"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		scope  workspace.Scope
		dryRun bool
		want   string
	}{
		{workspace.Scope{Kind: agents.ScopeProject, Root: "/p"}, false,
			`{"scope":"project","project":"/p","agents":["claude-code","codex"],"dryRun":false,"results":[]}`},
		{workspace.Scope{Kind: agents.ScopeGlobal}, true,
			`{"scope":"global","agents":["claude-code","codex"],"dryRun":true,"results":[]}`},
	}
	for _, tt := range tests {
		s := &Session{Scope: tt.scope, Agents: as}
		data, err := json.Marshal(s.newOutcome(tt.dryRun))
		if err != nil || string(data) != tt.want {
			t.Errorf("json(newOutcome(%s, %v)) = %s, %v; want %s", tt.scope, tt.dryRun, data, err, tt.want)
		}
	}
	if got := (&Session{Agents: as}).AgentIDs(); !slices.Equal(got, []string{as[0].ID(), as[1].ID()}) {
		t.Errorf("AgentIDs() = %q, want the ids of %v in order", got, as)
	}
}

func TestOutcomeAdds(t *testing.T) {
	o := &Outcome{Results: []install.Result{}}
	o.addReport(nil)
	o.setPlan(nil)
	if len(o.Results) != 0 || o.Plan != nil || o.Duplicates != nil {
		t.Errorf("addReport(nil), setPlan(nil) = %+v, want nothing added", o)
	}
	o.addReport(&install.Report{Results: []install.Result{{Name: "a"}}, Duplicates: []install.Duplicate{{Name: "a"}}})
	o.addReport(&install.Report{Results: []install.Result{{Name: "b"}}})
	if len(o.Results) != 2 || o.Results[1].Name != "b" || len(o.Duplicates) != 1 {
		t.Errorf("addReport twice = %+v, want both reports' results in order and the duplicate", o)
	}
	plan := &resolve.Plan{Skills: []resolve.Selection{{Name: "a", Version: "1.0.0"}}, Warnings: []resolve.Warning{{Code: "ASK_X", Message: "m"}}}
	o.setPlan(plan)
	if len(o.Plan) != 1 || len(o.Warnings) != 1 {
		t.Errorf("setPlan = %+v, want the plan's skills and warnings", o)
	}
	o.notify(LevelWarn, "%s and %d", "x", 2)
	if want := (Notice{Level: LevelWarn, Text: "x and 2"}); len(o.Notices) != 1 || o.Notices[0] != want {
		t.Errorf("notify = %+v, want %+v", o.Notices, want)
	}
	data, _ := json.Marshal(o.Notices[0])
	if string(data) != `{"level":"warning","text":"x and 2"}` {
		t.Errorf("json(notice) = %s", data)
	}
}

func TestRerunFlags(t *testing.T) {
	tests := []struct {
		name string
		got  []string
		want []string
	}{
		{"install, none", InstallRequest{Args: []string{"a"}, DryRun: true, FrozenLockfile: true}.rerun(), nil},
		{"install, all", InstallRequest{Skills: []string{"x", "y"}, Registry: "team", Force: true, NoDeps: true, WithSuggests: true}.rerun(),
			[]string{"--skill", "x", "--skill", "y", "--registry", "team", "--force", "--no-deps", "--with-suggests"}},
		{"update, none", UpdateRequest{Names: []string{"a"}, DryRun: true}.rerun(), nil},
		{"update, all", UpdateRequest{Major: true, WithSuggests: true, Force: true, KeepLocal: true}.rerun(),
			[]string{"--major", "--with-suggests", "--force", "--keep-local"}},
		{"restore", restoreFlags(RestoreRequest{DryRun: true}), nil},
		{"restore, force", restoreFlags(RestoreRequest{Force: true}), []string{"--force"}},
	}
	for _, tt := range tests {
		if !slices.Equal(tt.got, tt.want) {
			t.Errorf("rerun(%s) = %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}

func TestJournalCommandLines(t *testing.T) {
	many := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	tests := []struct {
		j            journal
		str, command string
	}{
		{journal{Command: "install"}, "agent-skills install", "agent-skills install"},
		{journal{Command: "uninstall", Requested: []string{"a", "b"}, Flags: []string{"--force"}, Agents: []string{"claude-code", "codex"}},
			"agent-skills uninstall a b", "agent-skills uninstall a b --force --agent claude-code,codex"},
		{journal{Command: "update", Requested: many, Agents: []string{"codex"}},
			"agent-skills update a b c d e … h (8 skills)", "agent-skills update a b c d e f g h --agent codex"},
	}
	for _, tt := range tests {
		if got := tt.j.String(); got != tt.str {
			t.Errorf("journal(%v).String() = %q, want %q", tt.j.Requested, got, tt.str)
		}
		if got := tt.j.rerun(); got != tt.command {
			t.Errorf("journal(%v).rerun() = %q, want %q", tt.j.Requested, got, tt.command)
		}
	}
}

// The first report's results are taken as they are, not copied (20,000
// of them are 5 MB); a report without results leaves the outcome's empty
// list, which --json prints as [].
func TestAddReportTakesResults(t *testing.T) {
	o := &Outcome{Results: []install.Result{}}
	o.addReport(&install.Report{})
	if data, _ := json.Marshal(o.Results); string(data) != "[]" {
		t.Errorf("addReport(no results) left results %s, want []", data)
	}
	rep := &install.Report{Results: []install.Result{{Name: "a"}, {Name: "b"}}}
	o.addReport(rep)
	if len(o.Results) != 2 || &o.Results[0] != &rep.Results[0] {
		t.Errorf("addReport copied the first report's results")
	}
	o.addReport(&install.Report{Results: []install.Result{{Name: "c"}}})
	if len(o.Results) != 3 || o.Results[2].Name != "c" || len(rep.Results) != 2 {
		t.Errorf("addReport after the first = %+v, want every result in order", o.Results)
	}
}
