package install

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/resolve"
)

// TestEncodeMatchesJSON checks that the pending receipts, the run journal
// and the receipt files a run writes (appendEntry, madeDirs.journal,
// appendReceipt) are the very bytes encoding/json gives for them
// (json.Marshal of the runEntry and runJournal, encodeReceipt), strings
// that JSON escapes or replaces included, and a journal of several chunks.
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
	scanned := rec("scanned")
	scanned.Findings = []Finding{
		{Rule: "hidden-bidi", Severity: "critical", File: "gpj.\u202emd", Fingerprint: "0123abcd", AcceptedBy: "--allow-risk"},
		{Rule: "hidden-zero-width", Severity: "critical", File: "SKILL.md", Line: 3, Fingerprint: "bad\xff<>"},
	}
	cases := []*txn{
		{kind: txnWrite, root: root, name: "fresh", dest: filepath.Join(root, "fresh"), shape: agents.ShapeDirectory, rec: rec("fresh")},
		{kind: txnWrite, root: root, name: "scanned", dest: filepath.Join(root, "scanned"), shape: agents.ShapeDirectory, rec: scanned, existed: true},
		{kind: txnWrite, root: root, name: "upgrade", dest: filepath.Join(root, "upgrade"), shape: agents.ShapeDirectory, rec: rec("upgrade"), existed: true},
		{kind: txnRemove, root: root, name: "gone", dest: filepath.Join(root, "gone"), shape: agents.ShapeDirectory, existed: true},
		{kind: txnWrite, root: root, name: "cmd<>", dest: filepath.Join(root, "cmd<>.md"), shape: agents.ShapeFile, rec: rec("cmd<>"), existed: true},
	}
	var want runJournal
	want.SchemaVersion = receiptSchema
	for _, tx := range cases {
		tx.prepare()
		e := runEntry{Name: tx.name, journal: journal{Receipt: tx.rec}}
		e.Dest, _ = filepath.Rel(tx.root, tx.dest)
		if tx.existed && tx.shape == agents.ShapeDirectory && tx.needsStage() {
			e.Aside, _ = filepath.Rel(tx.root, tx.asidePath())
		}
		wantEntry, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		got := tx.appendEntry(nil)
		if !bytes.Equal(got, wantEntry) {
			t.Errorf("journalEntry(%s) =\n%s\nwant\n%s", tx.name, got, wantEntry)
		}
		if tx.rec != nil {
			if got, want := append(appendReceipt(nil, tx.rec, true), '\n'), encodeReceipt(tx.rec); !bytes.Equal(got, want) {
				t.Errorf("receipt file of %s =\n%s\nwant\n%s", tx.name, got, want)
			}
		}
		want.Entries = append(want.Entries, wantEntry)
	}
	// The journal as a run writes it: appended a batch at a time, a chunk
	// written at a time, then completed and renamed.
	journalOf := func(ts []*txn) []byte {
		if err := os.MkdirAll(receiptsDir(root), 0o755); err != nil {
			t.Fatal(err)
		}
		m := madeDirs{v: &metaView{}}
		var s syncer
		for i := 0; i < len(ts); i += 7 {
			if err := m.journal(ts[i:min(i+7, len(ts))], &s); err != nil {
				t.Fatal(err)
			}
		}
		if len(ts) == 0 {
			if _, err := m.journalOf(root, &s); err != nil {
				t.Fatal(err)
			}
		}
		if err := m.closeJournals(ts, &s); err != nil {
			t.Fatal(err)
		}
		data := readFile(t, m.journals[root])
		os.Remove(m.journals[root])
		return []byte(data)
	}
	wantData, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	if got := journalOf(cases); !bytes.Equal(got, wantData) {
		t.Errorf("run journal =\n%s\nwant\n%s", got, wantData)
	}
	// Enough entries for several chunks.
	var many []*txn
	for i := range 3 * journalChunk / 500 {
		tx := *cases[i%len(cases)]
		many = append(many, &tx)
		want.Entries = append(want.Entries, want.Entries[i%len(cases)])
	}
	want.Entries = want.Entries[len(cases):]
	if wantData, err = json.Marshal(want); err != nil {
		t.Fatal(err)
	}
	if got := journalOf(many); !bytes.Equal(got, wantData) {
		t.Errorf("run journal of %d entries differs from json.Marshal's", len(many))
	}
	if got, want := journalOf(nil), []byte(`{"schemaVersion":1,"entries":[]}`); !bytes.Equal(got, want) {
		t.Errorf("run journal of none = %s, want %s", got, want)
	}
}

func TestModeString(t *testing.T) {
	for m, want := range map[fs.FileMode]string{0o644: "0644", 0o755: "0755", 0o600: "0600", 0o4755: "0755", 0o7: "0007"} {
		if got := modeString(m); got != want {
			t.Errorf("modeString(%o) = %q, want %q", m, got, want)
		}
	}
}

// TestAppendReceiptMatchesJSON checks appendReceipt against encoding/json
// for receipts with every field set, empty or nil, and strings JSON
// escapes or replaces: compact as json.Marshal, indented as
// encodeReceipt (json.MarshalIndent).
func TestAppendReceiptMatchesJSON(t *testing.T) {
	odd := []string{"", "plain", "r<&>", "a<b", "x>y", "p&q", "./src\u2028x\u2029", "bad\xffutf8", "q\"b\\s", "tab\tnl\n\x00\x1f\x7f", "é日本"}
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func() string { return odd[rng.IntN(len(odd))] }
	for i := range 2000 {
		r := &receipt{
			SchemaVersion: rng.IntN(3), Name: pick(), Version: pick(), Kind: format.Kind(pick()), Shape: agents.Shape(pick()),
			Registry: pick(), Resolved: pick(), Integrity: pick(), Role: resolve.Role(pick()), Source: pick(), Subpath: pick(),
			InstalledAt: pick(), Disabled: rng.IntN(2) == 0,
		}
		switch rng.IntN(3) {
		case 1:
			r.Dependencies = map[string]string{}
		case 2:
			r.Dependencies = map[string]string{}
			for range 1 + rng.IntN(4) {
				r.Dependencies[pick()] = pick()
			}
		}
		switch rng.IntN(3) {
		case 1:
			r.Agents = []string{}
		case 2:
			for range 1 + rng.IntN(3) {
				r.Agents = append(r.Agents, pick())
			}
		}
		switch rng.IntN(3) {
		case 1:
			r.Files = []fileRecord{}
		case 2:
			for range 1 + rng.IntN(4) {
				r.Files = append(r.Files, fileRecord{Path: pick(), Digest: pick(), Mode: pick()})
			}
		}
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendReceipt(nil, r, false); !bytes.Equal(got, want) {
			t.Fatalf("case %d: appendReceipt compact =\n%s\nwant\n%s", i, got, want)
		}
		if got, want := append(appendReceipt([]byte("x"), r, true), '\n'), append([]byte("x"), encodeReceipt(r)...); !bytes.Equal(got, want) {
			t.Fatalf("case %d: appendReceipt indented =\n%s\nwant\n%s", i, got, want)
		}
	}
}
