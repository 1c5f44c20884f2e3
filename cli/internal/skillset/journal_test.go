package skillset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/workspace"

	"github.com/agent-skills/agent-skills/agents"
)

func TestReadJournalRefusesWhatItCannotUse(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "proj")
	sc := workspace.Scope{Kind: agents.ScopeProject, Root: root}
	good := newJournal("uninstall", []string{"alpha"}, nil, sc, nil)
	good.Agents = []string{"claude-code"}
	good.Skills["alpha"] = journalSkill{Change: changeRemove}
	tests := []struct {
		name  string
		write func(path string)
		want  string // in the error; "" for a usable journal
	}{
		{"usable", func(p string) { writeJournal(p, good) }, ""},
		{"not JSON", func(p string) { os.WriteFile(p, []byte("{truncated"), 0o600) }, "cannot be used"},
		{"unknown key", func(p string) { os.WriteFile(p, []byte(`{"schemaVersion":1,"surprise":true}`), 0o600) }, "unknown field"},
		{"another project", func(p string) {
			j := *good
			j.Project = filepath.Join(dir, "elsewhere")
			writeJournal(p, &j)
		}, "belongs to the project"},
		{"newer schema", func(p string) {
			j := *good
			j.SchemaVersion = 9
			writeJournal(p, &j)
		}, "unsupported schemaVersion 9"},
		{"unknown agent", func(p string) {
			j := *good
			j.Agents = []string{"no-such-agent"}
			writeJournal(p, &j)
		}, "agents this agent-skills does not know"},
		{"bad skill name", func(p string) {
			j := *good
			j.Skills = map[string]journalSkill{"../x": {Change: changeRemove}}
			writeJournal(p, &j)
		}, `"../x" is not a skill name`},
		{"install without an entry", func(p string) {
			j := *good
			j.Skills = map[string]journalSkill{"alpha": {Change: changeInstall}}
			writeJournal(p, &j)
		}, "records no entry to install"},
		{"a symbolic link", func(p string) {
			other := p + ".target"
			writeJournal(other, good)
			os.Symlink(other, p)
		}, "not a regular file"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "locks", strings.Repeat("x", i+1)+".journal")
			os.MkdirAll(filepath.Dir(path), 0o755)
			tt.write(path)
			j, err := readJournal(path, root, agents.Default())
			if tt.want == "" {
				if err != nil || j == nil || j.Skills["alpha"].Change != changeRemove {
					t.Fatalf("readJournal(%s) = %v, %v; want the journal", tt.name, j, err)
				}
				return
			}
			if err == nil || askerr.CodeOf(err) != "ASK_JOURNAL_INVALID" || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("readJournal(%s) = %v, want ASK_JOURNAL_INVALID saying %q", tt.name, err, tt.want)
			}
		})
	}
	if j, err := readJournal(filepath.Join(dir, "none.journal"), root, agents.Default()); j != nil || err != nil {
		t.Errorf("readJournal(missing) = %v, %v; want nil, nil", j, err)
	}
}
