package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/atomicfile"
	"github.com/agent-skills/agent-skills/cli/internal/redact"
	"github.com/agent-skills/agent-skills/registry"
)

// ProjectFileName is the project registries file, committed at the project
// root beside skills.lock (docs/registry.md#project-registries).
const ProjectFileName = "skills-registries.json"

// ProjectSchemaVersion is the project file format this build reads and
// writes.
const ProjectSchemaVersion = 1

// maxProjectFile bounds the bytes read from a project file: it comes from
// whoever committed the project.
const maxProjectFile = 1 << 20

// Project is a project's skills-registries.json: the registries a team
// shares through its repository. It holds locations only — never trust,
// credentials or an insecure-transport opt-in, which are each user's own
// decisions in config.json.
type Project struct {
	SchemaVersion int               `json:"schemaVersion"`
	Registries    []ProjectRegistry `json:"registries"`
}

// ProjectRegistry is one registry of a project file. A relative path (a
// local registry, or a git repository given by path) is relative to the
// project root and written with forward slashes, so the file means the
// same on every machine.
type ProjectRegistry struct {
	Name string `json:"name"`
	URL  string `json:"url"`
	Kind string `json:"kind,omitempty"`
	Ref  string `json:"ref,omitempty"`
	// Line is where the entry's name is in the file (0 when unknown), for
	// messages.
	Line int `json:"-"`
}

// Problem is one thing wrong with a project file: the line it is on (0
// when unknown) and what.
type Problem struct {
	Line    int
	Message string
}

// ProjectError is a project file that cannot be used, with every problem
// found in it: a cloned project is untrusted input, so nothing in a file
// with a problem is used.
type ProjectError struct {
	File     string
	Problems []Problem
	// Err is set when the file could not be read at all.
	Err error
}

func (e *ProjectError) Error() string {
	if len(e.Problems) == 1 {
		return e.File + ": " + e.line(e.Problems[0])
	}
	return fmt.Sprintf("%s cannot be used: %d problems", e.File, len(e.Problems))
}

// line renders a problem with its line number.
func (e *ProjectError) line(p Problem) string {
	if p.Line > 0 {
		return fmt.Sprintf("line %d: %s", p.Line, p.Message)
	}
	return p.Message
}

// ErrorCode returns ASK_PROJECT_REGISTRIES_INVALID, or ASK_IO when the
// file could not be read.
func (e *ProjectError) ErrorCode() string {
	if e.Err != nil {
		return askerr.CodeIO
	}
	return CodeProjectRegistriesInvalid
}

// ErrorDetail lists every problem when there are several, and says that
// none of the file was used.
func (e *ProjectError) ErrorDetail() []string {
	var out []string
	if len(e.Problems) > 1 {
		for _, p := range e.Problems {
			out = append(out, e.File+": "+e.line(p))
		}
	}
	return append(out, "None of its registries is used while it has a problem; your own registries are unaffected.")
}

// ErrorTry says how to recover.
func (e *ProjectError) ErrorTry() []string {
	if e.Err != nil {
		return []string{"check the permissions of " + e.File}
	}
	return []string{
		"fix " + e.File + " (it is committed with the project: tell whoever changed it), or remove an entry: agent-skills registry remove --project <name>",
		"--global   (global installs never read a project's registries)",
	}
}

// Unwrap returns the read failure, if any.
func (e *ProjectError) Unwrap() error { return e.Err }

// ProjectPath returns the project file of the project at root.
func ProjectPath(root string) string { return filepath.Join(root, ProjectFileName) }

// LoadProject reads the project file at the project root; nil and no
// error when there is none. The file must be a regular file (not a link)
// of at most 1 MiB, and every entry must pass CheckProject.
func LoadProject(root string) (*Project, error) {
	data, err := ReadProject(root)
	if data == nil || err != nil {
		return nil, err
	}
	return ParseProject(data, ProjectPath(root))
}

// ReadProject returns the bytes of the project file at root; nil and no
// error when there is none.
func ReadProject(root string) ([]byte, error) {
	file := ProjectPath(root)
	data, err := atomicfile.ReadPlain(file, false, maxProjectFile)
	switch {
	case errors.Is(err, atomicfile.ErrNotPlain):
		return nil, &ProjectError{File: file, Problems: []Problem{{Message: "is not a regular file (a link or a folder); agent-skills reads it only as a plain file"}}}
	case errors.Is(err, atomicfile.ErrTooLarge):
		return nil, &ProjectError{File: file, Problems: []Problem{{Message: "is larger than 1 MiB"}}}
	case err != nil:
		return nil, &ProjectError{File: file, Problems: []Problem{{Message: "cannot read the file: " + err.Error()}}, Err: err}
	}
	return data, nil
}

// ParseProject decodes a project file's bytes and checks every entry
// (CheckProject), reporting every problem at once.
func ParseProject(data []byte, file string) (*Project, error) {
	p, err := DecodeProject(data, file)
	if err != nil {
		return nil, err
	}
	var probs []Problem
	seen := map[string]bool{}
	for _, r := range p.Registries {
		if seen[r.Name] {
			probs = append(probs, Problem{r.Line, fmt.Sprintf("registry %q is listed twice", r.Name)})
			continue
		}
		seen[r.Name] = true
		for _, why := range CheckProject(r) {
			probs = append(probs, Problem{r.Line, fmt.Sprintf("registry %q: %s", r.Name, why)})
		}
	}
	if len(probs) > 0 {
		return nil, &ProjectError{File: file, Problems: probs}
	}
	return p, nil
}

// DecodeProject decodes a project file's bytes without checking its
// entries, so that `registry remove --project` can repair a file that
// ParseProject refuses. Unknown keys are refused; "trusted" with a
// message of its own, since trust is never a project's to give.
func DecodeProject(data []byte, file string) (*Project, error) {
	var p Project
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		ce := decodeError(data, file, err).(*Error)
		msg := ce.Message
		switch msg {
		case `unknown key "trusted"`:
			msg += ": trust is each user's own decision, so a project file cannot set it (project registries own only the names no registry of the user's has)"
		case `unknown key "agents"`:
			msg += ": " + projectAgentsRefused
		}
		return nil, &ProjectError{File: file, Problems: []Problem{{ce.Line, msg}}}
	}
	if dec.More() {
		return nil, &ProjectError{File: file, Problems: []Problem{{lineAt(data, int(dec.InputOffset())), "unexpected data after the JSON object"}}}
	}
	if p.SchemaVersion == 0 {
		p.SchemaVersion = ProjectSchemaVersion
	}
	if p.SchemaVersion > ProjectSchemaVersion {
		return nil, &ProjectError{File: file, Problems: []Problem{{lineOf(data, `"schemaVersion"`),
			fmt.Sprintf("schemaVersion %d is newer than this agent-skills understands (%d); upgrade agent-skills", p.SchemaVersion, ProjectSchemaVersion)}}}
	}
	for i := range p.Registries {
		p.Registries[i].Line = lineOfName(data, -(i + 1))
	}
	return &p, nil
}

// projectAgentsRefused says why a project file defines no agents: an
// agent's roots are where agent-skills writes and deletes, and its
// detection names executables and folders it looks for. From a cloned
// project even a root inside it could aim installs at .git/hooks, a
// build script's folder or another tool's configuration, and an agent
// "detected" by the project's own marker would be installed for on every
// teammate's machine without being asked (docs/security.md).
const projectAgentsRefused = "a project file cannot define or change agents (their folders are where agent-skills writes and deletes); " +
	"each user defines custom agents in their own config.json (docs/cli.md#custom-agents)"

// projectReserved are the names a project file cannot define, besides
// those no registry may have: the two every user has by default. A
// project redefining one would change what "official:x" or a lock entry
// naming "official" means on every teammate's machine.
var projectReserved = map[string]string{
	"bundled":  "it names the collection inside agent-skills, which every user has",
	"official": "it names the public registry every user has by default",
}

// CheckProject returns every reason the project entry r cannot be used,
// none when it can: the name rules of CheckRegistryName plus the names
// bundled and official; a URL, and no password in it (a committed file
// never holds credentials); a kind a project may name (local, git or
// http, or none to infer it); a ref only for git. What opening the
// registry checks besides (plain http to a remote host, refs and URLs
// git must not be given) is checked where it is opened.
func CheckProject(r ProjectRegistry) []string {
	var out []string
	if why, ok := projectReserved[r.Name]; ok {
		out = append(out, "the name "+r.Name+" is reserved: "+why+"; choose another name")
	} else if why := CheckRegistryName(r.Name, r.Kind); why != "" {
		out = append(out, why)
	}
	if r.URL == "" {
		out = append(out, "url is empty")
	} else if redact.HasPassword(r.URL) {
		out = append(out, "the URL "+redact.URL(r.URL)+" carries a password; a committed file never holds credentials (store it in your git credential helper and write the URL without it)")
	}
	kind := r.Kind
	switch kind {
	case "":
		kind = registry.InferKind(r.URL)
	case KindLocal, KindGit, KindHTTP, KindOCI:
	case KindBundled:
		out = append(out, "a project cannot add the bundled collection: every user has it")
	default:
		out = append(out, fmt.Sprintf("kind %q is not one of local, git, http, oci", r.Kind))
	}
	if r.Ref != "" && kind != KindGit {
		out = append(out, "ref applies to git registries only")
	}
	return out
}

// Registry returns the entry called name.
func (p *Project) Registry(name string) (ProjectRegistry, bool) {
	for _, r := range p.Registries {
		if r.Name == name {
			return r, true
		}
	}
	return ProjectRegistry{}, false
}

// Resolve returns the configured registry r stands for in the project at
// root: its kind inferred when the file leaves it out, a relative path
// made absolute against root, and trusted — a project registry owns the
// names no earlier registry has, which its place in the list (after the
// user's own) decides.
func (r ProjectRegistry) Resolve(root string) Registry {
	kind := r.Kind
	if kind == "" {
		kind = registry.InferKind(r.URL)
	}
	url, ref := r.URL, r.Ref
	if base, frag, ok := strings.Cut(url, "#"); ok && kind == KindGit && ref == "" {
		url, ref = base, frag
	}
	if IsPath(url) && !filepath.IsAbs(filepath.FromSlash(url)) {
		url = filepath.Join(root, filepath.FromSlash(url))
	}
	return Registry{Name: r.Name, URL: url, Kind: kind, Ref: ref, Trusted: true}
}

// IsPath reports whether url is a file-system path rather than a URL
// (scheme://…, git@host:path or bundled:).
func IsPath(url string) bool {
	if strings.Contains(url, "://") || url == BundledURL {
		return false
	}
	if i := strings.Index(url, ":"); i > 0 && !strings.ContainsAny(url[:i], "/\\") && len(url[:i]) > 1 {
		return false // git@host:org/repo, host:path (a drive letter C: stays a path)
	}
	return true
}

// Encode returns the canonical bytes of the project file: indented JSON
// with a trailing newline.
func (p *Project) Encode() []byte {
	c := *p
	c.SchemaVersion = ProjectSchemaVersion
	if c.Registries == nil {
		c.Registries = []ProjectRegistry{}
	}
	out, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		// Project holds only strings and ints.
		panic(err)
	}
	return append(out, '\n')
}

// SaveProject writes p as the project file of root atomically, or removes
// the file when p lists no registry. It writes the entries as they are:
// the caller checks a new one (CheckProject) before adding it, and
// removing an entry from a file with problems must not be refused for the
// problems of the others.
func SaveProject(root string, p *Project) error {
	file := ProjectPath(root)
	if len(p.Registries) == 0 {
		if err := os.Remove(file); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	return atomicfile.WriteFile(file, p.Encode(), 0o644)
}
