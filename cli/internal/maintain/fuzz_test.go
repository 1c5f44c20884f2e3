package maintain

import (
	"testing"
)

// FuzzDecode feeds audit and plan decoding arbitrary bytes: they must
// never panic, and what they accept must encode and decode again to the
// same document.
func FuzzDecode(f *testing.F) {
	a := &Audit{Schema: AuditSchema, SchemaVersion: AuditVersion, Collection: "c", Findings: []Finding{},
		Baseline: Baseline{Catalog: CatalogAbsent, Packages: []PackageState{{Path: "a", Digest: "sha256-x"}}}}
	a.Baseline.seal()
	a.Findings = append(a.Findings, Finding{ID: "v-000000000000", Source: SourceValidate, Code: "ASK_X", Severity: SeverityError, Package: "a", File: "SKILL.md", Message: "m"})
	f.Add(Encode(a))
	f.Add(Encode(NewPlan(a)))
	f.Add([]byte(`{"schema": "agent-skills/collection-plan", "schemaVersion": 1}`))
	f.Add([]byte("{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if a, err := DecodeAudit(data, "f"); err == nil {
			if _, err := DecodeAudit(Encode(a), "f"); err != nil {
				t.Fatalf("an accepted audit does not decode again: %v", err)
			}
			NewPlan(a)
		}
		if p, err := DecodePlan(data, "f"); err == nil {
			if _, err := DecodePlan(Encode(p), "f"); err != nil {
				t.Fatalf("an accepted plan does not decode again: %v", err)
			}
		}
	})
}
