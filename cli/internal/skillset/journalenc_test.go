package skillset

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestEncodeJournalIsMarshalIndent: the journal written one skill at a
// time is byte for byte what json.MarshalIndent wrote of the whole value,
// so journals written before and after read the same.
func TestEncodeJournalIsMarshalIndent(t *testing.T) {
	many := map[string]journalSkill{}
	for i := range 50 {
		many[fmt.Sprintf("skill-%02d", 49-i)] = journalSkill{Change: changeInstall, After: &lockEntry{Version: "1.0.0", Registry: "team",
			Resolved: "/reg:skills/x", Integrity: "sha256-abc", Agents: []string{"codex"}, Dependencies: map[string]string{"lib": "1.0.0", "a<b": "2.0.0"}}}
	}
	tests := []struct {
		name string
		j    journal
	}{
		{"no skills", journal{SchemaVersion: 1, Command: "install", Project: "/p", Agents: []string{"codex"}, Started: "2026-12-01T00:00:00Z", Skills: map[string]journalSkill{}}},
		{"nil skills", journal{SchemaVersion: 1, Command: "uninstall", Project: "/p", Agents: []string{"codex"}}},
		{"one removal", journal{SchemaVersion: 1, Command: "uninstall", Requested: []string{"app"}, Flags: []string{"--force"}, Project: "/p \"q\" <&>",
			Agents: []string{"claude-code", "codex"}, Started: "2026-12-01T00:00:00Z",
			Skills: map[string]journalSkill{"app": {Change: changeRemove, Before: &lockEntry{Version: "1.0.0", Dependencies: map[string]string{}}}}}},
		{"many", journal{SchemaVersion: 1, Command: "install", Requested: []string{"skill-00"}, Project: "/p", Agents: []string{"codex"}, Skills: many}},
		{"before and after", journal{SchemaVersion: 1, Command: "update", Project: "/p", Agents: []string{"codex"}, Skills: map[string]journalSkill{
			"b": {Change: changeInstall, Before: &lockEntry{Version: "1.0.0", Disabled: true}, After: &lockEntry{Version: "2.0.0", Source: "o/r", Ref: "main", Commit: "abc", Subpath: "s"}},
			"a": {Change: changeInstall, After: &lockEntry{Version: "1.0.0", Agents: []string{}}}}}},
	}
	for _, tt := range tests {
		want, err := json.MarshalIndent(&tt.j, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, '\n')
		var got bytes.Buffer
		if err := encodeJournal(&got, &tt.j); err != nil {
			t.Fatalf("encodeJournal(%s) = %v", tt.name, err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("encodeJournal(%s) =\n%s\nwant (json.MarshalIndent)\n%s", tt.name, got.Bytes(), want)
		}
	}
}

// failWriter fails every write.
type failWriter struct{ err error }

func (f failWriter) Write([]byte) (int, error) { return 0, f.err }

// TestWriteJournalRoundTrip: what writeJournal writes reads back as the
// same journal; a failing writer is reported as the writer's error.
func TestWriteJournalRoundTrip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "locks", "k.journal")
	j := &journal{SchemaVersion: journalSchema, Command: "install", Requested: []string{"app"}, Project: dir,
		Agents: []string{"codex"}, Started: "2026-12-01T00:00:00Z", Skills: map[string]journalSkill{
			"app": {Change: changeInstall, After: &lockEntry{Version: "1.0.0", Registry: "team", Agents: []string{"codex"}, Dependencies: map[string]string{"lib": "1.1.0"}}},
			"lib": {Change: changeInstall, After: &lockEntry{Version: "1.1.0", Registry: "team", Dependencies: map[string]string{}}}}}
	if err := writeJournal(path, j); err != nil {
		t.Fatalf("writeJournal = %v", err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var back journal
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatalf("the written journal does not decode: %v\n%s", err, data)
	}
	again, _ := json.Marshal(&back)
	orig, _ := json.Marshal(j)
	if !bytes.Equal(again, orig) {
		t.Errorf("journal read back = %s, want %s", again, orig)
	}
	boom := errors.New("disk full")
	var we *writeError
	if err := encodeJournal(failWriter{boom}, j); !errors.As(err, &we) || !errors.Is(err, boom) {
		t.Errorf("encodeJournal(failing writer) = %v, want the writer's error", err)
	}
}

// liveSampler is a writer that discards what it is given and, every
// 256 KiB, records the live heap after a collection.
type liveSampler struct {
	n, next uint64
	max     uint64
}

func (l *liveSampler) Write(p []byte) (int, error) {
	l.n += uint64(len(p))
	if l.n >= l.next {
		l.next = l.n + 256<<10
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		l.max = max(l.max, m.HeapAlloc)
	}
	return len(p), nil
}

// TestEncodeJournalDoesNotHoldItWhole: while a large journal is written,
// the live heap grows by a fraction of its size, not by the whole
// encoding (and its indented copy) that json.MarshalIndent holds (the
// journal of a 10,000-skill install is megabytes, written just before
// the install's peak).
func TestEncodeJournalDoesNotHoldItWhole(t *testing.T) {
	j := &journal{SchemaVersion: journalSchema, Command: "install", Project: "/p", Agents: []string{"codex"}, Skills: map[string]journalSkill{}}
	for i := range 10000 {
		j.Skills[fmt.Sprintf("bench-skill-%05d", i)] = journalSkill{Change: changeInstall, After: &lockEntry{Version: "1.0.0", Registry: "bench",
			Resolved: "/work/reg/local:skills/bench-skill", Integrity: "sha256-pLlo/WJR/azw4VVgoaJhOgS5bBYrA0E9y50PU1cYac8=", Dependencies: map[string]string{}}}
	}
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	w := &liveSampler{}
	if err := encodeJournal(w, j); err != nil {
		t.Fatal(err)
	}
	runtime.KeepAlive(j)
	if grew := w.max - min(w.max, base.HeapAlloc); grew > w.n/4 {
		t.Errorf("writing a %d-byte journal grew the live heap by %d bytes, want under a quarter of its size", w.n, grew)
	}
}
