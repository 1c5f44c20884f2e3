package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/cli/internal/skillset"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/resolve"
	"github.com/agent-skills/agent-skills/scan"
)

// sample is an outcome with one of every kind of line.
func sample(dryRun bool) *skillset.Outcome {
	return &skillset.Outcome{
		Scope: "project", Project: "/w/p", Agents: []string{"claude-code", "codex"}, DryRun: dryRun,
		Warnings: []resolve.Warning{{Code: "ASK_VERSION_DEPRECATED", Message: "old@1.0.0 is deprecated"}},
		Results: []install.Result{
			{Name: "a", Version: "2.0.0", Previous: "1.0.0", Outcome: install.OutcomeUpgraded, Dest: "/w/p/.claude/skills/a", Readers: []string{"claude-code"}, Preserved: []string{"notes.md"}},
			{Name: "b", Version: "1.0.0", Outcome: install.OutcomeInstalled, Dest: "/w/p/.agents/skills/b", Readers: []string{"codex"}},
			{Name: "c", Outcome: install.OutcomeSkipped, Agent: "codex", Reason: "no commands"},
			{Name: "d", Outcome: install.OutcomeRefused, Root: "/w/p/.claude/skills", Reason: "changed", Modified: []string{"SKILL.md (changed)"}},
		},
		Duplicates: []install.Duplicate{{Name: "a", Duplicate: agents.Duplicate{Agent: "copilot", Roots: []string{"/r1", "/r2"}}}},
		Changes: []skillset.Change{{Name: "s", From: "0.0.0-1", FromCommit: "0123456789abcdef", To: "0.0.0-2", ToCommit: "fedcba9876543210",
			Source: "github:o/r", Added: []string{"x.md"}, Modified: []string{"SKILL.md"}}},
		Problems: []skillset.Problem{{Package: "bad@1.0.0", Diagnostics: format.Diagnostics{
			{File: "SKILL.md", Pos: format.Pos{Line: 2, Col: 1}, Severity: format.SeverityError, Code: "ASK_X", Message: "broken", Fix: "mend it"}}}},
		Notices: []skillset.Notice{{Level: skillset.LevelInfo, Text: "lib was installed as a dependency"},
			{Level: skillset.LevelNote, Text: "finishing \x1b[2J it"}, {Level: skillset.LevelWarn, Text: "partly done"}},
	}
}

func TestOutcomeText(t *testing.T) {
	var out, errs bytes.Buffer
	p := New(&out, &errs, Options{Cwd: "/w/p"})
	p.Outcome(sample(false))
	p.Flush()
	wantOut := strings.Join([]string{
		"bad@1.0.0/SKILL.md:2:1: error ASK_X broken",
		"    fix: mend it",
		"s 0.0.0-1 (0123456789ab) → 0.0.0-2 (fedcba987654) from github:o/r:",
		"  added    x.md",
		"  modified SKILL.md",
		"upgraded a 1.0.0 → 2.0.0 → .claude/skills/a (claude-code)",
		"    kept your files: notes.md",
		"installed b 1.0.0 → .agents/skills/b (codex)",
		"skipped c for codex: no commands",
		"refused d in .claude/skills: changed",
		"    SKILL.md (changed)",
		"",
	}, "\n")
	if got := out.String(); got != wantOut {
		t.Errorf("Outcome() wrote on stdout\n%s\nwant\n%s", got, wantOut)
	}
	wantErr := strings.Join([]string{
		"warning: ASK_VERSION_DEPRECATED old@1.0.0 is deprecated",
		"lib was installed as a dependency",
		`note: finishing \x1b[2J it`,
		"warning: partly done",
		"warning: copilot sees a through 2 roots (/r1, /r2): no choice of folders avoids it for this set of agents",
		"",
	}, "\n")
	if got := errs.String(); got != wantErr {
		t.Errorf("Outcome() wrote on stderr\n%s\nwant\n%s", got, wantErr)
	}
}

func TestOutcomeDryRunWords(t *testing.T) {
	var out bytes.Buffer
	p := New(&out, &bytes.Buffer{}, Options{Cwd: "/w/p"})
	o := &skillset.Outcome{DryRun: true, Results: []install.Result{
		{Name: "a", Version: "1.0.0", Outcome: install.OutcomeInstalled, Dest: "/w/p/x/a"},
		{Name: "b", Version: "1.0.0", Outcome: install.OutcomeRemoved, Dest: "/w/p/x/b"},
		{Name: "c", Version: "1.0.0", Outcome: install.OutcomeUnchanged, Dest: "/w/p/x/c"},
	}}
	p.Outcome(o)
	p.Flush()
	for _, want := range []string{"would install a", "would remove b", "unchanged c"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("Outcome(dry run) = %q, want %q", out.String(), want)
		}
	}
}

func TestReport(t *testing.T) {
	var out, errs bytes.Buffer
	p := New(&out, &errs, Options{})
	p.Report(nil, true)
	p.Report(sample(false), true)
	p.Flush()
	var back struct {
		Results []install.Result  `json:"results"`
		Notices []skillset.Notice `json:"notices"`
	}
	if err := json.Unmarshal(out.Bytes(), &back); err != nil {
		t.Fatalf("Report(JSON) wrote %q: %v", out.String(), err)
	}
	if len(back.Results) != 4 || len(back.Notices) != 3 || back.Notices[1].Text != "finishing \x1b[2J it" {
		t.Errorf("Report(JSON) decodes to %+v, want every result and the exact notice text", back)
	}
	if !strings.Contains(errs.String(), "warning: partly done") || strings.Contains(errs.String(), "upgraded") {
		t.Errorf("Report(JSON) wrote %q on stderr, want the notices only", errs.String())
	}
}

// TestDiagnosticsQuiet: --quiet prints only errors (issue 13, item 10):
// an error without its fix line, and no warning at all.
func TestDiagnosticsQuiet(t *testing.T) {
	var out bytes.Buffer
	p := New(&out, &bytes.Buffer{}, Options{Quiet: true})
	p.Diagnostics("pkg", format.Diagnostics{
		{File: "skill.yaml", Severity: format.SeverityWarning, Code: "ASK_W", Message: "m", Fix: "f"},
		{File: "SKILL.md", Pos: format.Pos{Line: 2, Col: 1}, Severity: format.SeverityError, Code: "ASK_E", Message: "e", Fix: "g"},
	})
	p.Flush()
	if got, want := out.String(), "pkg/SKILL.md:2:1: error ASK_E e\n"; got != want {
		t.Errorf("Diagnostics(quiet) = %q, want %q", got, want)
	}
}

// TestOutcomeQuiet: --quiet leaves out what was done and keeps a
// refusal, and a dry run's plan, which is what the dry run is for.
func TestOutcomeQuiet(t *testing.T) {
	results := []install.Result{
		{Name: "a", Version: "1.0.0", Outcome: install.OutcomeInstalled, Dest: "/r/a", Readers: []string{"codex"}},
		{Name: "b", Outcome: install.OutcomeRefused, Root: "/r", Reason: "modified"},
	}
	for _, dry := range []bool{false, true} {
		var out bytes.Buffer
		p := New(&out, &bytes.Buffer{}, Options{Quiet: true})
		p.Outcome(&skillset.Outcome{DryRun: dry, Results: results})
		p.Flush()
		got := out.String()
		if strings.Contains(got, "install a 1.0.0") != dry || !strings.Contains(got, "refused b in /r: modified") {
			t.Errorf("Outcome(quiet, dryRun=%v) = %q, want the refusal, and the install only in a dry run", dry, got)
		}
	}
}

func TestSearchResults(t *testing.T) {
	var out, errs bytes.Buffer
	p := New(&out, &errs, Options{})
	if err := p.SearchResults("zzz", "SOURCE", nil); err != nil {
		t.Fatal(err)
	}
	if err := p.SearchResults("java", "REGISTRY", []Hit{{Name: "java-basics", Version: "1.2.0", Source: "bundled", Description: "Modern\nJava"}, {Name: "x"}}); err != nil {
		t.Fatal(err)
	}
	p.Flush()
	if !strings.Contains(errs.String(), `no skills match "zzz"`) {
		t.Errorf("SearchResults(none) wrote %q on stderr", errs.String())
	}
	want := "NAME         VERSION  REGISTRY  DESCRIPTION\njava-basics  1.2.0    bundled   Modern Java\nx            -                  \n"
	if got := out.String(); got != want {
		t.Errorf("SearchResults = %q, want %q", got, want)
	}
}

func TestProgressOffAwayFromATerminal(t *testing.T) {
	var errs bytes.Buffer
	p := New(&bytes.Buffer{}, &errs, Options{})
	g := p.Progress(false)
	g.Step(1, 2, "fetching", "a@1")
	g.Done()
	var none *Progress
	none.Step(1, 1, "x", "y")
	none.Done()
	if errs.Len() != 0 {
		t.Errorf("Progress wrote %q to a buffer, want nothing: it draws on terminals only", errs.String())
	}
}

func TestPrinterLevels(t *testing.T) {
	var errs bytes.Buffer
	p := New(&bytes.Buffer{}, &errs, Options{Verbose: true})
	p.Info("i")
	p.Verbose("v")
	p.Quieted().Warn("hidden")
	p.Warn("w")
	p.Flush()
	if got, want := errs.String(), "i\nv\nwarning: w\n"; got != want {
		t.Errorf("levels wrote %q, want %q", got, want)
	}
	if !p.Quieted().Quiet() || p.Quiet() {
		t.Errorf("Quieted() did not make a quiet copy")
	}
}

// TestOutcomeGate shows what the install gate adds to an outcome: the
// warnings of installed packages on stderr (not when quiet), each skipped
// skill with every reason and the summary on stdout.
func TestOutcomeGate(t *testing.T) {
	o := &skillset.Outcome{
		Results: []install.Result{{Name: "ok", Version: "1.0.0", Outcome: install.OutcomeInstalled, Dest: "/w/p/.claude/skills/ok", Readers: []string{"claude-code"}}},
		ValidationWarnings: []skillset.Problem{{Package: "ok@1.0.0", Diagnostics: format.Diagnostics{
			{File: "SKILL.md", Pos: format.Pos{Line: 5, Col: 12}, Severity: format.SeverityWarning, Code: "ASK_FRONTMATTER_FIELD_INVALID", Message: "metadata.version is a number", Fix: `quote the value, e.g. version: "1.0"`}}}},
		Skipped: []skillset.Skip{{Name: "bad", Source: "/w/c", Path: "skills/bad", Code: "ASK_VALIDATION_FAILED", Codes: []string{"ASK_REQUIRED_FIELD"},
			Diagnostics: format.Diagnostics{
				{File: "SKILL.md", Pos: format.Pos{Line: 1, Col: 1}, Severity: format.SeverityError, Code: "ASK_REQUIRED_FIELD", Message: "no description", Fix: "add one"},
				{File: "SKILL.md", Pos: format.Pos{Line: 6, Col: 1}, Severity: format.SeverityError, Code: "ASK_LINK_OUTSIDE_PACKAGE", Message: "link leaves"}}},
			{Name: "root", Code: "ASK_PACKAGE_UNSAFE_FILE", Diagnostics: format.Diagnostics{{Severity: format.SeverityError, Code: "ASK_PACKAGE_UNSAFE_FILE", Message: "x is a link"}}}},
		Summary: &skillset.Summary{Installed: 1, Skipped: 2},
	}
	var out, errs bytes.Buffer
	p := New(&out, &errs, Options{Cwd: "/w/p"})
	p.Outcome(o)
	p.Flush()
	wantOut := strings.Join([]string{
		"installed ok 1.0.0 → .claude/skills/ok (claude-code)",
		"skipped bad (skills/bad): not installed, 2 problems",
		"    skills/bad/SKILL.md:1:1: error ASK_REQUIRED_FIELD no description",
		"        fix: add one",
		"    skills/bad/SKILL.md:6:1: error ASK_LINK_OUTSIDE_PACKAGE link leaves",
		"skipped root (.): not installed, 1 problem",
		"    .: error ASK_PACKAGE_UNSAFE_FILE x is a link",
		"installed 1, skipped 2",
		"",
	}, "\n")
	if got := out.String(); got != wantOut {
		t.Errorf("Outcome() wrote on stdout\n%s\nwant\n%s", got, wantOut)
	}
	wantErr := "ok/SKILL.md:5:12: warning ASK_FRONTMATTER_FIELD_INVALID metadata.version is a number\n    fix: quote the value, e.g. version: \"1.0\"\n"
	if got := errs.String(); got != wantErr {
		t.Errorf("Outcome() wrote on stderr\n%s\nwant\n%s", got, wantErr)
	}

	out.Reset()
	errs.Reset()
	o.DryRun = true
	q := New(&out, &errs, Options{Cwd: "/w/p", Quiet: true})
	q.Outcome(o)
	q.Flush()
	if errs.Len() != 0 || !strings.HasSuffix(out.String(), "would install 1, skip 2\n") {
		t.Errorf("Outcome(quiet, dry run) = stdout %q, stderr %q; want no warnings and the dry-run summary", out.String(), errs.String())
	}
}

// writeLog records each write to one stream of a shared log.
type writeLog struct {
	stream string
	log    *[]string
}

func (w writeLog) Write(b []byte) (int, error) {
	*w.log = append(*w.log, w.stream+":"+string(b))
	return len(b), nil
}

// TestOutcomeWritesStdoutInBlocks: the results of 500 skills in two
// agents were a write(2) per line; they are one write per 32 KiB, with
// the same bytes, and what goes to stderr keeps its place around them.
func TestOutcomeWritesStdoutInBlocks(t *testing.T) {
	o := sample(false)
	o.Problems, o.Changes = nil, nil
	var results []install.Result
	for i := range 1000 {
		results = append(results, install.Result{Name: fmt.Sprintf("skill-%03d", i/2), Version: "1.0.0",
			Outcome: install.OutcomeInstalled, Dest: fmt.Sprintf("/w/p/.claude/skills/skill-%03d", i/2), Readers: []string{"claude-code"}})
	}
	o.Results = results
	o.Summary = &skillset.Summary{Installed: 500}
	var wantOut strings.Builder
	for _, r := range results {
		fmt.Fprintf(&wantOut, "installed %s 1.0.0 → .claude/skills/%s (claude-code)\n", r.Name, r.Name)
	}
	wantOut.WriteString("installed 500, skipped 0\n")
	var log []string
	p := New(writeLog{"out", &log}, writeLog{"err", &log}, Options{Cwd: "/w/p"})
	p.Outcome(o)
	p.Flush()
	var got strings.Builder
	outWrites := 0
	for _, l := range log {
		if s, ok := strings.CutPrefix(l, "out:"); ok {
			got.WriteString(s)
			outWrites++
		}
	}
	if got.String() != wantOut.String() {
		t.Errorf("Outcome() wrote on stdout\n%s\nwant\n%s", got.String(), wantOut.String())
	}
	if max := wantOut.Len()/(32<<10) + 1; outWrites > max {
		t.Errorf("Outcome() wrote stdout in %d writes, want at most %d", outWrites, max)
	}
	// stderr: the notices before the results, the duplicate after them.
	if first, last := log[0], log[len(log)-1]; !strings.HasPrefix(first, "err:warning: ASK_VERSION_DEPRECATED") ||
		!strings.HasPrefix(last, "err:warning: copilot sees a through 2 roots") {
		t.Errorf("Outcome() wrote first %q and last %q, want the notices first and the duplicate last", first, last)
	}
}

// TestOutcomeSharedRoots covers what Outcome says about agents and
// folders: a duplicate an agent lists once is a note, one kept from an
// earlier install says why, bystanders are named once per folder written
// (never for an unchanged result), and only those found on the machine
// (cursor is not), and a plan whose search stopped early
// is a warning.
func TestOutcomeSharedRoots(t *testing.T) {
	o := &skillset.Outcome{
		Scope: "project", Project: "/w/p", Agents: []string{"claude-code"},
		Results: []install.Result{
			{Name: "a", Version: "1.0.0", Outcome: install.OutcomeInstalled, Root: "/w/p/.claude/skills", Dest: "/w/p/.claude/skills/a", Readers: []string{"claude-code"}, AlsoReadBy: []string{"cursor", "opencode"}},
			{Name: "b", Version: "1.0.0", Outcome: install.OutcomeInstalled, Root: "/w/p/.claude/skills", Dest: "/w/p/.claude/skills/b", Readers: []string{"claude-code"}, AlsoReadBy: []string{"cursor", "opencode"}},
			{Name: "c", Version: "1.0.0", Outcome: install.OutcomeUnchanged, Root: "/w/p/.x/skills", Dest: "/w/p/.x/skills/c", Readers: []string{"claude-code"}, AlsoReadBy: []string{"warp"}},
		},
		Duplicates: []install.Duplicate{
			{Name: "a", Duplicate: agents.Duplicate{Agent: "github-copilot", Roots: []string{"/r1", "/r2"}, ByName: true, Kept: []string{"/r2"}}},
			{Name: "a", Duplicate: agents.Duplicate{Agent: "warp", Roots: []string{"/r1", "/r2"}}},
		},
		Inexact:       []string{"a"},
		InstalledHere: []string{"opencode", "warp"},
	}
	var out, errs bytes.Buffer
	p := New(&out, &errs, Options{Cwd: "/w/p"})
	p.Outcome(o)
	p.Flush()
	want := strings.Join([]string{
		"note: github-copilot sees a through 2 roots (/r1, /r2) and lists it once: /r2 already held it from an earlier install and was rewritten with the others, so every copy is the same",
		"warning: warp sees a through 2 roots (/r1, /r2): no choice of folders avoids it for this set of agents",
		"warning: the folders of a were chosen by a search that stopped early (too many agents share folders): every agent gets it, perhaps in more folders than needed",
		"note: .claude/skills is also read by opencode (found here, not selected): it will list the 2 packages written there too",
		"",
	}, "\n")
	if got := errs.String(); got != want {
		t.Errorf("Outcome() wrote on stderr\n%s\nwant\n%s", got, want)
	}
}

func TestOutcomeFindings(t *testing.T) {
	f := func(rule string, sev scan.Severity, file string, line int) scan.Finding {
		return scan.Finding{Rule: rule, Severity: sev, File: file, Line: line, Col: 1, Message: "m " + rule, Excerpt: "x<U+200B>y", Fix: "fix it"}
	}
	o := &skillset.Outcome{Findings: []skillset.PackageFindings{
		{Package: "evil@2.0.0", Name: "evil", Version: "2.0.0", Previous: "1.0.0", Blocked: true, Findings: []skillset.Flagged{
			{Finding: f("hidden-bidi", scan.Critical, "SKILL.md", 3), Verdict: skillset.VerdictBlocked, New: true},
			{Finding: f("hidden-tag", scan.Critical, "SKILL.md", 4), Verdict: skillset.VerdictBlocked},
			{Finding: f("hidden-zero-width", scan.Critical, "a.md", 1), Verdict: skillset.VerdictAccepted, AcceptedBy: "--allow-risk"},
			{Finding: f("capability-undeclared-scripts", scan.Medium, "run\u202e.sh", 0), Verdict: skillset.VerdictShown, New: true},
			{Finding: f("capability-shell-tools", scan.Info, "SKILL.md", 2), Verdict: skillset.VerdictShown, New: true},
		}},
		// a package whose only finding is info below the gate prints
		// nothing: a bare skill's scripts, on every public install
		{Package: "bare@1.0.0", Name: "bare", Version: "1.0.0", Findings: []skillset.Flagged{
			{Finding: f("capability-undeclared-scripts", scan.Info, "scripts/a.sh", 0), Verdict: skillset.VerdictShown},
		}},
	}}
	var out, errs bytes.Buffer
	p := New(&out, &errs, Options{Cwd: "/w/p"})
	p.Outcome(o)
	p.Flush()
	want := strings.Join([]string{
		"evil 2.0.0: 4 findings, 2 new since 1.0.0: blocked, not installed",
		"  blocked, new since 1.0.0:",
		"    evil/SKILL.md:3:1: critical hidden-bidi m hidden-bidi",
		"        | x<U+200B>y",
		"        fix: fix it",
		"  blocked, also in 1.0.0:",
		"    evil/SKILL.md:4:1: critical hidden-tag m hidden-tag",
		"        | x<U+200B>y",
		"        fix: fix it",
		"  accepted by --allow-risk, also in 1.0.0:",
		"    evil/a.md:1:1: critical hidden-zero-width m hidden-zero-width",
		"        | x<U+200B>y",
		"        fix: fix it",
		"  below the gate, new since 1.0.0:",
		"    evil/run\\u202e.sh: medium capability-undeclared-scripts m capability-undeclared-scripts",
		"        | x<U+200B>y",
		"        fix: fix it",
		"",
	}, "\n")
	if got := out.String(); got != want {
		t.Errorf("Outcome(findings) =\n%s\nwant\n%s", got, want)
	}
}
