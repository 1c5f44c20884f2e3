package scaffold

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/scan"
	"github.com/agent-skills/agent-skills/validate"
)

// AdoptOptions fills in what a bare skill's front matter cannot say.
type AdoptOptions struct {
	// License is the licence expression to declare instead of the front
	// matter's: it replaces a free-text `license`, and must agree with one
	// that is already a valid licence expression. When neither is set,
	// the manifest declares no licence: Adopt never invents one for
	// existing work.
	License string
	// Author is optional, in the form "Name <email> (url)"; when empty, a
	// front matter `metadata.author` is used if it has that form.
	Author string
}

// Adoption is what Adopt made of a bare skill.
type Adoption struct {
	// Files is the one file skill.yaml.
	Files []File
	// Notes say, one sentence each and prefixed with the field, where
	// Adopt decided something SKILL.md did not say as such: a free-text
	// licence rewritten as SEE LICENSE IN <file> or LicenseRef-…, a
	// metadata.version left as client metadata, the default version.
	Notes []string
}

// ignoredEntry reports whether a top-level entry is left out of an adopted
// manifest's files list. These are the names format.Load skips.
func ignoredEntry(name string) bool {
	switch name {
	case ".git", "node_modules", ".agent-skills", ".DS_Store":
		return true
	}
	return false
}

// Adopt turns a bare skill (a folder holding a SKILL.md but no skill.yaml)
// into a package by generating its manifest. fsys is the skill's folder and
// dirName the folder's name, which must equal the front matter name (pass ""
// to skip that check).
//
// The manifest matches the front matter: the same name; the description
// with its whitespace folded to single spaces; the licence (see below); the
// version from the front matter's `version`, else `metadata.version` when
// it is a strict semantic version, else DefaultVersion. A `metadata.version`
// that is not strict semver (`1.0`, `v2`) is client metadata, as the Agent
// Skills specification has it: it stays in SKILL.md, and a note says the
// package starts at DefaultVersion. Its files list names every top-level
// file and folder (folders with a trailing "/") except .git, node_modules,
// .agent-skills and .DS_Store, plus skill.yaml itself.
//
// The licence is opts.License when given (it overrides a free-text one),
// else the front matter's when that is a valid licence expression. Free
// text, which the specification allows there ("Proprietary. LICENSE.txt
// has complete terms"), becomes "SEE LICENSE IN <file>" when it names a
// file of the folder, and "LicenseRef-<its words>" otherwise, with a note.
//
// Adopt refuses, with an *Error, a folder that already has a skill.yaml
// (ASK_USAGE), has no SKILL.md (ASK_ENTRYPOINT_MISSING), holds a symbolic
// link or other non-regular file at the top level (ASK_PACKAGE_UNSAFE_FILE),
// or whose front matter is unreadable (ASK_FRONTMATTER_INVALID), lacks a
// usable name or description (ASK_FRONTMATTER_FIELD_INVALID), has an invalid
// name (ASK_NAME_INVALID) or one that differs from dirName
// (ASK_NAME_MISMATCH), an invalid top-level `version` (ASK_VERSION_INVALID)
// or a licence value that is written wrongly (a deprecated SPDX identifier,
// SEE LICENSE IN a missing file: ASK_LICENSE_INVALID).
func Adopt(fsys fs.FS, dirName string, opts AdoptOptions) (*Adoption, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, &Error{
			Code:    CodeUsage,
			Message: fmt.Sprintf("cannot read the folder %s: %v", displayDir(dirName), err),
			Try:     []string{"pass the path of an existing skill folder to --from"},
		}
	}
	files, entry, err := topLevelFiles(entries, dirName)
	if err != nil {
		return nil, err
	}
	ep, err := readEntrypoint(fsys, entry, dirName)
	if err != nil {
		return nil, err
	}
	s, notes, err := adoptSettings(fsys, ep, dirName, opts)
	if err != nil {
		return nil, err
	}
	m := s.manifest()
	m.kind = string(format.KindSkill)
	m.files = files
	m.licenseFrom = s.licenseFrom
	if why := shipsCode(fsys); why != "" {
		m.capabilities = []string{scan.CapabilityRunsScripts}
		notes = append(notes, fmt.Sprintf("capabilities: [%s], since %s: users and policies see that the skill runs code", scan.CapabilityRunsScripts, why))
	}
	m.header = "Written by `agent-skills create --from`. Keep name, description and version in\n" +
		"step with SKILL.md; agent-skills validate checks that they match."
	data, err := m.encode()
	if err != nil {
		return nil, err
	}
	return &Adoption{Files: []File{newFile("skill.yaml", data)}, Notes: notes}, nil
}

// topLevelFiles builds the files list from the folder's entries and returns
// the SKILL.md entry. It refuses a folder that already has a manifest, has
// no SKILL.md, or holds anything but regular files and folders.
func topLevelFiles(entries []fs.DirEntry, dirName string) ([]string, fs.DirEntry, error) {
	var (
		files []string
		skill fs.DirEntry
	)
	for _, e := range entries {
		name := e.Name()
		if !ignoredEntry(name) {
			// A name some system cannot create, or one with a control
			// character, would also be a manifest entry no YAML reader
			// takes back: refuse it as every source kind does.
			if err := format.CheckPath(name); err != nil {
				return nil, nil, &Error{
					Code:    format.CodePackageUnsafeFile,
					Message: fmt.Sprintf("%s: %v", displayDir(dirName), err),
					Try:     []string{"rename or remove the file, then run create --from again"},
				}
			}
		}
		switch {
		case ignoredEntry(name):
			continue
		case name == "skill.yaml":
			return nil, nil, &Error{
				Code:    CodeUsage,
				Message: fmt.Sprintf("%s already has a manifest (skill.yaml)", displayDir(dirName)),
				Try: []string{
					"run agent-skills validate on the folder to check the existing manifest",
					"delete skill.yaml first if you want it generated again from SKILL.md",
				},
			}
		case e.Type()&fs.ModeType != 0 && !e.IsDir():
			return nil, nil, &Error{
				Code:    format.CodePackageUnsafeFile,
				Message: fmt.Sprintf("%s is a %s, not a regular file or folder; packages may not contain one", name, typeName(e.Type())),
				Try:     []string{"replace " + name + " with a copy of what it points to, or move it out of the folder"},
			}
		case e.IsDir():
			files = append(files, name+"/")
		default:
			files = append(files, name)
			if name == "SKILL.md" {
				skill = e
			}
		}
	}
	if skill == nil {
		return nil, nil, &Error{
			Code:    format.CodeEntrypointMissing,
			Message: fmt.Sprintf("%s has no SKILL.md, so there is no skill to adopt", displayDir(dirName)),
			Detail:  []string{"Only bare skills (a folder with a SKILL.md) can be adopted."},
			Try: []string{
				"add a SKILL.md with name and description front matter, then run create --from again",
				"start a command or workflow with agent-skills create <name> --kind command|workflow",
			},
		}
	}
	files = append(files, "skill.yaml")
	return sortedUnique(files), skill, nil
}

// readEntrypoint reads and decodes SKILL.md, refusing files larger than the
// format's entrypoint limit before reading them.
func readEntrypoint(fsys fs.FS, entry fs.DirEntry, dirName string) (*format.Entrypoint, error) {
	info, err := entry.Info()
	if err == nil && info.Size() > format.DefaultMaxEntrypointSize {
		return nil, &Error{
			Code: format.CodePackageTooLarge,
			Message: fmt.Sprintf("SKILL.md is %d bytes; the limit is %d bytes",
				info.Size(), format.DefaultMaxEntrypointSize),
			Try: []string{"move long material from SKILL.md into files under references/ and link to them"},
		}
	}
	data, err := fs.ReadFile(fsys, "SKILL.md")
	if err != nil {
		return nil, &Error{
			Code:    format.CodeEntrypointMissing,
			Message: fmt.Sprintf("cannot read SKILL.md in %s: %v", displayDir(dirName), err),
			Try:     []string{"check that SKILL.md is a readable file"},
		}
	}
	ep, diags := format.DecodeEntrypoint(data, "SKILL.md", format.KindSkill)
	if diags.HasErrors() || ep == nil {
		e := &Error{Code: format.CodeFrontMatterInvalid, Diagnostics: diags}
		var msgs []string
		for _, d := range diags {
			if d.Severity != format.SeverityError {
				continue
			}
			if len(msgs) == 0 {
				e.Code = d.Code
				if d.Fix != "" {
					e.Try = append(e.Try, d.Fix)
				}
			}
			msgs = append(msgs, d.String())
		}
		if len(msgs) == 0 {
			msgs = append(msgs, "SKILL.md cannot be decoded")
		}
		e.Message = "cannot adopt: " + strings.Join(msgs, "; ")
		return nil, e
	}
	return ep, nil
}

// adoptSettings derives the manifest settings from the front matter and
// opts, with a note for each decision the front matter did not make.
func adoptSettings(fsys fs.FS, ep *format.Entrypoint, dirName string, opts AdoptOptions) (settings, []string, error) {
	var s settings
	var notes []string
	name, ok := ep.String("name")
	if !ok || name == "" {
		return s, nil, fieldError(ep, "name", "SKILL.md front matter has no name",
			"add `name: "+suggestName(dirName)+"` to the front matter of SKILL.md")
	}
	if err := checkName(name); err != nil {
		return s, nil, err
	}
	if dirName != "" && name != dirName {
		return s, nil, &Error{
			Code:    validate.CodeNameMismatch,
			Message: fmt.Sprintf("SKILL.md is named %q but its folder is %q; they must be equal", name, dirName),
			Try:     []string{"rename the folder to " + name + ", or change `name` in SKILL.md to " + dirName},
		}
	}
	s.name = name
	s.kind = format.KindSkill

	desc, _ := ep.String("description")
	desc = strings.Join(strings.Fields(desc), " ")
	switch n := utf8.RuneCountInString(desc); {
	case n == 0:
		return s, nil, fieldError(ep, "description", "SKILL.md front matter has no description",
			"add a description that says what the skill covers and when to use it")
	case n > MaxDescriptionLen:
		return s, nil, fieldError(ep, "description",
			fmt.Sprintf("SKILL.md description is %d characters; the limit is %d", n, MaxDescriptionLen),
			"shorten the description to what the skill covers and when to use it")
	}
	s.description = desc

	lic, err := adoptLicense(fsys, ep.Text("license"), opts.License)
	if err != nil {
		return s, nil, err
	}
	s.license, s.licenseFrom = lic.expr, lic.from
	if lic.note != "" {
		notes = append(notes, lic.note)
	}

	version, note, err := adoptVersion(ep)
	if err != nil {
		return s, nil, err
	}
	s.version = version
	if note != "" {
		notes = append(notes, note)
	}

	switch {
	case strings.TrimSpace(opts.Author) != "":
		a, err := parseAuthor(opts.Author)
		if err != nil {
			return s, nil, err
		}
		s.author = &a
	case ep.Text("metadata.author") != "":
		if a, err := parseAuthor(ep.Text("metadata.author")); err == nil {
			s.author = &a
		}
	}
	return s, notes, nil
}

// adoptVersion picks the package version: the front matter's `version`,
// which must be strict semver (validate requires the manifest's to equal
// it); else `metadata.version` when it is strict semver; else
// DefaultVersion with a note. metadata is the specification's client
// metadata, free to hold "1.0" or "2024-06": such a value is not the
// package's version and stays where it is.
func adoptVersion(ep *format.Entrypoint) (string, string, error) {
	if v := strings.TrimSpace(ep.Text("version")); v != "" {
		version, err := checkVersion(v, DefaultVersion)
		if err != nil {
			var e *Error
			if errors.As(err, &e) {
				e.Try = append(e.Try, "fix the version in the front matter of SKILL.md")
			}
			return "", "", err
		}
		return version, "", nil
	}
	mv := strings.TrimSpace(ep.Text("metadata.version"))
	switch {
	case mv != "" && validate.CheckVersion(mv) == nil:
		return mv, "", nil
	case mv != "":
		return DefaultVersion, fmt.Sprintf("version: %s; SKILL.md's metadata.version %q is not a semantic version, so it stays client metadata and the package starts at %s",
			DefaultVersion, mv, DefaultVersion), nil
	}
	return DefaultVersion, fmt.Sprintf("version: %s; SKILL.md declares no version", DefaultVersion), nil
}

// fieldError is an ASK_FRONTMATTER_FIELD_INVALID error pointing at a front
// matter field.
func fieldError(ep *format.Entrypoint, field, msg, hint string) *Error {
	if pos := ep.Pos(field); pos.Line > 0 {
		msg = fmt.Sprintf("SKILL.md:%d:%d: %s", pos.Line, max(pos.Col, 1), msg)
	}
	return &Error{Code: validate.CodeFrontMatterFieldInvalid, Message: msg, Try: []string{hint}}
}

// displayDir names the adopted folder in messages.
func displayDir(dirName string) string {
	if dirName == "" {
		return "the folder"
	}
	return "folder " + dirName
}

// typeName describes a non-regular file mode in words.
func typeName(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m&fs.ModeDevice != 0:
		return "device file"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	}
	return "special file"
}

// sortedUnique sorts paths by byte order and drops duplicates.
func sortedUnique(paths []string) []string {
	out := make([]string, 0, len(paths))
	seen := map[string]bool{}
	for _, p := range paths {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// shipsCode says why the folder's skill runs code — a script or program it
// ships, or a shell its allowed-tools grants, even one limited to named
// commands — as the content scanner judges it (the capability rules, which
// for a bare skill report info), or "" when it does not.
func shipsCode(fsys fs.FS) string {
	rep, err := scan.FS(fsys, scan.Options{})
	if err != nil {
		return ""
	}
	for _, f := range rep.Findings {
		switch f.Rule {
		case scan.RuleCapabilityScripts:
			return f.File + " ships code"
		case scan.RuleCapabilityShell:
			return "allowed-tools grants a shell"
		}
	}
	return ""
}
