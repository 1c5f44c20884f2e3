package scan

// Rule describes one check: its stable id, its default severity, what it
// looks for and the fix every finding of it carries.
type Rule struct {
	ID       string   `json:"id"`
	Severity Severity `json:"severity"`
	// Family groups rules in docs and SARIF: "hidden", "injection",
	// "exec", "exfiltration", "secret" or "capability".
	Family string `json:"family"`
	// Title is a one-line name for the rule.
	Title string `json:"title"`
	// Checks says, in a sentence, what makes the rule fire.
	Checks string `json:"checks"`
	// Fix is what an author does about a finding.
	Fix string `json:"fix"`
}

// The rule ids. They are part of the interface: policies, --allow-risk and
// receipts name them.
const (
	RuleHiddenBidi      = "hidden-bidi"
	RuleHiddenZeroWidth = "hidden-zero-width"
	RuleHiddenTag       = "hidden-tag"
)

// rules is the table every rule is registered in; Rules returns a copy.
var rules = []Rule{
	{ID: RuleHiddenBidi, Severity: Critical, Family: "hidden",
		Title:  "Bidirectional control character",
		Checks: "a bidirectional embedding, override or isolate (U+202A–U+202E, U+2066–U+2069) in a file's text or name: it reorders what a reader sees against what an agent reads",
		Fix:    "delete the control character; write right-to-left text without explicit overrides"},
	{ID: RuleHiddenZeroWidth, Severity: Critical, Family: "hidden",
		Title:  "Invisible character",
		Checks: "a zero-width or invisible character (U+200B–U+200D, U+2060–U+2064, U+FEFF after the start of the file, U+180E, Hangul fillers) outside its legitimate use in emoji sequences and joining scripts",
		Fix:    "delete the invisible character"},
	{ID: RuleHiddenTag, Severity: Critical, Family: "hidden",
		Title:  "Unicode tag character",
		Checks: "a Unicode tag character (U+E0000–U+E007F) outside an emoji flag sequence: tags render as nothing but spell text an agent reads",
		Fix:    "delete the tag characters"},
}

// Rules returns every rule, in the order of the documentation.
func Rules() []Rule { return append([]Rule(nil), rules...) }

// Lookup returns the rule with the given id.
func Lookup(id string) (Rule, bool) {
	for _, r := range rules {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}

func ruleSeverity(id string) Severity {
	r, ok := Lookup(id)
	if !ok {
		panic("scan: unregistered rule " + id)
	}
	return r.Severity
}

func ruleFix(id string) string {
	r, _ := Lookup(id)
	return r.Fix
}

// textChecks run over the text of every file that is not binary, in order;
// packageChecks run once per package after every file was read.
var (
	textChecks    = []func(*scanner, *file){checkHidden}
	packageChecks []func(*scanner)
)
