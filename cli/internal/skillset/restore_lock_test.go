package skillset

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/config"
	"github.com/agent-skills/agent-skills/cli/internal/source"
	"github.com/agent-skills/agent-skills/resolve"
)

// TestLockedAgentIDs: a restore with no agent named installs for the
// agents skills.lock lists, each exactly once, but those the
// configuration disables; an id that is not exactly a supported agent's
// (an alias, "all", an unknown one) stops it, since the lock comes with
// the project.
func TestLockedAgentIDs(t *testing.T) {
	table := agents.Default()
	lockOf := func(lists ...[]string) *resolve.Lock {
		l := &resolve.Lock{LockfileVersion: resolve.LockfileVersion, Skills: map[string]resolve.LockedSkill{}}
		for i, ids := range lists {
			l.Skills[string(rune('a'+i))] = resolve.LockedSkill{Version: "1.0.0", Registry: "bundled", Agents: ids}
		}
		return l
	}
	off := false
	disabled := config.Default()
	disabled.Agents = map[string]config.Agent{"codex": {Enabled: &off}}

	if ids, err := lockedAgentIDs(nil, table, config.Default()); ids != nil || err != nil {
		t.Errorf("no lock: %v, %v", ids, err)
	}
	if ids, err := lockedAgentIDs(lockOf(nil, []string{}), table, config.Default()); ids != nil || err != nil {
		t.Errorf("no agents listed: %v, %v (the detected agents are used)", ids, err)
	}
	ids, err := lockedAgentIDs(lockOf([]string{"codex", "claude-code"}, []string{"claude-code", "gemini-cli"}), table, config.Default())
	if err != nil || !slices.Equal(ids, []string{"claude-code", "codex", "gemini-cli"}) {
		t.Errorf("listed: %v, %v", ids, err)
	}
	ids, err = lockedAgentIDs(lockOf([]string{"codex", "claude-code"}), table, disabled)
	if err != nil || !slices.Equal(ids, []string{"claude-code"}) {
		t.Errorf("codex disabled: %v, %v", ids, err)
	}
	if _, err := lockedAgentIDs(lockOf([]string{"codex"}), table, disabled); codeOf(err) != agents.CodeNoAgent {
		t.Errorf("only a disabled agent: %v, want %s", err, agents.CodeNoAgent)
	}
	for _, bad := range []string{"claude", "all", "no-such-agent"} {
		_, err := lockedAgentIDs(lockOf([]string{"codex", bad}), table, config.Default())
		if codeOf(err) != agents.CodeAgentUnknown || !strings.Contains(err.Error(), ": "+bad) {
			t.Errorf("%q: %v, want %s naming it", bad, err, agents.CodeAgentUnknown)
		}
	}
}

// TestMissingFolders: a restore from folders that are not on this machine
// names each path before anything is fetched: one inside the project as
// the lock records it (./path) and where it was looked for, one outside
// it as the path only the installing machine has.
func TestMissingFolders(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "skills", "here", "SKILL.md"), "---\nname: here\n---\n")
	outside := filepath.Join(t.TempDir(), "elsewhere", "tool")
	entries := map[string]resolve.LockedSkill{
		"here":  {Source: filepath.Join(root, "skills", "here")},
		"reg":   {Registry: "bundled"},
		"gitty": {Source: "https://git.example.com/team/skills"},
	}
	if err := missingFolders(entries, root); err != nil {
		t.Fatalf("all present: %v", err)
	}
	entries["gone"] = resolve.LockedSkill{Source: filepath.Join(root, "skills"), Subpath: "gone"}
	err := missingFolders(entries, root)
	want := "gone comes from " + filepath.Join(root, "skills", "gone") + ", which is not on this machine"
	if codeOf(err) != source.CodeSourceNotFound || err.(*askerr.Error).Message != want {
		t.Fatalf("inside: %v, want %q", err, want)
	}
	if d := err.(*askerr.Error).Detail[0]; d != "gone: skills.lock records the folder ./skills/gone inside the project, and "+filepath.Join(root, "skills", "gone")+" does not exist" {
		t.Errorf("inside detail: %q", d)
	}

	entries["tool"] = resolve.LockedSkill{Source: outside}
	err = missingFolders(entries, root)
	e, _ := err.(*askerr.Error)
	if e == nil || e.Message != "2 skills come from folders that are not on this machine" || len(e.Detail) != 3 ||
		e.Detail[1] != "tool: skills.lock records "+outside+", outside the project ("+root+"): only the machine that installed it has that folder" ||
		!slices.Contains(e.Try, "put the folder at "+outside+" (or move it into the project and install it from there), then run agent-skills install again") {
		t.Fatalf("outside: %#v", err)
	}
	if _, err := os.Stat(outside); err == nil {
		t.Fatal("the check made the folder")
	}
}
