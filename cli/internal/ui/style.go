package ui

// Style colours terminal output; with colour off every method returns its
// argument unchanged.
type Style struct{ Color bool }

// sgrCodes are the only Select Graphic Rendition parameters Style writes.
// The terminal backstop lets exactly these sequences through and escapes
// every other one, so a colour added here must be listed.
var sgrCodes = []string{"0", "1", "2", "31", "32", "33"}

func (s Style) wrap(code, text string) string {
	if !s.Color {
		return text
	}
	return sgr(code) + text + sgr("0")
}

// sgr returns the escape sequence that sets the rendition code.
func sgr(code string) string { return "\x1b[" + code + "m" }

// Sequences returns the escape sequences the terminal backstop lets
// through: the style's own colours, or none when colour is off.
func (s Style) Sequences() []string {
	if !s.Color {
		return nil
	}
	out := make([]string, len(sgrCodes))
	for i, c := range sgrCodes {
		out[i] = sgr(c)
	}
	return out
}

// Red colours t red: errors and refusals.
func (s Style) Red(t string) string { return s.wrap("31", t) }

// Yellow colours t yellow: warnings.
func (s Style) Yellow(t string) string { return s.wrap("33", t) }

// Green colours t green: what was done.
func (s Style) Green(t string) string { return s.wrap("32", t) }

// Bold sets t in bold: headings and "Try:".
func (s Style) Bold(t string) string { return s.wrap("1", t) }

// Dim sets t faint: notes and skips.
func (s Style) Dim(t string) string { return s.wrap("2", t) }
