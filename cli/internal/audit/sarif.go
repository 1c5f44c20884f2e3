package audit

import (
	"fmt"

	"github.com/agent-skills/agent-skills/scan"
)

// SARIFSchema is the $schema every SARIF log names: the OASIS SARIF 2.1.0
// schema (errata 01), the one vendored under testdata/.
const SARIFSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

// FingerprintKey is the partialFingerprints key results carry
// Finding.Fingerprint() under; the "/v1" is bumped if the fingerprint's
// recipe ever changes.
const FingerprintKey = "agentSkillsFinding/v1"

// Tool names the analysis tool in a SARIF log.
type Tool struct {
	Name           string
	Version        string
	InformationURI string
}

// Log is a SARIF 2.1.0 log: the subset of the format audit writes.
type Log struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []Run  `json:"runs"`
}

// Run is the one run of an audit.
type Run struct {
	Tool       SARIFTool     `json:"tool"`
	Results    []SARIFResult `json:"results"`
	ColumnKind string        `json:"columnKind"`
}

// SARIFTool is a run's tool: its driver.
type SARIFTool struct {
	Driver Driver `json:"driver"`
}

// Driver describes agent-skills and every scan rule.
type Driver struct {
	Name           string       `json:"name"`
	Version        string       `json:"version,omitempty"`
	InformationURI string       `json:"informationUri,omitempty"`
	Rules          []Descriptor `json:"rules"`
}

// Descriptor is a rule (a SARIF reportingDescriptor).
type Descriptor struct {
	ID                   string         `json:"id"`
	Name                 string         `json:"name,omitempty"`
	ShortDescription     Message        `json:"shortDescription"`
	FullDescription      Message        `json:"fullDescription"`
	Help                 Message        `json:"help"`
	DefaultConfiguration Configuration  `json:"defaultConfiguration"`
	Properties           map[string]any `json:"properties"`
}

// Configuration is a rule's default configuration: its level.
type Configuration struct {
	Level string `json:"level"`
}

// Message is a SARIF message or multiformat string.
type Message struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

// SARIFResult is one finding (a SARIF result).
type SARIFResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             Message           `json:"message"`
	Locations           []Location        `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Properties          map[string]any    `json:"properties,omitempty"`
}

// Location is a result's place.
type Location struct {
	PhysicalLocation PhysicalLocation `json:"physicalLocation"`
}

// PhysicalLocation is a file and, for a finding in its text, a region.
type PhysicalLocation struct {
	ArtifactLocation ArtifactLocation `json:"artifactLocation"`
	Region           *Region          `json:"region,omitempty"`
}

// ArtifactLocation is a file, relative to the folder its uriBaseId stands
// for.
type ArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

// Region is where on its line a finding starts; Col counts code points
// (the run's columnKind).
type Region struct {
	StartLine   int      `json:"startLine"`
	StartColumn int      `json:"startColumn,omitempty"`
	Snippet     *Message `json:"snippet,omitempty"`
}

// Level returns the SARIF level of a severity: critical and high are
// "error", medium "warning", low and info "note".
func Level(s scan.Severity) string {
	switch {
	case s >= scan.High:
		return "error"
	case s == scan.Medium:
		return "warning"
	}
	return "note"
}

// SecuritySeverity returns the score GitHub code scanning reads from a
// rule's properties.security-severity: above 9.0 is critical, 7.0–8.9
// high, 4.0–6.9 medium, 0.1–3.9 low, and 0.0 (info) none.
func SecuritySeverity(s scan.Severity) string {
	switch s {
	case scan.Critical:
		return "9.5"
	case scan.High:
		return "8.0"
	case scan.Medium:
		return "5.5"
	case scan.Low:
		return "2.0"
	}
	return "0.0"
}

// descriptor describes rule r.
func descriptor(r scan.Rule) Descriptor {
	family := r.Family
	if family == "" {
		family = "content"
	}
	return Descriptor{
		ID:               r.ID,
		Name:             r.Title,
		ShortDescription: Message{Text: r.Title},
		FullDescription:  Message{Text: "Fires on " + r.Checks + "."},
		Help: Message{
			Text:     fmt.Sprintf("%s (%s). Fires on %s. Fix: %s.", r.Title, r.Severity, r.Checks, r.Fix),
			Markdown: fmt.Sprintf("**%s** (severity %s)\n\nFires on %s.\n\n**Fix:** %s.\n\nSee docs/security.md of agent-skills for every rule.", r.Title, r.Severity, r.Checks, r.Fix),
		},
		DefaultConfiguration: Configuration{Level: Level(r.Severity)},
		Properties: map[string]any{
			"security-severity": SecuritySeverity(r.Severity),
			"tags":              []string{"security", "agent-skills", family},
			"precision":         "high",
		},
	}
}

// SARIF renders res as a SARIF 2.1.0 log with one run for GitHub code
// scanning and other SARIF consumers: the driver lists every rule of
// scan.Rules (and any other rule a finding names), and each finding is a
// result with its rule, level, message, the file relative to its target's
// base (uriBaseId Target.Base) and, for a finding in the text, the line,
// the code-point column and the excerpt as snippet. Skipped targets and
// targets without a base (Place was not called) add no results.
func SARIF(res Result, tool Tool) Log {
	drv := Driver{Name: tool.Name, Version: tool.Version, InformationURI: tool.InformationURI, Rules: []Descriptor{}}
	index := map[string]int{}
	for _, r := range scan.Rules() {
		index[r.ID] = len(drv.Rules)
		drv.Rules = append(drv.Rules, descriptor(r))
	}
	results := []SARIFResult{}
	for _, p := range res.Packages {
		if p.Base == "" {
			continue
		}
		for _, f := range p.Report.Findings {
			i, ok := index[f.Rule]
			if !ok {
				r, known := scan.Lookup(f.Rule)
				if !known {
					r = scan.Rule{ID: f.Rule, Severity: f.Severity, Title: f.Rule, Checks: f.Message, Fix: f.Fix}
				}
				i = len(drv.Rules)
				index[f.Rule] = i
				drv.Rules = append(drv.Rules, descriptor(r))
			}
			loc := PhysicalLocation{ArtifactLocation: ArtifactLocation{URI: FileURI(p.Rel, f.File), URIBaseID: p.Base}}
			if f.Line > 0 {
				loc.Region = &Region{StartLine: f.Line, StartColumn: max(f.Col, 1)}
				if f.Excerpt != "" {
					loc.Region.Snippet = &Message{Text: f.Excerpt}
				}
			}
			msg := f.Message
			if f.Fix != "" {
				msg += ". Fix: " + f.Fix
			}
			results = append(results, SARIFResult{
				RuleID:              f.Rule,
				RuleIndex:           i,
				Level:               Level(f.Severity),
				Message:             Message{Text: msg},
				Locations:           []Location{{PhysicalLocation: loc}},
				PartialFingerprints: map[string]string{FingerprintKey: f.Fingerprint()},
				Properties:          map[string]any{"severity": f.Severity.String(), "package": p.Name},
			})
		}
	}
	return Log{
		Schema:  SARIFSchema,
		Version: "2.1.0",
		Runs:    []Run{{Tool: SARIFTool{Driver: drv}, Results: results, ColumnKind: "unicodeCodePoints"}},
	}
}
