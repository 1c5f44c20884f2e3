package policy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/atomicfile"
	"github.com/agent-skills/agent-skills/scan"
)

// The policy files' names.
const (
	// UserFileName is the user's policy, in $AGENT_SKILLS_HOME.
	UserFileName = "policy.json"
	// ProjectFileName is the project's policy, at the project root beside
	// skills.lock.
	ProjectFileName = "skills-policy.json"
)

// SchemaVersion is the policy format this build reads.
const SchemaVersion = 1

// maxFile bounds the bytes read from a policy file.
const maxFile = 1 << 20

// Origin is where a policy line comes from: a file and a line in it.
type Origin struct {
	File string `json:"file"`
	Line int    `json:"line,omitempty"`
}

// String returns "file:line", or the file when the line is unknown.
func (o Origin) String() string {
	if o.Line > 0 {
		return o.File + ":" + strconv.Itoa(o.Line)
	}
	return o.File
}

// Pattern is one glob of a list, with its origin.
type Pattern struct {
	Glob string
	Origin
}

// List is an allow or deny list of one file; Set is false when the file
// does not have the key (an absent allow list allows everything).
type List struct {
	Set      bool
	Origin   Origin
	Patterns []Pattern
}

// Bool is a switch of one file; Set is false when the file leaves it out.
type Bool struct {
	Set, Value bool
	Origin
}

// Accept is one scan acceptance of a file: the rule (an id or a glob of
// ids), the skills it covers (globs; none means every skill), and why.
type Accept struct {
	Rule   string
	Skills []string
	Reason string
	Origin
}

// File is one decoded, checked policy file.
type File struct {
	// Path is the file's path, as named in every origin.
	Path string
	// Project is true for a project's skills-policy.json.
	Project bool

	Registries struct{ Allow, Deny List }
	Sources    struct {
		Direct                Bool
		AllowHosts, DenyHosts List
	}
	Scan struct {
		// BlockAt is the lowest severity that blocks; BlockAtSet is false
		// when the file leaves it out.
		BlockAt           scan.Severity
		BlockAtSet        bool
		BlockAtOrigin     Origin
		Block             List
		Accept            []Accept
		AllowRiskFlag     Bool
		AcceptFromProject Bool
	}
	Capabilities struct {
		Required Bool
		Deny     List
	}
}

// Read returns the bytes of the policy file at file; nil and no error
// when there is none. A project's file must be a regular file, not a
// link (a cloned project could point it at a device or a pipe); the
// user's may be a link to one. Either is at most 1 MiB.
func Read(file string, project bool) ([]byte, error) {
	data, err := atomicfile.ReadPlain(file, !project, maxFile)
	switch {
	case errors.Is(err, atomicfile.ErrNotPlain):
		return nil, &InvalidError{File: file, Problems: []Problem{{Message: "is not a regular file (a link, a folder or a device); agent-skills reads a policy only as a plain file"}}}
	case errors.Is(err, atomicfile.ErrTooLarge):
		return nil, &InvalidError{File: file, Problems: []Problem{{Message: "is larger than 1 MiB"}}}
	case err != nil:
		return nil, &InvalidError{File: file, Problems: []Problem{{Message: "cannot read the file: " + err.Error()}}, Err: err}
	}
	return data, nil
}

// Load reads and parses the policy file at file; nil and no error when
// there is none.
func Load(file string, project bool) (*File, error) {
	data, err := Read(file, project)
	if data == nil || err != nil {
		return nil, err
	}
	return Parse(data, file, project)
}

// The file's keys, by the path of the object that holds them ("[]" for
// an element of a list).
var schema = map[string][]string{
	"":              {"schemaVersion", "registries", "sources", "scan", "capabilities"},
	"registries":    {"allow", "deny"},
	"sources":       {"direct", "allowHosts", "denyHosts"},
	"scan":          {"blockAt", "block", "accept", "allowRiskFlag", "acceptFromProject"},
	"scan.accept[]": {"rule", "skills", "reason"},
	"capabilities":  {"required", "deny"},
}

type rawFile struct {
	SchemaVersion *int `json:"schemaVersion"`
	Registries    *struct {
		Allow *[]string `json:"allow"`
		Deny  *[]string `json:"deny"`
	} `json:"registries"`
	Sources *struct {
		Direct     *bool     `json:"direct"`
		AllowHosts *[]string `json:"allowHosts"`
		DenyHosts  *[]string `json:"denyHosts"`
	} `json:"sources"`
	Scan *struct {
		BlockAt *string   `json:"blockAt"`
		Block   *[]string `json:"block"`
		Accept  []struct {
			Rule   string    `json:"rule"`
			Skills *[]string `json:"skills"`
			Reason string    `json:"reason"`
		} `json:"accept"`
		AllowRiskFlag     *bool `json:"allowRiskFlag"`
		AcceptFromProject *bool `json:"acceptFromProject"`
	} `json:"scan"`
	Capabilities *struct {
		Required *bool     `json:"required"`
		Deny     *[]string `json:"deny"`
	} `json:"capabilities"`
}

// Parse decodes and checks a policy file's bytes; file names it in
// messages and origins, project says whether it is a project's file.
// Every problem is reported at once, each with its line; a file with any
// problem is refused whole.
func Parse(data []byte, file string, project bool) (*File, error) {
	lines, err := walk(data)
	if err != nil {
		return nil, &InvalidError{File: file, Problems: []Problem{*err}}
	}
	var raw rawFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		var te *json.UnmarshalTypeError
		p := Problem{Message: err.Error()}
		if errors.As(err, &te) {
			p = Problem{lineAt(data, int(te.Offset)), fmt.Sprintf("%s must be %s, not %s", te.Field, jsonType(te.Type.String()), te.Value)}
		}
		return nil, &InvalidError{File: file, Problems: []Problem{p}}
	}
	c := checker{file: file, lines: lines, project: project}
	f := c.build(&raw)
	if len(c.probs) > 0 {
		slices.SortStableFunc(c.probs, func(a, b Problem) int { return a.Line - b.Line })
		return nil, &InvalidError{File: file, Problems: c.probs}
	}
	return f, nil
}

// jsonType names a Go type as the JSON a user writes.
func jsonType(t string) string {
	switch {
	case strings.HasPrefix(t, "[]"), strings.HasPrefix(t, "*[]"):
		return "a list of strings"
	case strings.Contains(t, "bool"):
		return "true or false"
	case strings.Contains(t, "int"):
		return "a number"
	case strings.Contains(t, "string"):
		return "a string"
	}
	return "an object"
}

// checker builds a File from the raw decoding, collecting problems.
type checker struct {
	file    string
	project bool
	lines   map[string]int
	probs   []Problem
}

func (c *checker) at(key string) Origin { return Origin{File: c.file, Line: c.lines[key]} }

func (c *checker) problem(key, format string, args ...any) {
	c.probs = append(c.probs, Problem{c.lines[key], fmt.Sprintf(format, args...)})
}

func (c *checker) build(raw *rawFile) *File {
	f := &File{Path: c.file, Project: c.project}
	switch {
	case raw.SchemaVersion == nil:
		c.problem("", "schemaVersion is missing; write \"schemaVersion\": %d", SchemaVersion)
	case *raw.SchemaVersion > SchemaVersion:
		c.problem("schemaVersion", "schemaVersion %d is newer than this agent-skills understands (%d); upgrade agent-skills", *raw.SchemaVersion, SchemaVersion)
	case *raw.SchemaVersion < 1:
		c.problem("schemaVersion", "schemaVersion must be %d", SchemaVersion)
	}
	if r := raw.Registries; r != nil {
		f.Registries.Allow = c.list("registries.allow", r.Allow, c.registryGlob)
		f.Registries.Deny = c.list("registries.deny", r.Deny, c.registryGlob)
	}
	if s := raw.Sources; s != nil {
		f.Sources.Direct = c.boolean("sources.direct", s.Direct)
		f.Sources.AllowHosts = c.list("sources.allowHosts", s.AllowHosts, c.hostGlob)
		f.Sources.DenyHosts = c.list("sources.denyHosts", s.DenyHosts, c.hostGlob)
	}
	if s := raw.Scan; s != nil {
		if s.BlockAt != nil {
			sev, err := scan.ParseSeverity(*s.BlockAt)
			if err != nil {
				c.problem("scan.blockAt", "scan.blockAt: %s", err.Error())
			}
			f.Scan.BlockAt, f.Scan.BlockAtSet, f.Scan.BlockAtOrigin = sev, true, c.at("scan.blockAt")
		}
		f.Scan.Block = c.list("scan.block", s.Block, c.ruleGlob)
		for i, a := range s.Accept {
			key := fmt.Sprintf("scan.accept[%d]", i)
			acc := Accept{Rule: a.Rule, Reason: strings.TrimSpace(a.Reason), Origin: c.at(key)}
			if a.Rule == "" {
				c.problem(key, "%s: rule is missing: name the rule id (or a glob of ids) to accept", key)
			} else if why := c.ruleGlob(a.Rule); why != "" {
				c.problem(key+".rule", "%s.rule: %s", key, why)
			}
			if acc.Reason == "" {
				c.problem(key, "%s: reason is missing: say why the finding is accepted (it is recorded with every install it lets through)", key)
			}
			if a.Skills != nil {
				if len(*a.Skills) == 0 {
					c.problem(key+".skills", "%s.skills is empty: list the skills, or leave the key out to accept the rule for every skill", key)
				}
				for j, g := range *a.Skills {
					if why := skillGlob(g); why != "" {
						c.problem(fmt.Sprintf("%s.skills[%d]", key, j), "%s.skills[%d]: %s", key, j, why)
					}
				}
				acc.Skills = *a.Skills
			}
			f.Scan.Accept = append(f.Scan.Accept, acc)
		}
		f.Scan.AllowRiskFlag = c.boolean("scan.allowRiskFlag", s.AllowRiskFlag)
		f.Scan.AcceptFromProject = c.boolean("scan.acceptFromProject", s.AcceptFromProject)
		if c.project && s.AcceptFromProject != nil {
			c.problem("scan.acceptFromProject", "scan.acceptFromProject is the user's decision: only $AGENT_SKILLS_HOME/%s may set it, not a project's %s", UserFileName, ProjectFileName)
		}
	}
	if cp := raw.Capabilities; cp != nil {
		f.Capabilities.Required = c.boolean("capabilities.required", cp.Required)
		f.Capabilities.Deny = c.list("capabilities.deny", cp.Deny, func(g string) string {
			if g == "" {
				return "a capability is not empty"
			}
			return badGlob(g)
		})
	}
	return f
}

func (c *checker) boolean(key string, v *bool) Bool {
	if v == nil {
		return Bool{}
	}
	return Bool{Set: true, Value: *v, Origin: c.at(key)}
}

func (c *checker) list(key string, v *[]string, check func(string) string) List {
	if v == nil {
		return List{}
	}
	l := List{Set: true, Origin: c.at(key)}
	for i, g := range *v {
		k := fmt.Sprintf("%s[%d]", key, i)
		if why := check(g); why != "" {
			c.problem(k, "%s: %q: %s", k, g, why)
			continue
		}
		l.Patterns = append(l.Patterns, Pattern{Glob: g, Origin: c.at(k)})
	}
	return l
}

// badGlob says why g is not a path.Match pattern, or "".
func badGlob(g string) string {
	if _, err := path.Match(g, ""); err != nil {
		return "not a valid glob (path.Match syntax: *, ?, [a-z])"
	}
	return ""
}

func (c *checker) registryGlob(g string) string {
	if g == "" {
		return "a pattern is not empty"
	}
	return badGlob(g)
}

func (c *checker) hostGlob(g string) string {
	switch {
	case g == "":
		return "a pattern is not empty"
	case strings.Contains(g, "://") && !strings.HasPrefix(g, "file://"):
		return "write host/path without the scheme (github.com/acme/*), or file:///path for folders on this machine"
	}
	return badGlob(g)
}

func (c *checker) ruleGlob(g string) string {
	if why := badGlob(g); why != "" {
		return why
	}
	for _, r := range scan.Rules() {
		if ok, _ := path.Match(g, r.ID); ok {
			return ""
		}
	}
	return "names no rule this agent-skills has (agent-skills audit --help lists them; docs/security.md)"
}

func skillGlob(g string) string {
	if g == "" {
		return "a skill name is not empty"
	}
	return badGlob(g)
}

// lineAt returns the 1-based line holding byte offset off.
func lineAt(data []byte, off int) int {
	off = min(max(off, 0), len(data))
	return bytes.Count(data[:off], []byte("\n")) + 1
}

// walk reads the JSON token by token: the line of every key and list
// element by its path ("scan.accept[0].rule"), and the first of a syntax
// error, an unknown key, a repeated key (which encoding/json would let
// the last one win silently) or data after the object.
func walk(data []byte) (map[string]int, *Problem) {
	w := &walker{dec: json.NewDecoder(bytes.NewReader(data)), data: data, lines: map[string]int{}}
	w.dec.UseNumber()
	if p := w.value("", ""); p != nil {
		return nil, p
	}
	if _, err := w.dec.Token(); err != io.EOF {
		return nil, &Problem{w.line(), "unexpected data after the JSON object"}
	}
	return w.lines, nil
}

type walker struct {
	dec   *json.Decoder
	data  []byte
	lines map[string]int
	depth int
}

func (w *walker) line() int { return lineAt(w.data, int(w.dec.InputOffset())-1) }

func (w *walker) syntax(err error) *Problem {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &Problem{lineAt(w.data, int(se.Offset)), "not valid JSON: " + se.Error()}
	}
	if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		if len(bytes.TrimSpace(w.data)) == 0 {
			return &Problem{0, "the file is empty; write {\"schemaVersion\": 1}, or delete it"}
		}
		return &Problem{w.line(), "not valid JSON: unexpected end of the file"}
	}
	return &Problem{w.line(), "not valid JSON: " + err.Error()}
}

// value reads one value at key, whose object schema path is shape.
func (w *walker) value(key, shape string) *Problem {
	tok, err := w.dec.Token()
	if err != nil {
		return w.syntax(err)
	}
	if _, ok := w.lines[key]; !ok {
		w.lines[key] = w.line()
	}
	d, ok := tok.(json.Delim)
	if key == "" && d != '{' {
		return &Problem{w.line(), "a policy is a JSON object"}
	}
	if !ok {
		return nil
	}
	if w.depth++; w.depth > 16 {
		return &Problem{w.line(), "nested too deeply"}
	}
	defer func() { w.depth-- }()
	switch d {
	case '{':
		keys, known := schema[shape]
		seen := map[string]bool{}
		for w.dec.More() {
			kt, err := w.dec.Token()
			if err != nil {
				return w.syntax(err)
			}
			k := kt.(string)
			line := w.line()
			name := k
			if key != "" {
				name = key + "." + k
			}
			switch {
			case !known:
				return &Problem{line, fmt.Sprintf("%s: an object is not allowed here (docs/policy.md)", key)}
			case !slices.Contains(keys, k):
				return &Problem{line, fmt.Sprintf("unknown key %q%s", name, suggest(keys))}
			case seen[k]:
				return &Problem{line, fmt.Sprintf("the key %q is repeated; write it once", name)}
			}
			seen[k] = true
			w.lines[name] = line
			sub := k
			if shape != "" {
				sub = shape + "." + k
			}
			if p := w.value(name, sub); p != nil {
				return p
			}
		}
	case '[':
		for i := 0; w.dec.More(); i++ {
			if p := w.value(fmt.Sprintf("%s[%d]", key, i), shape+"[]"); p != nil {
				return p
			}
		}
	}
	if _, err := w.dec.Token(); err != nil {
		return w.syntax(err)
	}
	return nil
}

// suggest lists the keys an object may have.
func suggest(keys []string) string {
	return " (the keys here are " + strings.Join(keys, ", ") + ")"
}
