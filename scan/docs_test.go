package scan

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
)

func readSection(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../docs/security.md")
	if err != nil {
		t.Fatalf("reading docs/security.md: %v", err)
	}
	_, sec, ok := strings.Cut(string(data), "\n## Content scanning\n")
	if !ok {
		t.Fatal("docs/security.md has no Content scanning section")
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	return sec
}

// TestRulesTableDocumented keeps the rule table of docs/security.md in
// step with Rules: the same rules, in the same order, with the same
// severity, checks and fix.
func TestRulesTableDocumented(t *testing.T) {
	sec := readSection(t)
	_, table, ok := strings.Cut(sec, "| Rule | Severity | Fires on | Fix |\n| --- | --- | --- | --- |\n")
	if !ok {
		t.Fatal("the Content scanning section has no rule table")
	}
	table, _, _ = strings.Cut(table, "\n\n")
	rows := strings.Split(strings.TrimSpace(table), "\n")
	rules := Rules()
	if len(rows) != len(rules) {
		t.Fatalf("docs/security.md lists %d rules, Rules() has %d", len(rows), len(rules))
	}
	for i, r := range rules {
		want := "| `" + r.ID + "` | " + r.Severity.String() + " | " + r.Checks + " | " + r.Fix + " |"
		if rows[i] != want {
			t.Errorf("docs/security.md row %d =\n%s\nwant\n%s", i+1, rows[i], want)
		}
	}
}

// docExample is one example package of the section: its rule and files.
type docExample struct {
	rule  string
	files map[string]string
}

// docExamples reads the "#### `rule`" subsections of the Examples part:
// each fenced block whose info string names a file ("markdown SKILL.md")
// is that file of the example's package.
func docExamples(t *testing.T, sec string) []docExample {
	t.Helper()
	_, ex, ok := strings.Cut(sec, "\n### Examples\n")
	if !ok {
		t.Fatal("the Content scanning section has no Examples")
	}
	var out []docExample
	lines := strings.Split(ex, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if rule, ok := strings.CutPrefix(line, "#### `"); ok {
			out = append(out, docExample{rule: strings.TrimSuffix(rule, "`"), files: map[string]string{}})
			continue
		}
		if !strings.HasPrefix(line, "```") || len(out) == 0 {
			continue
		}
		fence := line[:strings.LastIndex(line, "`")+1]
		info := strings.Fields(line[len(fence):])
		var body strings.Builder
		for i++; i < len(lines) && lines[i] != fence; i++ {
			body.WriteString(lines[i] + "\n")
		}
		if len(info) == 2 {
			out[len(out)-1].files[info[1]] = unescapeDoc(t, body.String())
		}
	}
	return out
}

// unescapeDoc turns the \uXXXX and \UXXXXXXXX the examples write for
// invisible characters into the characters.
func unescapeDoc(t *testing.T, s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (s[i+1] == 'u' || s[i+1] == 'U') {
			n := 4
			if s[i+1] == 'U' {
				n = 8
			}
			if i+2+n <= len(s) {
				if r, err := strconv.ParseUint(s[i+2:i+2+n], 16, 32); err == nil {
					b.WriteRune(rune(r))
					i += 1 + n
					continue
				}
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// TestSecurityExamples proves that each example of docs/security.md's
// Content scanning section fires exactly its rule, at the rule's
// severity, and that every rule has one example.
func TestSecurityExamples(t *testing.T) {
	examples := docExamples(t, readSection(t))
	seen := map[string]int{}
	for _, ex := range examples {
		seen[ex.rule]++
		rule, ok := Lookup(ex.rule)
		if !ok {
			t.Errorf("example for unknown rule %q", ex.rule)
			continue
		}
		if len(ex.files) == 0 {
			t.Errorf("example for %s has no file", ex.rule)
			continue
		}
		t.Run(ex.rule, func(t *testing.T) {
			m := fstest.MapFS{}
			for name, body := range ex.files {
				if name == "SKILL.md" && !strings.HasPrefix(body, "---\n") {
					body = skillHead + body
				}
				m[name] = &fstest.MapFile{Data: []byte(body), Mode: 0o644}
			}
			if _, ok := m["SKILL.md"]; !ok {
				m["SKILL.md"] = &fstest.MapFile{Data: []byte(skillHead + "Body.\n"), Mode: 0o644}
			}
			r, err := FS(m, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Findings) == 0 {
				t.Fatalf("no findings, want %s", ex.rule)
			}
			for _, f := range r.Findings {
				if f.Rule != ex.rule || f.Severity != rule.Severity {
					t.Errorf("finding %v, want only %s at %s", f, ex.rule, rule.Severity)
				}
			}
		})
	}
	for _, r := range Rules() {
		if seen[r.ID] != 1 {
			t.Errorf("rule %s has %d examples in docs/security.md, want 1", r.ID, seen[r.ID])
		}
	}
}
