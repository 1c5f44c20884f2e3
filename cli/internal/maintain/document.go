package maintain

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
)

// MaxDocumentSize bounds the audit and plan files Decode reads.
const MaxDocumentSize = 64 << 20

// maxText bounds every string field of a document read back.
const maxText = 16 << 10

// Encode returns the canonical bytes of a document: two-space indented
// JSON, no HTML escaping, a trailing newline. Keys follow the struct
// fields' order, which is fixed.
func Encode(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		// Only strings, ints, bools and slices of them.
		panic("maintain: encoding a document: " + err.Error())
	}
	return b.Bytes()
}

// DecodeAudit parses an audit file strictly (unknown keys, trailing data,
// another schema or version, an inconsistent baseline, a finding with an
// unknown source or severity or an unsafe path are CodeDocumentInvalid),
// within MaxDocumentSize. name is used only in messages.
func DecodeAudit(data []byte, name string) (*Audit, error) {
	var a Audit
	if err := decodeStrict(data, name, &a); err != nil {
		return nil, err
	}
	if a.Schema != AuditSchema || a.SchemaVersion != AuditVersion {
		return nil, invalid(name, fmt.Sprintf("it is %q version %d, not an audit (%s version %d)", a.Schema, a.SchemaVersion, AuditSchema, AuditVersion))
	}
	if err := checkCommon(name, a.Collection, &a.Baseline); err != nil {
		return nil, err
	}
	for _, f := range a.Findings {
		if err := checkEntry(name, f.ID, f.Source, f.Severity, f.Package, f.File, f.Code, f.Message, f.Fix, f.ScanSeverity); err != nil {
			return nil, err
		}
	}
	if a.Findings == nil {
		a.Findings = []Finding{}
	}
	return &a, nil
}

// DecodePlan parses a plan file as strictly as DecodeAudit.
func DecodePlan(data []byte, name string) (*Plan, error) {
	var p Plan
	if err := decodeStrict(data, name, &p); err != nil {
		return nil, err
	}
	if p.Schema != PlanSchema || p.SchemaVersion != PlanVersion {
		return nil, invalid(name, fmt.Sprintf("it is %q version %d, not a plan (%s version %d)", p.Schema, p.SchemaVersion, PlanSchema, PlanVersion))
	}
	if err := checkCommon(name, p.Collection, &p.Baseline); err != nil {
		return nil, err
	}
	if len(p.Steps) > 1 {
		return nil, invalid(name, "it has more than one automatic step")
	}
	for _, s := range p.Steps {
		if s.Action != ActionCatalogSync || s.File != "skills-catalog.json" {
			return nil, invalid(name, fmt.Sprintf("step %q on %q is not an automatic step this agent-skills knows", s.Action, s.File))
		}
	}
	for _, h := range p.Handoffs {
		if err := checkEntry(name, h.Finding, h.Source, h.Severity, h.Package, h.File, h.Code, h.Message, h.Action); err != nil {
			return nil, err
		}
	}
	if p.Steps == nil {
		p.Steps = []Step{}
	}
	if p.Handoffs == nil {
		p.Handoffs = []Handoff{}
	}
	return &p, nil
}

func decodeStrict(data []byte, name string, v any) error {
	if len(data) > MaxDocumentSize {
		return invalid(name, fmt.Sprintf("it is larger than %d bytes", MaxDocumentSize))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return invalid(name, "it is not valid: "+err.Error())
	}
	if dec.More() {
		return invalid(name, "it has data after the document")
	}
	return nil
}

// checkCommon checks a document's collection id and baseline.
func checkCommon(name, id string, b *Baseline) error {
	if id == "" || len(id) > 255 || strings.ContainsAny(id, "/\\\x00") {
		return invalid(name, fmt.Sprintf("its collection id %q is not a folder name", id))
	}
	for _, p := range b.Packages {
		if !fs.ValidPath(p.Path) || len(p.Digest) > 128 {
			return invalid(name, fmt.Sprintf("its baseline lists a package at %q", p.Path))
		}
	}
	if len(b.Catalog) > 128 || !b.Consistent() {
		return invalid(name, "its baseline digest does not match the packages and catalog it lists (was it edited?)")
	}
	return nil
}

// checkEntry checks a finding's or handoff's fields.
func checkEntry(name, id, source, severity, pkg, file string, text ...string) error {
	switch source {
	case SourceValidate, SourceCatalog, SourceSecurity:
	default:
		return invalid(name, fmt.Sprintf("finding %q has the unknown source %q", id, source))
	}
	switch severity {
	case SeverityError, SeverityWarning, SeverityInfo:
	default:
		return invalid(name, fmt.Sprintf("finding %q has the unknown severity %q", id, severity))
	}
	if id == "" || len(id) > 64 {
		return invalid(name, "a finding has no id, or one too long")
	}
	for _, p := range []string{pkg, file} {
		if p != "" && !fs.ValidPath(p) {
			return invalid(name, fmt.Sprintf("finding %q names the path %q, which is not a clean relative path", id, p))
		}
	}
	for _, t := range text {
		if len(t) > maxText {
			return invalid(name, fmt.Sprintf("finding %q has a field longer than %d bytes", id, maxText))
		}
	}
	return nil
}

func invalid(name, why string) error {
	return &askerr.Error{Code: CodeDocumentInvalid, Message: fmt.Sprintf("%s cannot be used: %s", name, why),
		Try: []string{"give the file collection audit (or collection plan) wrote, unchanged; or run it again"}}
}
