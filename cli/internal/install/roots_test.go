//go:build unix

package install

import (
	"path/filepath"
	"testing"
)

func TestCanonicalizer(t *testing.T) {
	base := t.TempDir()
	project := filepath.Join(base, "p")
	home := filepath.Join(base, "home")
	j := filepath.Join
	plant(t, base, map[string]string{
		"p/.claude/skills/":       "/",
		"p/.agents/skills":        "-> ../.claude/skills",
		"p/.github/skills":        "-> " + j(project, ".claude", "skills"),
		"p/.codex/skills":         "-> ../.cursor/skills", // dangling: the install creates it
		"p/.gemini/skills":        "-> ../../outside/skills",
		"p/.loop/skills":          "-> ../.loop/skills",
		"p/.deep":                 "-> .claude",
		"p/a/b/.agents/skills":    "-> ../../../.agents/skills",
		"outside/skills/":         "/",
		"home/.claude/skills":     "-> ../../outside/skills",
		"home/.agents/skills":     "-> ../.claude/skills",
		"elsewhere/real/skills/":  "/",
		"elsewhere/link":          "-> real",
		"home/.config/agents/":    "/",
		"home/.config/opencode/x": "-> ../agents",
	})
	canon := Canonicalizer(project, home)
	cases := []struct{ in, want string }{
		{j(project, ".claude", "skills"), j(project, ".claude", "skills")},
		{j(project, ".agents", "skills"), j(project, ".claude", "skills")},
		{j(project, ".github", "skills"), j(project, ".claude", "skills")},
		{j(project, ".codex", "skills"), j(project, ".cursor", "skills")},
		{j(project, ".deep", "skills"), j(project, ".claude", "skills")},
		{j(project, "a", "b", ".agents", "skills"), j(project, ".claude", "skills")},
		{j(project, "missing", "skills"), j(project, "missing", "skills")},
		// Out of the project: left as it is, for checkRoot to name.
		{j(project, ".gemini", "skills"), j(project, ".gemini", "skills")},
		// A loop: left as it is, for the OS to refuse.
		{j(project, ".loop", "skills"), j(project, ".loop", "skills")},
		// The home folder is the user's: links may lead anywhere.
		{j(home, ".claude", "skills"), j(base, "outside", "skills")},
		{j(home, ".agents", "skills"), j(base, "outside", "skills")},
		{j(home, ".config", "opencode", "x"), j(home, ".config", "agents")},
		{j(base, "elsewhere", "link", "skills"), j(base, "elsewhere", "real", "skills")},
		{"relative/path", "relative/path"},
	}
	for _, tc := range cases {
		if got := canon(tc.in); got != tc.want {
			t.Errorf("Canonicalizer(%s)(%s) = %s, want %s", project, tc.in, got, tc.want)
		}
		if got := canon(canon(tc.in)); got != tc.want {
			t.Errorf("Canonicalizer is not idempotent on %s: %s", tc.in, got)
		}
	}
	if _, esc := resolveBelow(project, j(project, ".gemini", "skills")); esc == nil || esc.link != j(project, ".gemini", "skills") || esc.target != "../../outside/skills" {
		t.Errorf("resolveBelow(.gemini/skills) escape = %+v, want the link and its target", esc)
	}
}

// TestCanonicalizerProjectBehindLink checks that a project reached
// through a link keeps the spelling it was given: paths printed relative
// to the working folder stay short.
func TestCanonicalizerProjectBehindLink(t *testing.T) {
	base := t.TempDir()
	plant(t, base, map[string]string{
		"real/p/.claude/skills/": "/",
		"real/p/.agents/skills":  "-> " + filepath.Join(base, "real", "p", ".claude", "skills"),
		"via":                    "-> real",
	})
	project := filepath.Join(base, "via", "p")
	got := Canonicalizer(project, "")(filepath.Join(project, ".agents", "skills"))
	if want := filepath.Join(project, ".claude", "skills"); got != want {
		t.Errorf("Canonicalizer(%s)(.agents/skills) = %s, want %s", project, got, want)
	}
}

func TestStagingNames(t *testing.T) {
	cases := []struct {
		n    string
		name string
		ok   bool
	}{
		{"s.0123456789abcdef.staged", "s", true},
		{"go-review.0123456789abcdef.old", "go-review", true},
		{"a.b.0123456789abcdef.old", "a.b", true},
		{"s.0123456789ABCDEF.old", "", false},
		{"s.0123456789abcde.old", "", false},
		{"s.0123456789abcdef0.old", "", false},
		{"s.0123456789abcdef", "", false},
		{".s.0123456789abcdef.old", "", false},
		{"..0123456789abcdef.old", "", false},
		{".0123456789abcdef.old", "", false},
		{"notes.txt", "", false},
	}
	for _, tc := range cases {
		name, ok := stagingEntry(tc.n)
		if name != tc.name || ok != tc.ok {
			t.Errorf("stagingEntry(%q) = %q, %v, want %q, %v", tc.n, name, ok, tc.name, tc.ok)
		}
	}
	for n, want := range map[string]bool{
		".s.json.tmp-0123456789abcdef": true,
		".s.json.tmp-0123456789abcde":  false,
		"s.json.tmp-0123456789abcdef":  false,
		"..json.tmp-0123456789abcdef":  false,
		".s.json.tmp-mine":             false,
	} {
		if got := tmpReceipt(n); got != want {
			t.Errorf("tmpReceipt(%q) = %v, want %v", n, got, want)
		}
	}
	// The names transactions give must be the names recovery removes.
	tx := &txn{root: "/r", name: "go-review"}
	tx.prepare()
	for _, p := range []string{tx.stagePath(), tx.asidePath()} {
		if name, ok := stagingEntry(filepath.Base(p)); !ok || name != "go-review" || filepath.Dir(p) != stagingDir("/r") {
			t.Errorf("stagingEntry(%q) = %q, %v; a transaction's own entry must be recognised", p, name, ok)
		}
	}
}
