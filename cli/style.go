package cli

// style colours terminal output; with colour off every method returns its
// argument unchanged.
type style struct{ color bool }

// sgrCodes are the only Select Graphic Rendition parameters style writes.
// The terminal backstop (see run) lets exactly these sequences through
// and escapes every other one, so a colour added here must be listed.
var sgrCodes = []string{"0", "1", "2", "31", "32", "33"}

func (s style) wrap(code, text string) string {
	if !s.color {
		return text
	}
	return sgr(code) + text + sgr("0")
}

// sgr returns the escape sequence that sets the rendition code.
func sgr(code string) string { return "\x1b[" + code + "m" }

// sequences returns the escape sequences the terminal backstop lets
// through: style's own colours, or none when colour is off.
func (s style) sequences() []string {
	if !s.color {
		return nil
	}
	out := make([]string, len(sgrCodes))
	for i, c := range sgrCodes {
		out[i] = sgr(c)
	}
	return out
}

func (s style) red(t string) string    { return s.wrap("31", t) }
func (s style) yellow(t string) string { return s.wrap("33", t) }
func (s style) green(t string) string  { return s.wrap("32", t) }
func (s style) bold(t string) string   { return s.wrap("1", t) }
func (s style) dim(t string) string    { return s.wrap("2", t) }
