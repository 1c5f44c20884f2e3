package skillset

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/workspace"
	"github.com/agent-skills/agent-skills/scan"
)

// hiddenBody is a SKILL.md body with a zero-width space and, on another
// line, a right-to-left override.
const hiddenBody = "\nReview\u200b the code.\nThen \u202eesrever done.\n"

// risky is a registry package whose SKILL.md holds body under its
// heading (which installedVersion reads).
func risky(name, version, body string) pkgSpec {
	return pkgSpec{name: name, version: version, body: "# " + name + " " + version + "\n" + body}
}

// openRisk opens a project session for both agents accepting allow.
func (w *world) openRisk(allow ...string) (*Session, error) {
	w.t.Helper()
	return Open(w.t.Context(), w.machine(), Options{Scope: workspace.ScopeRequest{Project: true}, Agents: bothAgents,
		Generator: "agent-skills@test", AllowRisk: allow})
}

// snapshot lists every file under dir with the digest of its content,
// to tell that a refused run wrote nothing.
func snapshot(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			out = append(out, fmt.Sprintf("%s %x", rel, sha256.Sum256(data)))
		}
		return nil
	})
	return out
}

func TestInstallRefusesBlockedContent(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.publish(pkgSpec{name: "clean", version: "1.0.0"}, risky("hidden", "1.0.0", hiddenBody), risky("other", "1.0.0", "x\u2066y\n"))
	s, err := w.openRisk()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Install(t.Context(), InstallRequest{Args: []string{"clean"}}); err != nil {
		t.Fatalf("Install(clean) = %v", err)
	}
	before := snapshot(t, w.proj)
	lockBefore, _ := os.ReadFile(filepath.Join(w.proj, "skills.lock"))

	for _, dry := range []bool{false, true} {
		s, _ := w.openRisk()
		out, err := s.Install(t.Context(), InstallRequest{Args: []string{"hidden", "other", "clean"}, DryRun: dry})
		if codeOf(err) != CodeContentRisk {
			t.Fatalf("Install(hidden, other, dry=%v) = %v, want %s", dry, err, CodeContentRisk)
		}
		if !strings.Contains(err.Error(), "2 packages hold content that blocks installing them (hidden@1.0.0, other@1.0.0)") {
			t.Errorf("Install(hidden, other) error = %q, want both named", err)
		}
		if len(out.Results) != 0 {
			t.Errorf("Install(hidden, other).Results = %v, want none", results(out))
		}
		if len(out.Findings) != 2 || !out.Findings[0].Blocked || out.Findings[0].Name != "hidden" {
			t.Fatalf("Install(hidden, other).Findings = %+v, want hidden and other, blocked", out.Findings)
		}
		var rules []string
		for _, f := range out.Findings[0].Findings {
			rules = append(rules, f.Verdict+" "+f.Rule)
			if f.Fingerprint == "" || f.Excerpt == "" || strings.ContainsAny(f.Excerpt, "\u200b\u202e") {
				t.Errorf("finding %+v: want a fingerprint and an excerpt with the hidden characters made visible", f)
			}
		}
		if want := []string{"blocked hidden-zero-width", "blocked hidden-bidi"}; !slices.Equal(rules, want) {
			t.Errorf("hidden's findings = %v, want %v", rules, want)
		}
	}
	if got := snapshot(t, w.proj); !slices.Equal(got, before) {
		t.Errorf("a refused install changed the project:\n%v\nwant\n%v", got, before)
	}
	if lockAfter, _ := os.ReadFile(filepath.Join(w.proj, "skills.lock")); string(lockAfter) != string(lockBefore) {
		t.Errorf("a refused install changed skills.lock:\n%s", lockAfter)
	}
}

func TestInstallAllowRiskRecordsAcceptance(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.publish(risky("hidden", "1.0.0", hiddenBody))

	// One rule accepted of two: still blocked, by the other alone.
	s, _ := w.openRisk("hidden-zero-width")
	out, err := s.Install(t.Context(), InstallRequest{Args: []string{"hidden"}})
	if codeOf(err) != CodeContentRisk || !strings.Contains(strings.Join(askDetail(err), "\n"), "hidden@1.0.0: hidden-bidi (1)") {
		t.Fatalf("Install(hidden, allow zero-width) = %v %v, want refused for hidden-bidi", err, askDetail(err))
	}
	if v := verdicts(out.Findings[0]); !slices.Equal(v, []string{"blocked hidden-bidi", "accepted hidden-zero-width --allow-risk"}) {
		t.Errorf("verdicts = %v", v)
	}
	if try := strings.Join(askTry(err), "\n"); !strings.Contains(try, "agent-skills install hidden --project --agent claude-code,codex --allow-risk hidden-zero-width,hidden-bidi ") {
		t.Errorf("Try = %s, want the command again with both rules accepted", try)
	}

	s, _ = w.openRisk("hidden-zero-width", "hidden-b*")
	out, err = s.Install(t.Context(), InstallRequest{Args: []string{"hidden"}})
	if err != nil {
		t.Fatalf("Install(hidden, allow both) = %v", err)
	}
	if len(out.Results) != 2 {
		t.Fatalf("results = %v, want two", results(out))
	}
	for _, r := range out.Results {
		if r.Scanned == nil || len(r.Findings) != 2 || len(r.Accepted) != 2 || r.Accepted[0].By != "--allow-risk" {
			t.Errorf("result %s in %s: scanned = %+v, want both findings accepted by --allow-risk", r.Name, r.Root, r.Scanned)
		}
	}
	for _, in := range w.scan(s) {
		if len(in.Findings) != 2 {
			t.Fatalf("receipt of %s in %s records %+v, want two findings", in.Name, in.Root, in.Findings)
		}
		for _, f := range in.Findings {
			if f.AcceptedBy != "--allow-risk" || f.Severity != "critical" || f.File != "SKILL.md" || f.Line == 0 || len(f.Fingerprint) != 24 {
				t.Errorf("receipt finding %+v, want a critical SKILL.md finding accepted by --allow-risk", f)
			}
		}
	}

	// Installing again without the flag: the receipts' acceptance does
	// not carry over (a project's receipts are anyone's input).
	s, _ = w.openRisk()
	if _, err := s.Install(t.Context(), InstallRequest{Args: []string{"hidden"}}); codeOf(err) != CodeContentRisk {
		t.Errorf("Install(hidden) again without --allow-risk = %v, want %s", err, CodeContentRisk)
	}
}

func TestUpdateShowsNewFindings(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.publish(risky("hidden", "1.0.0", "\nReview\u200b the code.\n"))
	s, _ := w.openRisk("hidden-zero-width")
	if _, err := s.Install(t.Context(), InstallRequest{Args: []string{"hidden"}}); err != nil {
		t.Fatalf("Install(hidden) = %v", err)
	}
	w.publish(risky("hidden", "1.1.0", hiddenBody))

	s, _ = w.openRisk("hidden-zero-width")
	out, err := s.Update(t.Context(), UpdateRequest{})
	if codeOf(err) != CodeContentRisk {
		t.Fatalf("Update = %v, want the new bidi finding to block", err)
	}
	pf := out.Findings[0]
	if pf.Previous != "1.0.0" || pf.Version != "1.1.0" {
		t.Fatalf("Update findings = %+v, want 1.1.0 against 1.0.0", pf)
	}
	var got []string
	for _, f := range pf.Findings {
		got = append(got, f.Rule+" new="+map[bool]string{true: "yes", false: "no"}[f.New])
	}
	if want := []string{"hidden-bidi new=yes", "hidden-zero-width new=no"}; !slices.Equal(got, want) {
		t.Errorf("Update findings = %v, want %v", got, want)
	}
	if w.installedVersion(false, "claude-code", "hidden") != "1.0.0" {
		t.Error("a refused update replaced the installed version")
	}

	s, _ = w.openRisk("hidden-*")
	if _, err := s.Update(t.Context(), UpdateRequest{}); err != nil {
		t.Fatalf("Update(allow hidden-*) = %v", err)
	}
	if w.installedVersion(false, "claude-code", "hidden") != "1.1.0" {
		t.Error("Update(allow hidden-*) did not install 1.1.0")
	}
}

func TestRestoreScansLockedPackages(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.publish(risky("hidden", "1.0.0", hiddenBody))
	s, _ := w.openRisk("hidden-*")
	if _, err := s.Install(t.Context(), InstallRequest{Args: []string{"hidden"}}); err != nil {
		t.Fatalf("Install(hidden) = %v", err)
	}
	os.RemoveAll(filepath.Join(w.proj, ".claude"))
	os.RemoveAll(filepath.Join(w.proj, ".agents"))
	s, _ = w.openRisk()
	if _, err := s.Restore(t.Context(), RestoreRequest{}); codeOf(err) != CodeContentRisk {
		t.Fatalf("Restore = %v, want %s", err, CodeContentRisk)
	}
	if _, err := os.Stat(filepath.Join(w.proj, ".claude")); err == nil {
		t.Error("a refused restore wrote .claude")
	}
	s, _ = w.openRisk("hidden-bidi", "hidden-zero-width")
	if _, err := s.Restore(t.Context(), RestoreRequest{}); err != nil {
		t.Fatalf("Restore(allow) = %v", err)
	}
}

func TestInstallSourceScanned(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	src := filepath.Join(w.base, "coll")
	writeFile(t, filepath.Join(src, "skills", "good", "SKILL.md"), "---\nname: good\ndescription: Good. Use when testing.\n---\n# good\n")
	writeFile(t, filepath.Join(src, "skills", "bad", "SKILL.md"), "---\nname: bad\ndescription: Bad. Use when testing.\n---\n# bad\nx\U000E0041\n")
	writeFile(t, filepath.Join(src, "skills", "good", "references", "gpj.\u202emd"), "x\n")
	s, _ := w.openRisk()
	out, err := s.Install(t.Context(), InstallRequest{Args: []string{src}, Skills: []string{"*"}})
	if codeOf(err) != CodeContentRisk || len(out.Findings) != 2 {
		t.Fatalf("Install(coll, *) = %v, findings %+v; want both skills blocked", err, out.Findings)
	}
	if f := out.Findings[1].Findings[0]; out.Findings[1].Name != "good" || f.Rule != scan.RuleHiddenBidi || f.File != "references/gpj.\u202emd" || f.Line != 0 {
		t.Errorf("good's finding = %+v, want the bidi file name", f)
	}
	if _, err := os.Stat(filepath.Join(w.proj, "skills.lock")); err == nil {
		t.Error("a refused install wrote skills.lock")
	}
}

func TestCheckAllowRisk(t *testing.T) {
	for _, ok := range [][]string{nil, {"hidden-bidi"}, {"hidden-*", "hidden-tag"}, {"hidden-[bt]*"}} {
		if err := CheckAllowRisk(ok); err != nil {
			t.Errorf("CheckAllowRisk(%q) = %v, want nil", ok, err)
		}
	}
	for _, bad := range [][]string{{"hidden"}, {""}, {"*"}, {"hidden-bidi", "nope-*"}, {"hidden-["}} {
		if err := CheckAllowRisk(bad); codeOf(err) != "ASK_USAGE" {
			t.Errorf("CheckAllowRisk(%q) = %v, want ASK_USAGE", bad, err)
		}
	}
	w := newWorld(t)
	s, _ := w.openRisk("hiden-bidi")
	if _, err := s.Install(t.Context(), InstallRequest{Args: []string{"x"}}); codeOf(err) != "ASK_USAGE" || !strings.Contains(err.Error(), `"hiden-bidi"`) {
		t.Errorf("Install with --allow-risk hiden-bidi = %v, want ASK_USAGE naming it", err)
	}
}

// verdicts lists a package's findings as "verdict rule [by]".
func verdicts(pf PackageFindings) []string {
	var out []string
	for _, f := range pf.Findings {
		out = append(out, strings.TrimSpace(f.Verdict+" "+f.Rule+" "+f.AcceptedBy))
	}
	return out
}

// askDetail is the detail lines of a coded error.
func askDetail(err error) []string {
	if d, ok := err.(interface{ ErrorDetail() []string }); ok {
		return d.ErrorDetail()
	}
	return nil
}

// askTry is the next actions of a coded error.
func askTry(err error) []string {
	if d, ok := err.(interface{ ErrorTry() []string }); ok {
		return d.ErrorTry()
	}
	return nil
}
