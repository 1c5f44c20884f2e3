package scaffold

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/validate"
)

// AdoptOptions fills in what a bare skill's front matter cannot say.
type AdoptOptions struct {
	// License is the SPDX licence expression to declare when the front
	// matter has no `license`. When both are set they must agree. When
	// neither is, the manifest declares no licence: Adopt never invents
	// one for existing work.
	License string
	// Author is optional, in the form "Name <email> (url)"; when empty, a
	// front matter `metadata.author` is used if it has that form.
	Author string
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
// to skip that check). The result is the one file skill.yaml.
//
// The manifest matches the front matter: the same name; the description
// with its whitespace folded to single spaces; the licence from the front
// matter or opts; the version from the front matter's `version`, else
// `metadata.version`, else DefaultVersion. Its files list names every
// top-level file and folder (folders with a trailing "/") except .git,
// node_modules, .agent-skills and .DS_Store, plus skill.yaml itself.
//
// Adopt refuses, with an *Error, a folder that already has a skill.yaml
// (ASK_USAGE), has no SKILL.md (ASK_ENTRYPOINT_MISSING), holds a symbolic
// link or other non-regular file at the top level (ASK_PACKAGE_UNSAFE_FILE),
// or whose front matter is unreadable (ASK_FRONTMATTER_INVALID), lacks a
// usable name or description (ASK_FRONTMATTER_FIELD_INVALID), has an invalid
// name (ASK_NAME_INVALID) or one that differs from dirName
// (ASK_NAME_MISMATCH), or an invalid version or licence
// (ASK_VERSION_INVALID, ASK_LICENSE_INVALID).
func Adopt(fsys fs.FS, dirName string, opts AdoptOptions) ([]File, error) {
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
	s, err := adoptSettings(ep, dirName, opts)
	if err != nil {
		return nil, err
	}
	m := s.manifest()
	m.kind = string(format.KindSkill)
	m.files = files
	m.header = "Written by `agent-skills create --from`. Keep name, description and version in\n" +
		"step with SKILL.md; agent-skills validate checks that they match."
	data, err := m.encode()
	if err != nil {
		return nil, err
	}
	return []File{newFile("skill.yaml", data)}, nil
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
// opts.
func adoptSettings(ep *format.Entrypoint, dirName string, opts AdoptOptions) (settings, error) {
	var s settings
	name, ok := ep.String("name")
	if !ok || name == "" {
		return s, fieldError(ep, "name", "SKILL.md front matter has no name",
			"add `name: "+suggestName(dirName)+"` to the front matter of SKILL.md")
	}
	if err := checkName(name); err != nil {
		return s, err
	}
	if dirName != "" && name != dirName {
		return s, &Error{
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
		return s, fieldError(ep, "description", "SKILL.md front matter has no description",
			"add a description that says what the skill covers and when to use it")
	case n > MaxDescriptionLen:
		return s, fieldError(ep, "description",
			fmt.Sprintf("SKILL.md description is %d characters; the limit is %d", n, MaxDescriptionLen),
			"shorten the description to what the skill covers and when to use it")
	}
	s.description = desc

	lic, err := adoptLicense(ep, opts.License)
	if err != nil {
		return s, err
	}
	s.license = lic

	version := DefaultVersion
	for _, key := range []string{"version", "metadata.version"} {
		if v := strings.TrimSpace(ep.Text(key)); v != "" {
			version = v
			break
		}
	}
	if s.version, err = checkVersion(version, DefaultVersion); err != nil {
		var e *Error
		if errors.As(err, &e) {
			e.Try = append(e.Try, "fix the version in the front matter of SKILL.md")
		}
		return s, err
	}

	switch {
	case strings.TrimSpace(opts.Author) != "":
		a, err := parseAuthor(opts.Author)
		if err != nil {
			return s, err
		}
		s.author = &a
	case ep.Text("metadata.author") != "":
		if a, err := parseAuthor(ep.Text("metadata.author")); err == nil {
			s.author = &a
		}
	}
	return s, nil
}

// adoptLicense picks the licence from the front matter or the option, and
// checks it. Both set and different is a usage error: the manifest must not
// contradict SKILL.md.
func adoptLicense(ep *format.Entrypoint, opt string) (string, error) {
	fm := strings.TrimSpace(ep.Text("license"))
	opt = strings.TrimSpace(opt)
	switch {
	case fm != "" && opt != "" && fm != opt:
		return "", usageError(
			fmt.Sprintf("SKILL.md declares license %q but %q was asked for", fm, opt),
			"drop --license to keep "+fm+", or change `license` in SKILL.md first")
	case fm == "" && opt == "":
		return "", nil
	case fm == "":
		fm = opt
	}
	return checkLicense(fm, "")
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
