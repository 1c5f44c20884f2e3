package scaffold

import (
	"cmp"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/validate"
)

// Defaults applied by New when an Options field is empty.
const (
	// DefaultLicense is the SPDX licence a new package declares when none is
	// given.
	DefaultLicense = "Apache-2.0"
	// DefaultVersion is the version a new package starts at.
	DefaultVersion = "0.1.0"
	// MaxDescriptionLen is the longest description, in characters, that the
	// Agent Skills specification allows.
	MaxDescriptionLen = 1024
)

// Options says what package New generates. Only Name is required.
type Options struct {
	// Name is the package name; it is also the folder the CLI creates.
	Name string
	// Kind is skill, command or workflow; empty means skill.
	Kind format.Kind
	// Description says what the package covers and when to use it. When
	// empty, a description is built from the name.
	Description string
	// License is an SPDX licence expression; empty means DefaultLicense.
	License string
	// Author is optional; "Name", "Name <email>" and
	// "Name <email> (url)" are accepted.
	Author string
	// Version is a strict semantic version; empty means DefaultVersion.
	Version string
}

// settings are Options after defaults and checks: every field is usable as
// is by the generators.
type settings struct {
	name        string
	kind        format.Kind
	description string
	license     string
	licenseFrom string // the free text license was made from (Adopt); "" otherwise
	author      *author
	version     string
}

// resolve checks opts and fills in defaults. Problems come back as *Error in
// a fixed order: name first, because every other default depends on it.
func (opts Options) resolve() (settings, error) {
	if err := checkName(opts.Name); err != nil {
		return settings{}, err
	}
	s := settings{name: opts.Name}
	switch opts.Kind {
	case "":
		s.kind = format.KindSkill
	case format.KindSkill, format.KindCommand, format.KindWorkflow:
		s.kind = opts.Kind
	default:
		return settings{}, usageError(
			fmt.Sprintf("kind %q is unknown; the kinds are skill, command and workflow", string(opts.Kind)),
			"pass --kind skill, --kind command or --kind workflow")
	}
	desc, err := checkDescription(opts.Description)
	if err != nil {
		return settings{}, err
	}
	if desc == "" {
		desc = defaultDescription(s.kind, s.name)
	}
	s.description = desc
	if s.license, err = checkLicense(opts.License, DefaultLicense); err != nil {
		return settings{}, err
	}
	if s.version, err = checkVersion(opts.Version, DefaultVersion); err != nil {
		return settings{}, err
	}
	if strings.TrimSpace(opts.Author) != "" {
		a, err := parseAuthor(opts.Author)
		if err != nil {
			return settings{}, err
		}
		s.author = &a
	}
	return s, nil
}

// checkDescription trims d and rejects what cannot be a one-line routing
// description: anything but printable text and spaces (line breaks, tabs,
// control, format and bidirectional characters) and more than
// MaxDescriptionLen characters. An empty result means "use the default".
func checkDescription(d string) (string, error) {
	d = strings.TrimSpace(d)
	if !utf8.ValidString(d) {
		return "", usageError("description is not valid UTF-8",
			"pass the description as UTF-8 text")
	}
	if i := strings.IndexFunc(d, notText); i >= 0 {
		r, _ := utf8.DecodeRuneInString(d[i:])
		return "", usageError(
			fmt.Sprintf("description contains %U at byte %d, which is not printable text; it must be one line of text", r, i+1),
			"write the description on one line, without tabs, line breaks or invisible characters")
	}
	if n := utf8.RuneCountInString(d); n > MaxDescriptionLen {
		return "", usageError(
			fmt.Sprintf("description is %d characters; the limit is %d", n, MaxDescriptionLen),
			"shorten the description to what the package covers and when to use it; move detail into the body")
	}
	return d, nil
}

// notText reports whether r is not printable text or a space: control
// characters, line and paragraph separators, format characters such as
// bidirectional overrides and zero-width spaces, and unassigned or private
// code points.
func notText(r rune) bool { return !unicode.IsGraphic(r) }

// checkLicense returns lic, or def when lic is empty, after checking it
// with validate.CheckLicense: an SPDX expression, LicenseRef-… or
// UNLICENSED. A deprecated SPDX identifier, only a warning for validate,
// is refused, because a new manifest must pass strict validation.
func checkLicense(lic, def string) (string, error) {
	lic = cmp.Or(strings.TrimSpace(lic), def)
	if err := validate.CheckLicense(lic); err != nil {
		return "", problemError(err)
	}
	return lic, nil
}

// checkVersion returns v, or def when v is empty, after checking with
// validate.CheckVersion that it is a strict semantic version.
func checkVersion(v, def string) (string, error) {
	v = cmp.Or(strings.TrimSpace(v), def)
	if err := validate.CheckVersion(v); err != nil {
		return "", problemError(err)
	}
	return v, nil
}

// problemError turns the *validate.Problem of a single-value check into
// an *Error with the same code and message, and the problem's fix as the
// next action.
func problemError(err error) error {
	var p *validate.Problem
	if err == nil || !errors.As(err, &p) {
		return err
	}
	e := &Error{Code: p.Code, Message: p.Message}
	if p.Fix != "" {
		e.Try = []string{p.Fix}
	}
	return e
}

// defaultDescription builds a description that passes the routing test: it
// says what the package covers and when to use it.
func defaultDescription(kind format.Kind, name string) string {
	topic := phraseFromName(name)
	switch kind {
	case format.KindCommand:
		return fmt.Sprintf("Runs the %s procedure on the files or topic given as arguments. "+
			"Use when you want a repeatable %s pass over specific input.", topic, topic)
	case format.KindWorkflow:
		return fmt.Sprintf("Coordinates %s in phases: plan, carry out and verify. "+
			"Use when %s needs several steps that should run the same way every time.", topic, topic)
	}
	return fmt.Sprintf("Guidance for %s: the steps to follow and the rules to respect. "+
		"Use when a task involves %s or the user asks for help with it.", topic, topic)
}
