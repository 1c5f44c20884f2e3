package policy

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/scan"
)

// mustParse parses a policy body (the keys after schemaVersion).
func mustParse(t *testing.T, file, body string, project bool) *File {
	t.Helper()
	if body == "" {
		return nil
	}
	f, err := Parse([]byte(`{"schemaVersion": 1, `+body+`}`), file, project)
	if err != nil {
		t.Fatalf("Parse(%s) = %v", body, err)
	}
	return f
}

func merged(t *testing.T, user, project string) *Effective {
	return Merge(mustParse(t, "user.json", user, false), mustParse(t, "proj.json", project, true))
}

// outcome renders an error as "ok" or "refused by <file>".
func outcome(err error) string {
	if err == nil {
		return "ok"
	}
	if askerr.CodeOf(err) != CodePolicyViolation {
		return "wrong code " + askerr.CodeOf(err)
	}
	for _, tr := range askerr.TryOf(err) {
		if f, ok := strings.CutPrefix(tr, "the policy line is "); ok {
			file, _, _ := strings.Cut(f, ":")
			return "refused by " + file
		}
	}
	return "refused, no file named"
}

func TestCheckRegistryMerge(t *testing.T) {
	for _, tc := range []struct {
		user, project string
		name, url     string
		want          string
	}{
		{"", "", "public-x", "https://x.example/reg.git", "ok"},
		{`"registries": {"deny": ["public-*"]}`, "", "public-x", "https://x.example/reg.git", "refused by user.json"},
		{`"registries": {"deny": ["public-*"]}`, `"registries": {"allow": ["public-*"]}`, "public-x", "https://x", "refused by user.json"},
		{"", `"registries": {"deny": ["x.example"]}`, "team", "https://x.example/reg.git", "refused by proj.json"},
		{`"registries": {"allow": ["acme-*"]}`, "", "acme-1", "https://x", "ok"},
		{`"registries": {"allow": ["acme-*"]}`, "", "other", "https://x", "refused by user.json"},
		// both allow lists must allow it
		{`"registries": {"allow": ["acme-*"]}`, `"registries": {"allow": ["acme-core"]}`, "acme-1", "https://x", "refused by proj.json"},
		{`"registries": {"allow": ["acme-*"]}`, `"registries": {"allow": ["acme-core"]}`, "acme-core", "https://x", "ok"},
		// a project's allow list cannot widen the user's
		{`"registries": {"allow": ["acme-*"]}`, `"registries": {"allow": ["*"]}`, "public", "https://x", "refused by user.json"},
		// by URL
		{`"registries": {"allow": ["git.acme.com/*"]}`, "", "team", "https://git.acme.com/skills.git", "ok"},
		{`"registries": {"allow": []}`, "", "bundled", "bundled:", "refused by user.json"},
	} {
		e := merged(t, tc.user, tc.project)
		if got := outcome(e.CheckRegistry(tc.name, tc.url)); got != tc.want {
			t.Errorf("user %s, project %s: CheckRegistry(%q, %q) = %s, want %s", tc.user, tc.project, tc.name, tc.url, got, tc.want)
		}
	}
}

func TestCheckSourceMerge(t *testing.T) {
	gh := []string{"github.com/acme/skills"}
	local := []string{Subject("/work/skills/x")}
	for _, tc := range []struct {
		user, project string
		subjects      []string
		want          string
	}{
		{"", "", gh, "ok"},
		{`"sources": {"direct": false}`, "", gh, "refused by user.json"},
		{"", `"sources": {"direct": false}`, local, "refused by proj.json"},
		{`"sources": {"direct": false}`, `"sources": {"direct": true}`, gh, "refused by user.json"},
		{`"sources": {"denyHosts": ["github.com/acme"]}`, "", gh, "refused by user.json"},
		{`"sources": {"denyHosts": ["github.com/acme"]}`, `"sources": {"allowHosts": ["github.com/*"]}`, gh, "refused by user.json"},
		{"", `"sources": {"denyHosts": ["127.0.0.1"]}`, []string{Subject("http://127.0.0.1:8080/x.zip")}, "refused by proj.json"},
		{`"sources": {"allowHosts": ["github.com/acme/*"]}`, "", gh, "ok"},
		{`"sources": {"allowHosts": ["github.com/acme/*"]}`, "", []string{"github.com/evil/skills"}, "refused by user.json"},
		{`"sources": {"allowHosts": ["github.com/*"]}`, `"sources": {"allowHosts": ["github.com/acme/*"]}`, []string{"github.com/evil/skills"}, "refused by proj.json"},
		// a local folder matches only file:// patterns
		{`"sources": {"allowHosts": ["github.com/*"]}`, "", local, "refused by user.json"},
		{`"sources": {"allowHosts": ["file:///work/skills"]}`, "", local, "ok"},
		{`"sources": {"denyHosts": ["file://"]}`, "", local, "refused by user.json"},
		{`"sources": {"denyHosts": ["file://"]}`, "", gh, "ok"},
	} {
		e := merged(t, tc.user, tc.project)
		if got := outcome(e.CheckSource("src", tc.subjects)); got != tc.want {
			t.Errorf("user %s, project %s: CheckSource(%q) = %s, want %s", tc.user, tc.project, tc.subjects, got, tc.want)
		}
	}
}

func TestCheckPackage(t *testing.T) {
	bare := &format.Package{Bare: true}
	noKey := &format.Package{Manifest: &format.Manifest{}}
	none := &format.Package{Manifest: &format.Manifest{Capabilities: []string{}}}
	net := &format.Package{Manifest: &format.Manifest{Capabilities: []string{"runs-scripts", "network"}}}
	for _, tc := range []struct {
		user, project string
		pkg           *format.Package
		want          string
	}{
		{"", "", bare, "ok"},
		{`"capabilities": {"required": true}`, "", bare, "refused by user.json"},
		{"", `"capabilities": {"required": true}`, noKey, "refused by proj.json"},
		{`"capabilities": {"required": false}`, `"capabilities": {"required": true}`, noKey, "refused by proj.json"},
		{`"capabilities": {"required": true}`, `"capabilities": {"required": false}`, noKey, "refused by user.json"},
		{`"capabilities": {"required": true}`, "", none, "ok"},
		{`"capabilities": {"deny": ["net*"]}`, "", net, "refused by user.json"},
		{"", `"capabilities": {"deny": ["network"]}`, net, "refused by proj.json"},
		{`"capabilities": {"deny": ["network"]}`, "", none, "ok"},
	} {
		e := merged(t, tc.user, tc.project)
		if got := outcome(e.CheckPackage("x", tc.pkg)); got != tc.want {
			t.Errorf("user %s, project %s: CheckPackage = %s, want %s", tc.user, tc.project, got, tc.want)
		}
	}
}

// gateText renders a gate for comparison.
func gateText(g scan.Gate) string {
	var acc []string
	for _, a := range g.Accept {
		below := ""
		if a.Below > scan.Info {
			below = " below " + a.Below.String()
		}
		acc = append(acc, fmt.Sprintf("%s/%s by %s%s", a.Rule, a.Skill, a.By, below))
	}
	return fmt.Sprintf("blockAt=%s block=%v accept=%v", g.BlockAt, g.Block, acc)
}

func TestGateMerge(t *testing.T) {
	for _, tc := range []struct {
		name, user, project string
		allowRisk           []string
		want                string
	}{
		{"none", "", "", nil, "blockAt=critical block=[] accept=[]"},
		{"flag", "", "", []string{"hidden-bidi"}, "blockAt=critical block=[] accept=[hidden-bidi/ by --allow-risk]"},
		{"stricter blockAt wins (project)", `"scan": {"blockAt": "high"}`, `"scan": {"blockAt": "low"}`, nil, "blockAt=low block=[] accept=[]"},
		{"stricter blockAt wins (user)", `"scan": {"blockAt": "low"}`, `"scan": {"blockAt": "high"}`, nil, "blockAt=low block=[] accept=[]"},
		{"a looser blockAt than the default changes nothing", `"scan": {"blockAt": "critical"}`, "", nil, "blockAt=critical block=[] accept=[]"},
		{"block is a union", `"scan": {"block": ["hidden-bidi"]}`, `"scan": {"block": ["hidden-tag"]}`, nil, "blockAt=critical block=[hidden-bidi hidden-tag] accept=[]"},
		{"user acceptance", `"scan": {"accept": [{"rule": "hidden-*", "skills": ["a", "b"], "reason": "r"}]}`, "", nil,
			"blockAt=critical block=[] accept=[hidden-*/a by policy user.json hidden-*/b by policy user.json]"},
		{"project acceptance, expanded per rule", "", `"scan": {"accept": [{"rule": "hidden-*", "skills": ["a"], "reason": "r"}]}`, nil,
			"blockAt=critical block=[] accept=[hidden-bidi/a by policy proj.json hidden-zero-width/a by policy proj.json hidden-tag/a by policy proj.json hidden-html-comment/a by policy proj.json]"},
		{"project acceptance of what the user blocks by rule", `"scan": {"block": ["hidden-bidi"]}`, `"scan": {"accept": [{"rule": "hidden-*", "reason": "r"}]}`, nil,
			"blockAt=critical block=[hidden-bidi] accept=[hidden-zero-width/ by policy proj.json hidden-tag/ by policy proj.json hidden-html-comment/ by policy proj.json]"},
		{"project acceptance stops below the user's blockAt", `"scan": {"blockAt": "high"}`, `"scan": {"accept": [{"rule": "capability-*", "reason": "r"}]}`, nil,
			"blockAt=high block=[] accept=[capability-undeclared-scripts/ by policy proj.json below high capability-shell-tools/ by policy proj.json below high]"},
		{"project acceptance of what the user blocks by severity", `"scan": {"blockAt": "critical"}`, `"scan": {"accept": [{"rule": "hidden-bidi", "reason": "r"}]}`, nil,
			"blockAt=critical block=[] accept=[]"},
		{"acceptFromProject false", `"scan": {"acceptFromProject": false}`, `"scan": {"accept": [{"rule": "hidden-bidi", "reason": "r"}]}`, nil,
			"blockAt=critical block=[] accept=[]"},
		{"user and flag, policy first", `"scan": {"accept": [{"rule": "hidden-tag", "reason": "r"}]}`, "", []string{"hidden-bidi"},
			"blockAt=critical block=[] accept=[hidden-tag/ by policy user.json hidden-bidi/ by --allow-risk]"},
		{"allowRiskFlag true allows the flag", `"scan": {"allowRiskFlag": true}`, "", []string{"hidden-bidi"}, "blockAt=critical block=[] accept=[hidden-bidi/ by --allow-risk]"},
		{"allowRiskFlag false without the flag", `"scan": {"allowRiskFlag": false}`, "", nil, "blockAt=critical block=[] accept=[]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := merged(t, tc.user, tc.project).Gate(tc.allowRisk)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.ReplaceAll(gateText(g), "block=[]", "block=[]"); got != tc.want {
				t.Errorf("Gate(%v) = %s\n                   want %s", tc.allowRisk, got, tc.want)
			}
		})
	}
}

func TestGateRefusesTheFlag(t *testing.T) {
	for _, tc := range []struct{ user, project, want string }{
		{`"scan": {"allowRiskFlag": false}`, "", "refused by user.json"},
		{"", `"scan": {"allowRiskFlag": false}`, "refused by proj.json"},
		{`"scan": {"allowRiskFlag": false}`, `"scan": {"allowRiskFlag": true}`, "refused by user.json"},
	} {
		_, err := merged(t, tc.user, tc.project).Gate([]string{"hidden-bidi"})
		if got := outcome(err); got != tc.want {
			t.Errorf("user %s, project %s: Gate(--allow-risk) = %s, want %s", tc.user, tc.project, got, tc.want)
		}
	}
}

func TestNilEffectiveAllows(t *testing.T) {
	var e *Effective
	if err := e.CheckRegistry("x", "https://x"); err != nil {
		t.Error(err)
	}
	if err := e.CheckSource("x", []string{"github.com/a/b"}); err != nil {
		t.Error(err)
	}
	if err := e.CheckPackage("x", &format.Package{Bare: true}); err != nil {
		t.Error(err)
	}
	g, err := e.Gate(nil)
	if err != nil || g.BlockAt != scan.Critical || len(g.Accept) != 0 {
		t.Errorf("nil Gate = %+v, %v; want the default gate", g, err)
	}
	if !e.Empty() || len(e.Lines()) != 0 {
		t.Error("a nil policy has lines")
	}
}

func TestGateJudges(t *testing.T) {
	// A project accepts hidden-bidi for "fixtures"; the verdict records
	// the policy file as who accepted it.
	e := merged(t, "", `"scan": {"accept": [{"rule": "hidden-bidi", "skills": ["fixtures"], "reason": "r"}]}`)
	g, err := e.Gate(nil)
	if err != nil {
		t.Fatal(err)
	}
	r := scan.Report{Findings: []scan.Finding{{Rule: "hidden-bidi", Severity: scan.Critical}}}
	if v := g.Judge("fixtures", r); !v.OK() || len(v.Accepted) != 1 || v.Accepted[0].By != "policy proj.json" {
		t.Errorf("Judge(fixtures) = %+v, want accepted by policy proj.json", v)
	}
	if v := g.Judge("other", r); v.OK() {
		t.Errorf("Judge(other) = %+v, want blocked", v)
	}
}

func TestLinesKeepOrigins(t *testing.T) {
	e := merged(t, `"scan": {"acceptFromProject": false}, "registries": {"deny": ["public-*"]}`,
		`"scan": {"accept": [{"rule": "hidden-bidi", "reason": "fixtures"}]}`)
	var got []string
	for _, l := range e.Lines() {
		got = append(got, fmt.Sprintf("%s=%s@%s %s", l.Key, l.Value, l.Origin, l.Note))
	}
	want := []string{
		"registries.deny=public-*@user.json:1 ",
		"scan.acceptFromProject=false@user.json:1 ",
		"scan.accept=hidden-bidi (fixtures)@proj.json:1 ignored: the user's policy sets scan.acceptFromProject to false",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Lines() =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestSubject(t *testing.T) {
	for in, want := range map[string]string{
		"https://GitHub.com/acme/skills.git":     "github.com/acme/skills",
		"https://bob:pw@git.acme.com:8443/a/b/":  "git.acme.com:8443/a/b",
		"git@github.com:acme/skills.git#main":    "github.com/acme/skills",
		"ssh://git@host.example/x/y.git":         "host.example/x/y",
		"http://127.0.0.1:4000/review.zip?x=1#f": "127.0.0.1:4000/review.zip",
		"file:///work/gh/acme/skills.git":        "file:///work/gh/acme/skills.git",
		"/work/skills/../skills/x":               "file:///work/skills/x",
		"bundled:":                               "bundled:",
		"":                                       "",
	} {
		if got := Subject(in); got != want {
			t.Errorf("Subject(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMatchSubject(t *testing.T) {
	for _, tc := range []struct {
		glob, subject string
		want          bool
	}{
		{"github.com", "github.com/acme/skills", true},
		{"github.com/acme", "github.com/acme/skills", true},
		{"github.com/acme/*", "github.com/acme/skills", true},
		{"github.com/acme/*", "github.com/acme-evil/skills", false},
		{"github.com", "github.com.evil.com/acme", false},
		{"*.example.com", "evil.example.com/a/b", true},
		{"*.example.com", "example.com/a", false},
		{"127.0.0.1", "127.0.0.1:4000/x.zip", true},
		{"127.0.0.1:4000", "127.0.0.1:4000/x.zip", true},
		{"127.0.0.1:5000", "127.0.0.1:4000/x.zip", false},
		{"GitHub.com/ACME", "github.com/acme/x", true},
		{"file://", "file:///work/x", true},
		{"file:///work", "file:///work/x", true},
		{"file:///wor", "file:///work/x", false},
		{"*", "file:///work/x", true},
		{"file", "file:///work/x", false},
	} {
		if got := matchSubject(tc.glob, tc.subject); got != tc.want {
			t.Errorf("matchSubject(%q, %q) = %v, want %v", tc.glob, tc.subject, got, tc.want)
		}
	}
}
