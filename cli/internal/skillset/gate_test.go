package skillset

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/install"
)

// lenient is a registry package that validate's default gate refuses but
// the install gate lets through with warnings: SKILL.md listed twice in
// files, and a numeric metadata value.
func lenient(name string) pkgSpec {
	return pkgSpec{name: name, version: "1.0.0", files: map[string]string{
		"SKILL.md": "---\nname: " + name + "\ndescription: Lenient " + name + ". Use when testing.\nmetadata:\n  version: 1.0\n---\n# " + name + "\n",
	}}
}

func TestInstallGateRegistry(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.publish(lenient("loose"), lenient("slack"))

	out, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"loose"}, DryRun: true})
	if err != nil {
		t.Fatalf("Install(loose) = %v, want it installed with warnings", err)
	}
	if len(out.ValidationWarnings) != 1 || out.ValidationWarnings[0].Package != "loose@1.0.0" {
		t.Fatalf("Install(loose).ValidationWarnings = %+v, want loose@1.0.0's", out.ValidationWarnings)
	}
	var codes []string
	for _, d := range out.ValidationWarnings[0].Diagnostics {
		codes = append(codes, d.Severity.String()+" "+d.Code)
	}
	if want := []string{"warning ASK_FRONTMATTER_FIELD_INVALID", "warning ASK_FILES_DUPLICATE"}; !slices.Equal(codes, want) {
		t.Errorf("Install(loose) warnings = %v, want %v", codes, want)
	}

	// --strict: validate's default gate, and every invalid package named.
	out, err = w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"loose", "slack"}, Strict: true, DryRun: true})
	if codeOf(err) != "ASK_VALIDATION_FAILED" || !strings.Contains(err.Error(), "2 packages are not valid (loose@1.0.0 from team, slack@1.0.0 from team)") {
		t.Fatalf("Install(loose, slack, strict) = %v, want both named in ASK_VALIDATION_FAILED", err)
	}
	if len(out.Problems) != 2 || len(out.Results) != 0 {
		t.Errorf("Install(strict) = problems %+v, results %v; want two problems and nothing done", out.Problems, results(out))
	}
}

func TestInstallWildcardSkipsAndSummarises(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	src := filepath.Join(w.base, "coll")
	writeFile(t, filepath.Join(src, "skills", "good", "SKILL.md"), "---\nname: good\ndescription: Good. Use when testing.\n---\n# good\n")
	writeFile(t, filepath.Join(src, "skills", "bad", "SKILL.md"), "---\nname: bad\n---\n# bad\n")

	out, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{src}, Skills: []string{"*"}})
	if err != nil {
		t.Fatalf("Install(coll, *) = %v", err)
	}
	if got, want := results(out), []string{"installed good " + out.Results[0].Version + " [codex]", "installed good " + out.Results[0].Version + " [claude-code]"}; !slices.Equal(got, want) {
		t.Errorf("Install(coll, *).Results = %v, want %v", got, want)
	}
	if len(out.Skipped) != 1 || out.Skipped[0].Name != "bad" || out.Skipped[0].Path != "skills/bad" ||
		!slices.Equal(out.Skipped[0].Codes, []string{"ASK_AGENT_CONSTRAINT", "ASK_REQUIRED_FIELD"}) || out.Skipped[0].Source != src {
		t.Errorf("Install(coll, *).Skipped = %+v, want bad with its Codex and description reasons", out.Skipped)
	}
	if out.Summary == nil || *out.Summary != (Summary{Installed: 1, Skipped: 1}) {
		t.Errorf("Install(coll, *).Summary = %+v, want 1 installed, 1 skipped", out.Summary)
	}
	if w.lockedVersions() != "good@"+out.Results[0].Version+"[claude-code codex]" {
		t.Errorf("skills.lock = %q, want good alone", w.lockedVersions())
	}

	// Named, the same skill refuses the run.
	out, err = w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{src}, Skills: []string{"bad"}})
	if codeOf(err) != "ASK_VALIDATION_FAILED" || len(out.Results) != 0 || out.Summary != nil {
		t.Errorf("Install(coll, bad) = %v, %v, %+v; want ASK_VALIDATION_FAILED and nothing done", err, results(out), out.Summary)
	}
}

// TestRefusedRunsReportNoWork is issue 13 item 9: a transaction that
// refuses reports its refusals only, for install and update.
func TestRefusedRunsReportNoWork(t *testing.T) {
	t.Parallel()
	w := appWorld(t)
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"tool"}}); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(w.root(false, "codex"), "tool", "SKILL.md"), "---\nname: tool\ndescription: mine\n---\n# mine\n")
	out, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"tool", "extra"}})
	if codeOf(err) != "ASK_MODIFIED_INSTALL" {
		t.Fatalf("Install(tool, extra) over an edit = %v, want ASK_MODIFIED_INSTALL", err)
	}
	if got := results(out); len(got) != 1 || !strings.HasPrefix(got[0], "refused tool 1.0.0 [codex]") {
		t.Errorf("Install(tool, extra) over an edit = %v, want only the refusal", got)
	}
	if exists(filepath.Join(w.root(false, "claude-code"), "extra")) {
		t.Errorf("a refused Install(tool, extra) installed extra")
	}

	// update: app and lib would move, but an edit of app refuses the run.
	if _, err := w.open(false, nil).Install(t.Context(), InstallRequest{Args: []string{"app@1.0.0"}}); err != nil {
		t.Fatal(err)
	}
	w.publish(pkgSpec{name: "app", version: "1.1.0", deps: map[string]string{"lib": "^1.0.0"}}, pkgSpec{name: "lib", version: "1.2.0"})
	writeFile(t, filepath.Join(w.root(false, "claude-code"), "app", "SKILL.md"), "---\nname: app\ndescription: mine\n---\n# mine\n")
	out, err = w.open(false, nil).Update(t.Context(), UpdateRequest{})
	if codeOf(err) != "ASK_MODIFIED_INSTALL" {
		t.Fatalf("Update() over an edit = %v, want ASK_MODIFIED_INSTALL", err)
	}
	for _, r := range out.Results {
		if r.Outcome != install.OutcomeRefused {
			t.Errorf("Update() over an edit reports %s %s %v, but nothing was written", r.Outcome, r.Name, r.Readers)
		}
	}
	if w.installedVersion(false, "codex", "lib") != "1.1.0" {
		t.Errorf("a refused Update() moved lib to %s", w.installedVersion(false, "codex", "lib"))
	}
}
