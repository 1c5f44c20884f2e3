package audit

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agent-skills/agent-skills/scan"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// sarifSchemaSHA256 is the digest of the vendored schema (testdata/README.md).
const sarifSchemaSHA256 = "ad389db5a66fad5c131178b0e1f18600ac625616cd5ea20a00ee8ee246dc7069"

// sarifSchema compiles the vendored SARIF 2.1.0 schema (testdata/README.md)
// with format assertions on, so that uri-reference and the like are checked.
func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != sarifSchemaSHA256 {
		t.Fatalf("testdata/sarif-schema-2.1.0.json has SHA-256 %x, want %s: the vendored schema must stay as published", sum, sarifSchemaSHA256)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	// The published schema has one defect: region's anyOf (a region needs
	// startLine, charOffset or byteOffset) sits inside region.properties,
	// where the 2020-12 metaschema refuses it. Move it where it was meant
	// to be, which also makes the check it states apply.
	region := doc.(map[string]any)["definitions"].(map[string]any)["region"].(map[string]any)
	props := region["properties"].(map[string]any)
	anyOf, ok := props["anyOf"]
	if !ok {
		t.Fatal("the vendored schema no longer has region.properties.anyOf: drop the repair in sarifSchema")
	}
	delete(props, "anyOf")
	region["anyOf"] = anyOf
	id := doc.(map[string]any)["$id"].(string)
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(id, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(id)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// validateSARIF validates the encoded log against the schema and against
// the subset GitHub code scanning requires of an upload: a ruleId on every
// result naming a rule of the driver at ruleIndex, a valid level, at least
// one location whose uri is relative (no scheme, no leading "/") with a
// uriBaseId, and startLine ≥ 1 wherever a region is given.
func validateSARIF(t *testing.T, sch *jsonschema.Schema, b []byte) {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("the SARIF log does not validate against the schema: %v\n%s", err, b)
	}
	var log Log
	if err := json.Unmarshal(b, &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(log.Runs))
	}
	run := log.Runs[0]
	if run.Tool.Driver.Name == "" || run.ColumnKind != "unicodeCodePoints" {
		t.Errorf("driver name %q, columnKind %q", run.Tool.Driver.Name, run.ColumnKind)
	}
	for _, r := range run.Tool.Driver.Rules {
		if r.ID == "" || !slices.Contains([]string{"error", "warning", "note", "none"}, r.DefaultConfiguration.Level) || r.Help.Text == "" {
			t.Errorf("rule %+v: want an id, a valid default level and help", r)
		}
		if _, ok := r.Properties["security-severity"].(string); !ok {
			t.Errorf("rule %s has no security-severity string", r.ID)
		}
	}
	for i, res := range run.Results {
		if res.RuleID == "" {
			t.Errorf("result %d has no ruleId", i)
		}
		if res.RuleIndex < 0 || res.RuleIndex >= len(run.Tool.Driver.Rules) || run.Tool.Driver.Rules[res.RuleIndex].ID != res.RuleID {
			t.Errorf("result %d: ruleIndex %d does not name rule %s", i, res.RuleIndex, res.RuleID)
		}
		if !slices.Contains([]string{"error", "warning", "note", "none"}, res.Level) {
			t.Errorf("result %d: level %q", i, res.Level)
		}
		if len(res.Locations) == 0 {
			t.Errorf("result %d has no location", i)
		}
		for _, l := range res.Locations {
			al := l.PhysicalLocation.ArtifactLocation
			u, err := url.Parse(al.URI)
			if err != nil || u.Scheme != "" || u.IsAbs() || strings.HasPrefix(al.URI, "/") || al.URIBaseID == "" {
				t.Errorf("result %d: uri %q (base %q) is not a relative reference with a base", i, al.URI, al.URIBaseID)
			}
			if r := l.PhysicalLocation.Region; r != nil && (r.StartLine < 1 || r.StartColumn < 1) {
				t.Errorf("result %d: region %+v, want startLine and startColumn ≥ 1", i, r)
			}
		}
		if res.PartialFingerprints[FingerprintKey] == "" {
			t.Errorf("result %d has no partial fingerprint", i)
		}
	}
}

var testTool = Tool{Name: "agent-skills", Version: "0.1.0-test", InformationURI: "https://github.com/agent-skills/agent-skills"}

// TestSARIFValidates audits a real collection — findings in text, in a
// file name holding a bidi control, and a clean package — and validates
// the log.
func TestSARIFValidates(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"skills/bad/SKILL.md":                skill("bad", hostileBody),
		"skills/bad/references/gpj.\u202emd": "x\n",
		"skills/bad/references/tag.md":       "tags: \U000E0069\U000E0067\U000E006E\n",
		"skills/clean/SKILL.md":              skill("clean", "Fine."),
	})
	targets, err := Folder(root)
	if err != nil {
		t.Fatal(err)
	}
	for i := range targets {
		if !targets[i].Place("%SRCROOT%", root) {
			t.Fatalf("Place(%s) failed", targets[i].Dir)
		}
	}
	res, err := Scan(context.Background(), targets, scan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(SARIF(res, testTool))
	if err != nil {
		t.Fatal(err)
	}
	validateSARIF(t, sarifSchema(t), b)

	var log Log
	if err := json.Unmarshal(b, &log); err != nil {
		t.Fatal(err)
	}
	got := map[string]SARIFResult{}
	for _, r := range log.Runs[0].Results {
		got[r.RuleID+" "+r.Locations[0].PhysicalLocation.ArtifactLocation.URI] = r
	}
	zw, ok := got["hidden-zero-width skills/bad/SKILL.md"]
	if !ok {
		t.Fatalf("no hidden-zero-width result for skills/bad/SKILL.md in %v", got)
	}
	if r := zw.Locations[0].PhysicalLocation.Region; r == nil || r.StartLine != 6 || r.StartColumn != 6 || !strings.Contains(r.Snippet.Text, "<U+200B>") {
		t.Errorf("zero-width region = %+v, want line 6, column 6, the excerpt as snippet", r)
	}
	if zw.Level != "error" || zw.Properties["severity"] != "critical" {
		t.Errorf("zero-width level %q, severity %v; want error, critical", zw.Level, zw.Properties["severity"])
	}
	name, ok := got["hidden-bidi skills/bad/references/gpj.%E2%80%AEmd"]
	if !ok {
		t.Fatalf("no result for the file name with a bidi control in %v", got)
	}
	if name.Locations[0].PhysicalLocation.Region != nil {
		t.Errorf("a finding about a file name has region %+v, want none", name.Locations[0].PhysicalLocation.Region)
	}
	if _, ok := got["hidden-tag skills/bad/references/tag.md"]; !ok {
		t.Errorf("no hidden-tag result in %v", got)
	}
	if len(log.Runs[0].Tool.Driver.Rules) < len(scan.Rules()) {
		t.Errorf("driver lists %d rules, want every one of scan.Rules (%d)", len(log.Runs[0].Tool.Driver.Rules), len(scan.Rules()))
	}
}

// TestSARIFSchemaCatchesMistakes proves the validation can fail: logs the
// schema or GitHub's subset refuse are refused.
func TestSARIFSchemaCatchesMistakes(t *testing.T) {
	sch := sarifSchema(t)
	good := SARIF(Result{Packages: []Package{{
		Target: Target{Base: "%SRCROOT%", Rel: "a", Name: "a"},
		Report: scan.Report{Findings: []scan.Finding{{Rule: scan.RuleHiddenBidi, Severity: scan.Critical, File: "SKILL.md", Line: 2, Col: 3, Message: "m"}}},
	}}}, testTool)
	for name, mutate := range map[string]func(m map[string]any){
		"wrong version":   func(m map[string]any) { m["version"] = "2.0.0" },
		"unknown level":   func(m map[string]any) { result(m)["level"] = "fatal" },
		"line zero":       func(m map[string]any) { region(m)["startLine"] = 0 },
		"region no line":  func(m map[string]any) { delete(region(m), "startLine") },
		"unknown key":     func(m map[string]any) { result(m)["severity"] = "critical" },
		"no message text": func(m map[string]any) { result(m)["message"] = map[string]any{} },
	} {
		t.Run(name, func(t *testing.T) {
			b, _ := json.Marshal(good)
			var m map[string]any
			json.Unmarshal(b, &m)
			mutate(m)
			b, _ = json.Marshal(m)
			inst, _ := jsonschema.UnmarshalJSON(bytes.NewReader(b))
			if err := sch.Validate(inst); err == nil {
				t.Errorf("the schema accepts a log with %s", name)
			}
		})
	}
	b, _ := json.Marshal(good)
	validateSARIF(t, sch, b)
}

func result(m map[string]any) map[string]any {
	return m["runs"].([]any)[0].(map[string]any)["results"].([]any)[0].(map[string]any)
}

func region(m map[string]any) map[string]any {
	loc := result(m)["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)
	return loc["region"].(map[string]any)
}

func TestLevelAndSecuritySeverity(t *testing.T) {
	for _, c := range []struct {
		s            scan.Severity
		level, score string
	}{
		{scan.Critical, "error", "9.5"}, {scan.High, "error", "8.0"}, {scan.Medium, "warning", "5.5"},
		{scan.Low, "note", "2.0"}, {scan.Info, "note", "0.0"},
	} {
		if l, s := Level(c.s), SecuritySeverity(c.s); l != c.level || s != c.score {
			t.Errorf("Level, SecuritySeverity(%s) = %s, %s; want %s, %s", c.s, l, s, c.level, c.score)
		}
	}
}
