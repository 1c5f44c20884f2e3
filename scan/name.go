package scan

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"
)

// confusables maps letters of other scripts that render like a Latin
// letter to that letter: the Cyrillic and Greek look-alikes of the
// lowercase Latin alphabet, which is what a skill name is written in. The
// standard library's script tables (unicode.Latin, unicode.Cyrillic, …)
// decide mixing; this short table names the look-alike in the message, and
// makes a name entirely in Cyrillic look-alikes ("рау") fire too. Unicode's
// full confusables list (UTS #39) is not in the standard library and would
// add thousands of pairs for a name grammar of 37 ASCII characters.
var confusables = map[rune]rune{
	'а': 'a', 'в': 'b', 'с': 'c', 'ԁ': 'd', 'е': 'e', 'һ': 'h', 'і': 'i', 'ј': 'j', 'к': 'k',
	'ӏ': 'l', 'м': 'm', 'н': 'h', 'о': 'o', 'р': 'p', 'ԛ': 'q', 'г': 'r', 'ѕ': 's', 'т': 't',
	'ц': 'u', 'ѵ': 'v', 'ԝ': 'w', 'х': 'x', 'у': 'y', 'ʐ': 'z', 'ё': 'e', 'ї': 'i',
	'α': 'a', 'β': 'b', 'ε': 'e', 'η': 'n', 'ι': 'i', 'κ': 'k', 'ν': 'v', 'ο': 'o', 'ρ': 'p',
	'τ': 't', 'υ': 'u', 'χ': 'x', 'γ': 'y', 'ω': 'w', 'μ': 'u',
	'ı': 'i', 'ɑ': 'a', 'ɡ': 'g', 'ℓ': 'l', 'ⅼ': 'l', 'ⅰ': 'i',
}

var nameScripts = []struct {
	name  string
	table *unicode.RangeTable
}{
	{"Latin", unicode.Latin}, {"Cyrillic", unicode.Cyrillic}, {"Greek", unicode.Greek},
	{"Armenian", unicode.Armenian}, {"Cherokee", unicode.Cherokee}, {"Han", unicode.Han},
	{"Arabic", unicode.Arabic}, {"Hebrew", unicode.Hebrew},
}

func scriptOf(r rune) string {
	for _, s := range nameScripts {
		if unicode.Is(s.table, r) {
			return s.name
		}
	}
	if unicode.IsLetter(r) {
		return "other"
	}
	return ""
}

// checkName reports a skill name, in skill.yaml or the front matter, that
// mixes scripts or uses letters that look like Latin ones.
func checkName(s *scanner) {
	if m := s.pkg.Manifest; m != nil && m.Name != "" {
		s.checkNameIn(m.File, m.Name)
	}
	if e := s.pkg.Entrypoint; e != nil {
		if n, ok := e.String("name"); ok && n != "" {
			s.checkNameIn(e.File, n)
		}
	}
}

func (s *scanner) checkNameIn(file, name string) {
	scripts := map[string]bool{}
	var looks []string
	var ascii strings.Builder
	nonASCII := false
	for _, r := range name {
		if r >= 0x80 {
			nonASCII = true
		}
		if sc := scriptOf(r); sc != "" {
			scripts[sc] = true
		}
		switch l, ok := confusables[r]; {
		case ok:
			looks = append(looks, fmt.Sprintf("U+%04X %c looks like %c", r, r, l))
			ascii.WriteRune(l)
		case r >= 0xFF01 && r <= 0xFF5E: // fullwidth forms
			l := r - 0xFF01 + '!'
			looks = append(looks, fmt.Sprintf("U+%04X %c looks like %c", r, r, l))
			ascii.WriteRune(unicode.ToLower(l))
		default:
			ascii.WriteRune(r)
		}
	}
	if !nonASCII || (len(scripts) < 2 && len(looks) == 0) {
		return
	}
	var msg string
	if len(scripts) >= 2 {
		var names []string
		for _, sc := range nameScripts {
			if scripts[sc.name] {
				names = append(names, sc.name)
			}
		}
		if scripts["other"] {
			names = append(names, "other")
		}
		msg = fmt.Sprintf("the name %q mixes scripts (%s)", Visible(name), strings.Join(names, ", "))
	} else {
		msg = fmt.Sprintf("the name %q is written in look-alike letters", Visible(name))
	}
	if len(looks) > 0 {
		if len(looks) > 4 {
			looks = append(looks[:4], fmt.Sprintf("%d more", len(looks)-4))
		}
		msg += fmt.Sprintf(": %s; it reads as %q", strings.Join(looks, ", "), ascii.String())
	}
	f := s.fileNamed(file)
	if f == nil {
		s.addFile(RuleHomoglyphName, file, msg)
		return
	}
	off := bytes.Index(f.data, []byte(name))
	if off < 0 {
		s.addFile(RuleHomoglyphName, file, msg)
		return
	}
	s.add(RuleHomoglyphName, f, off, off+len(name), msg)
}

func (s *scanner) fileNamed(name string) *file {
	for _, f := range s.files {
		if f.name == name {
			return f
		}
	}
	return nil
}

// addFile records a finding about a file as a whole, with no position.
func (s *scanner) addFile(rule, file, message string) {
	s.addFileAs(rule, ruleSeverity(rule), file, message)
}

func (s *scanner) addFileAs(rule string, sev Severity, file, message string) {
	k := countKey{rule, file}
	s.counts[k]++
	if s.counts[k] > s.opts.MaxPerRule {
		s.report.Omitted++
		return
	}
	s.report.Findings = append(s.report.Findings, Finding{
		Rule: rule, Severity: sev, File: file, Message: message, Fix: ruleFix(rule),
	})
}
