package policy

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/scan"
)

const full = `{
  "schemaVersion": 1,
  "registries": {"allow": ["acme-*"], "deny": ["public-*"]},
  "sources": {
    "direct": true,
    "allowHosts": ["github.com/acme/*"],
    "denyHosts": ["*.example.com"]
  },
  "scan": {
    "blockAt": "high",
    "block": ["hidden-*"],
    "accept": [
      {"rule": "hidden-zero-width", "skills": ["tls-fixtures"], "reason": "test data"}
    ],
    "allowRiskFlag": false,
    "acceptFromProject": false
  },
  "capabilities": {"required": true, "deny": ["network"]}
}
`

func TestParseFull(t *testing.T) {
	f, err := Parse([]byte(full), "policy.json", false)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Registries.Deny.Patterns; len(got) != 1 || got[0].Glob != "public-*" || got[0].Line != 3 {
		t.Errorf("registries.deny = %+v, want public-* at line 3", got)
	}
	if got := f.Sources.DenyHosts.Patterns; len(got) != 1 || got[0].Line != 7 {
		t.Errorf("sources.denyHosts = %+v, want line 7", got)
	}
	if !f.Sources.Direct.Set || !f.Sources.Direct.Value || f.Sources.Direct.Line != 5 {
		t.Errorf("sources.direct = %+v, want true at line 5", f.Sources.Direct)
	}
	if !f.Scan.BlockAtSet || f.Scan.BlockAt != scan.High || f.Scan.BlockAtOrigin.Line != 10 {
		t.Errorf("scan.blockAt = %v %v, want high at line 10", f.Scan.BlockAt, f.Scan.BlockAtOrigin)
	}
	if len(f.Scan.Accept) != 1 || f.Scan.Accept[0].Line != 13 || f.Scan.Accept[0].Reason != "test data" {
		t.Errorf("scan.accept = %+v, want one at line 13", f.Scan.Accept)
	}
	if a := f.Scan.AllowRiskFlag; !a.Set || a.Value || a.Line != 15 {
		t.Errorf("scan.allowRiskFlag = %+v, want false at line 15", a)
	}
	if r := f.Capabilities.Required; !r.Set || !r.Value || r.Line != 18 {
		t.Errorf("capabilities.required = %+v, want true at line 18", r)
	}
}

func TestParseProblems(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		project    bool
		want       []string // each "line: substring"
	}{
		{"unknown top key", "{\"schemaVersion\": 1,\n \"registry\": {}}", false, []string{`2: unknown key "registry"`}},
		{"unknown nested key", "{\"schemaVersion\": 1,\n \"scan\": {\n \"blockat\": \"high\"}}", false, []string{`3: unknown key "scan.blockat"`}},
		{"unknown accept key", "{\"schemaVersion\": 1, \"scan\": {\"accept\": [\n{\"rule\": \"hidden-bidi\", \"reason\": \"x\", \"skill\": \"a\"}]}}", false, []string{`2: unknown key "scan.accept[0].skill"`}},
		{"repeated key", "{\"schemaVersion\": 1,\n\"sources\": {\"direct\": false,\n\"direct\": true}}", false, []string{`3: the key "sources.direct" is repeated`}},
		{"no schema", `{}`, false, []string{"schemaVersion is missing"}},
		{"newer schema", `{"schemaVersion": 2}`, false, []string{"1: schemaVersion 2 is newer"}},
		{"type", "{\"schemaVersion\": 1,\n\"sources\": {\"direct\": \"no\"}}", false, []string{"2: sources.direct must be true or false"}},
		{"list type", "{\"schemaVersion\": 1,\n\"registries\": {\"deny\": \"public-*\"}}", false, []string{"2: registries.deny must be a list of strings"}},
		{"object where list", "{\"schemaVersion\": 1,\n\"registries\": {\"deny\": {\"a\": 1}}}", false, []string{"2: registries.deny: an object is not allowed here"}},
		{"bad glob", "{\"schemaVersion\": 1, \"registries\": {\n\"deny\": [\"[a-\"]}}", false, []string{"2: registries.deny[0]: \"[a-\": not a valid glob"}},
		{"scheme in host", "{\"schemaVersion\": 1, \"sources\": {\n\"denyHosts\": [\"https://evil.com\"]}}", false, []string{"2: sources.denyHosts[0]"}},
		{"unknown rule", "{\"schemaVersion\": 1, \"scan\": {\n\"block\": [\"hidden-bdi\"]}}", false, []string{"2: scan.block[0]: \"hidden-bdi\": names no rule"}},
		{"bad severity", "{\"schemaVersion\": 1, \"scan\": {\n\"blockAt\": \"severe\"}}", false, []string{"2: scan.blockAt: unknown severity"}},
		{"accept without reason", "{\"schemaVersion\": 1, \"scan\": {\"accept\": [\n{\"rule\": \"hidden-bidi\"}]}}", false, []string{"2: scan.accept[0]: reason is missing"}},
		{"accept empty skills", "{\"schemaVersion\": 1, \"scan\": {\"accept\": [{\"rule\": \"hidden-bidi\", \"reason\": \"r\",\n\"skills\": []}]}}", false, []string{"2: scan.accept[0].skills is empty"}},
		{"project sets acceptFromProject", "{\"schemaVersion\": 1, \"scan\": {\n\"acceptFromProject\": true}}", true, []string{"2: scan.acceptFromProject is the user's decision"}},
		{"every problem", "{\"schemaVersion\": 1, \"scan\": {\n\"block\": [\"nope\"],\n\"blockAt\": \"x\"}}", false, []string{"2: scan.block[0]", "3: scan.blockAt"}},
		{"not json", "{\"schemaVersion\": 1,\n,}", false, []string{"2: not valid JSON"}},
		{"truncated", "{\"schemaVersion\": 1,\n", false, []string{"not valid JSON"}},
		{"empty", "", false, []string{"the file is empty"}},
		{"array", "[1]", false, []string{"a policy is a JSON object"}},
		{"trailing", "{\"schemaVersion\": 1}\n{}", false, []string{"2: unexpected data after the JSON object"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.data), "p.json", tc.project)
			var ie *InvalidError
			if !errors.As(err, &ie) {
				t.Fatalf("Parse(%q) = %v, want an InvalidError", tc.data, err)
			}
			if askerr.CodeOf(err) != CodePolicyInvalid {
				t.Errorf("code = %s, want %s", askerr.CodeOf(err), CodePolicyInvalid)
			}
			if len(ie.Problems) != len(tc.want) {
				t.Fatalf("Parse(%q) problems = %+v, want %d", tc.data, ie.Problems, len(tc.want))
			}
			for i, w := range tc.want {
				p := ie.Problems[i]
				got := p.Message
				if p.Line > 0 {
					got = itoa(p.Line) + ": " + p.Message
				}
				if !strings.Contains(got, w) {
					t.Errorf("problem %d = %q, want it to contain %q", i, got, w)
				}
			}
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestReadRefusesLinksAndLargeFiles(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.json")
	if err := os.WriteFile(real, []byte(`{"schemaVersion": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, ProjectFileName)
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(link, true); askerr.CodeOf(err) != CodePolicyInvalid || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("Load(project link) = %v, want ASK_POLICY_INVALID: not a regular file", err)
	}
	if f, err := Load(link, false); err != nil || f == nil {
		t.Errorf("Load(user link) = %v, %v; want the file it points at", f, err)
	}
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, []byte(`{"schemaVersion": 1, "x": "`+strings.Repeat("a", maxFile)+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(big, false); err == nil || !strings.Contains(err.Error(), "larger than 1 MiB") {
		t.Errorf("Load(big) = %v, want larger than 1 MiB", err)
	}
	if f, err := Load(filepath.Join(dir, "none.json"), true); f != nil || err != nil {
		t.Errorf("Load(missing) = %v, %v; want nil, nil", f, err)
	}
}
