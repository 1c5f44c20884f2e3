package install

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/agent-skills/agent-skills/agents"
)

// TestEncodeMatchesJSON checks that the pending receipts, the run journal
// and the receipt files encode renders are the very bytes encoding/json
// gives for them (json.Marshal of the runEntry and runJournal,
// encodeReceipt), strings that JSON escapes or replaces included.
func TestEncodeMatchesJSON(t *testing.T) {
	root := filepath.Join(t.TempDir(), "skills")
	rec := func(name string) *receipt {
		return &receipt{
			SchemaVersion: receiptSchema, Name: name, Version: "1.0.0", Kind: "skill", Shape: agents.ShapeDirectory,
			Registry: "r<&>", Source: "./src\u2028x", Resolved: "bad\xffutf8", Integrity: "sha256-x",
			Dependencies: map[string]string{"b": "1", "a": "2"}, Agents: []string{"claude-code", "codex"},
			InstalledAt: "2026-12-01T00:00:00Z",
			Files:       []fileRecord{{Path: "SKILL.md", Digest: "sha256-a", Mode: "0644"}, {Path: "s/x \"y\".sh", Digest: "sha256-b", Mode: "0755"}},
		}
	}
	cases := []*txn{
		{kind: txnWrite, root: root, name: "fresh", dest: filepath.Join(root, "fresh"), shape: agents.ShapeDirectory, rec: rec("fresh")},
		{kind: txnWrite, root: root, name: "upgrade", dest: filepath.Join(root, "upgrade"), shape: agents.ShapeDirectory, rec: rec("upgrade"), existed: true},
		{kind: txnRemove, root: root, name: "gone", dest: filepath.Join(root, "gone"), shape: agents.ShapeDirectory, existed: true},
		{kind: txnWrite, root: root, name: "cmd<>", dest: filepath.Join(root, "cmd<>.md"), shape: agents.ShapeFile, rec: rec("cmd<>"), existed: true},
	}
	var entries []json.RawMessage
	var want runJournal
	want.SchemaVersion = receiptSchema
	for _, tx := range cases {
		tx.prepare()
		e := runEntry{Name: tx.name, journal: journal{Receipt: tx.rec}}
		e.Dest, _ = filepath.Rel(tx.root, tx.dest)
		if tx.existed && tx.shape == agents.ShapeDirectory && tx.needsStage() {
			e.Aside, _ = filepath.Rel(tx.root, tx.aside)
		}
		wantEntry, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		got := tx.journalEntry()
		if !bytes.Equal(got, wantEntry) {
			t.Errorf("journalEntry(%s) =\n%s\nwant\n%s", tx.name, got, wantEntry)
		}
		if tx.rec != nil {
			if got, want := tx.receiptData(), encodeReceipt(tx.rec); !bytes.Equal(got, want) {
				t.Errorf("receiptData(%s) =\n%s\nwant\n%s", tx.name, got, want)
			}
		}
		entries = append(entries, got)
		want.Entries = append(want.Entries, wantEntry)
	}
	wantData, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	if got := runJournalData(entries); !bytes.Equal(got, wantData) {
		t.Errorf("runJournalData =\n%s\nwant\n%s", got, wantData)
	}
	if got, want := runJournalData(nil), []byte(`{"schemaVersion":1,"entries":[]}`); !bytes.Equal(got, want) {
		t.Errorf("runJournalData(nil) = %s, want %s", got, want)
	}
}

func TestModeString(t *testing.T) {
	for m, want := range map[fs.FileMode]string{0o644: "0644", 0o755: "0755", 0o600: "0600", 0o4755: "0755", 0o7: "0007"} {
		if got := modeString(m); got != want {
			t.Errorf("modeString(%o) = %q, want %q", m, got, want)
		}
	}
}
