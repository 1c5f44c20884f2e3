// Package config reads and writes agent-skills' configuration file,
// $AGENT_SKILLS_HOME/config.json (default ~/.agent-skills/config.json).
// A missing file means the defaults; a malformed one is an error that names
// the line; every write is atomic.
package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/agents"
	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/registry"

	"github.com/agent-skills/agent-skills/cli/internal/atomicfile"
)

// SchemaVersion is the config format this build reads and writes.
const SchemaVersion = 1

// Registry kinds.
const (
	KindLocal   = "local"
	KindGit     = "git"
	KindHTTP    = "http"
	KindBundled = "bundled"
	KindOCI     = "oci"
)

// OfficialURL is the public git registry named by the design.
const OfficialURL = "https://github.com/robsonkades/agent-skills.git"

// BundledURL names the collection embedded in the binary.
const BundledURL = "bundled:"

// Config is the whole configuration file.
type Config struct {
	SchemaVersion int              `json:"schemaVersion"`
	Registries    []Registry       `json:"registries"`
	Agents        map[string]Agent `json:"agents,omitempty"`
	Cache         Cache            `json:"cache"`
	Updates       *Updates         `json:"updates,omitempty"`
}

// Updates holds the settings of update checks of the CLI itself.
type Updates struct {
	// ReleasesURL is where the CLI's releases document is fetched
	// (docs/release.md); empty means the project's GitHub releases. The
	// environment's AGENT_SKILLS_RELEASES_URL wins over it.
	ReleasesURL string `json:"releasesURL,omitempty"`
}

// Registry is one configured registry; the list order is precedence.
type Registry struct {
	Name    string `json:"name"`
	URL     string `json:"url"`
	Kind    string `json:"kind"`
	Ref     string `json:"ref,omitempty"`
	Trusted bool   `json:"trusted"`
	// TrustedSigners is a copy of the allowed_signers file given to
	// registry add/trust --trust-key: the keys whose SSH signatures the
	// registry's index and packages must carry (docs/signatures.md).
	TrustedSigners string `json:"trustedSigners,omitempty"`
}

// Agent holds per-agent settings. For a built-in agent: whether it is
// used, and overrides of its skills roots. An entry whose id is not a
// built-in agent's defines a custom agent (docs/cli.md#custom-agents):
// its skills roots are GlobalRoot and ProjectRoot, and only a custom agent
// may set DisplayName, AlsoReads, Commands and Detect.
type Agent struct {
	Enabled     *bool  `json:"enabled,omitempty"`
	DisplayName string `json:"displayName,omitempty"`
	GlobalRoot  string `json:"globalRoot,omitempty"`
	ProjectRoot string `json:"projectRoot,omitempty"`
	// AlsoReads are the roots other agents read too that a custom agent
	// also reads (the shared .agents/skills), declared so that the
	// planner may write a skill once for both.
	AlsoReads *AlsoReads `json:"alsoReads,omitempty"`
	// Commands are a custom agent's Markdown command roots.
	Commands *Commands `json:"commands,omitempty"`
	// Detect is the evidence that a custom agent is installed.
	Detect *Detect `json:"detect,omitempty"`
}

// AlsoReads are a custom agent's shared roots per scope.
type AlsoReads struct {
	Global  []string `json:"global,omitempty"`
	Project []string `json:"project,omitempty"`
}

// Commands are a custom agent's command roots and their shape: "file"
// (one file per command, named after it plus Extension) or "directory".
type Commands struct {
	GlobalRoot  string `json:"globalRoot,omitempty"`
	ProjectRoot string `json:"projectRoot,omitempty"`
	Shape       string `json:"shape,omitempty"`
	Extension   string `json:"extension,omitempty"`
}

// Detect is a custom agent's detection evidence: executables on PATH and
// configuration folders ("~/…") are strong evidence, project markers
// (paths relative to the project root) weak.
type Detect struct {
	Executables []string `json:"executables,omitempty"`
	ConfigDirs  []string `json:"configDirs,omitempty"`
	Markers     []string `json:"markers,omitempty"`
}

// customOnly returns the keys of a that only a custom agent may set.
func (a Agent) customOnly() []string {
	var out []string
	if a.DisplayName != "" {
		out = append(out, "displayName")
	}
	if a.AlsoReads != nil {
		out = append(out, "alsoReads")
	}
	if a.Commands != nil {
		out = append(out, "commands")
	}
	if a.Detect != nil {
		out = append(out, "detect")
	}
	return out
}

// isBuiltin reports whether id is a built-in agent's id.
func isBuiltin(id string) bool { return slices.Contains(agents.Default().IDs(), id) }

// CustomAgents returns the custom agents the configuration defines —
// every agents.<id> entry whose id is not a built-in agent's — sorted by
// id, for agents.WithCustom, which checks them.
func (c *Config) CustomAgents() []agents.CustomAgent {
	ids := slices.Sorted(maps.Keys(c.Agents))
	var out []agents.CustomAgent
	for _, id := range ids {
		if isBuiltin(id) {
			continue
		}
		a := c.Agents[id]
		ca := agents.CustomAgent{ID: id, DisplayName: a.DisplayName,
			Skills: agents.CustomRoots{GlobalRoot: a.GlobalRoot, ProjectRoot: a.ProjectRoot}}
		if a.AlsoReads != nil {
			ca.Skills.AlsoGlobal, ca.Skills.AlsoProject = a.AlsoReads.Global, a.AlsoReads.Project
		}
		if a.Commands != nil {
			ca.Commands = &agents.CustomCommands{GlobalRoot: a.Commands.GlobalRoot, ProjectRoot: a.Commands.ProjectRoot,
				Shape: agents.Shape(a.Commands.Shape), Extension: a.Commands.Extension}
		}
		if a.Detect != nil {
			ca.Executables, ca.ConfigDirs, ca.Markers = a.Detect.Executables, a.Detect.ConfigDirs, a.Detect.Markers
		}
		out = append(out, ca)
	}
	return out
}

// Overrides returns the root overrides of built-in agents
// (agents.Env.Overrides): a custom agent's roots are its own, not an
// override.
func (c *Config) Overrides() map[string]agents.RootOverride {
	over := map[string]agents.RootOverride{}
	for id, a := range c.Agents {
		if isBuiltin(id) && (a.GlobalRoot != "" || a.ProjectRoot != "") {
			over[id] = agents.RootOverride{GlobalRoot: a.GlobalRoot, ProjectRoot: a.ProjectRoot}
		}
	}
	return over
}

// Cache holds cache settings.
type Cache struct {
	TTLSeconds int `json:"ttlSeconds"`
}

// Error is a configuration problem: the file, the line when known, and what
// to do about it.
type Error struct {
	File    string
	Line    int
	Message string
	// Err is set when the file could not be read at all (a permission, a
	// path through a file): the machine's state, not the file's content,
	// so the code is ASK_IO.
	Err error
	// at, when set by check, is the quoted key whose first occurrence is
	// the line Parse reports.
	at string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Message)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Message)
}

// ErrorCode returns ASK_CONFIG_INVALID, or ASK_IO when the file could not
// be read.
func (e *Error) ErrorCode() string {
	if e.Err != nil {
		return askerr.CodeIO
	}
	return CodeConfigInvalid
}

// Unwrap returns the read failure, if any.
func (e *Error) Unwrap() error { return e.Err }

// ErrorTry says how to recover.
func (e *Error) ErrorTry() []string {
	if e.Err != nil {
		return []string{"check the permissions of " + e.File + " and of the folders above it, or set AGENT_SKILLS_HOME to a folder you own"}
	}
	return []string{"fix " + e.File + " by hand, or move it aside to go back to the defaults"}
}

// Default returns the configuration used when no file exists: the bundled
// collection first, then the official registry.
func Default() *Config {
	return &Config{
		SchemaVersion: SchemaVersion,
		Registries: []Registry{
			{Name: "bundled", URL: BundledURL, Kind: KindBundled, Trusted: true},
			{Name: "official", URL: OfficialURL, Kind: KindGit, Trusted: true},
		},
		Cache: Cache{TTLSeconds: 3600},
	}
}

// Home returns the agent-skills home folder: $AGENT_SKILLS_HOME, or
// ~/.agent-skills.
func Home(getenv func(string) string, userHome string) string {
	if h := getenv("AGENT_SKILLS_HOME"); h != "" {
		return h
	}
	return filepath.Join(userHome, ".agent-skills")
}

// Path returns the config file inside home.
func Path(home string) string { return filepath.Join(home, "config.json") }

// Load reads the configuration at path; a missing file yields Default().
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Default(), nil
	}
	if err != nil {
		return nil, &Error{File: path, Message: "cannot read the file: " + err.Error(), Err: err}
	}
	return Parse(data, path)
}

// Parse decodes and checks a configuration file's bytes. Unknown keys are
// refused, since a misspelt key would otherwise be silently ignored.
func Parse(data []byte, file string) (*Config, error) {
	var c Config
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, decodeError(data, file, err)
	}
	if dec.More() {
		return nil, &Error{File: file, Line: lineAt(data, int(dec.InputOffset())), Message: "unexpected data after the JSON object"}
	}
	if c.SchemaVersion == 0 {
		c.SchemaVersion = SchemaVersion
	}
	if c.SchemaVersion > SchemaVersion {
		return nil, &Error{File: file, Message: fmt.Sprintf("schemaVersion %d is newer than this agent-skills understands (%d); upgrade agent-skills", c.SchemaVersion, SchemaVersion)}
	}
	if c.Cache.TTLSeconds == 0 {
		c.Cache.TTLSeconds = 3600
	}
	if err := c.check(); err != nil {
		var ce *Error
		if errors.As(err, &ce) {
			ce.File = file
			ce.Line = lineOfName(data, ce.Line)
			if ce.at != "" {
				ce.Line = lineOf(data, ce.at)
			}
		}
		return nil, err
	}
	return &c, nil
}

var registryName = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]*[a-z0-9])?$`)

// reservedNames are the registry names a reference could not reach, or
// that name something else: `github:` and `gitlab:` start a source
// (github:owner/repo), and `bundled` is the collection inside the binary,
// which `catalog` adds under that name when no registry serves it.
var reservedNames = map[string]string{
	"github":  "github:owner/repo names a GitHub repository, so github:<skill> could never reach a registry of that name",
	"gitlab":  "gitlab:group/repo names a GitLab repository, so gitlab:<skill> could never reach a registry of that name",
	"mcp":     "mcp:<command> names an MCP server that serves skills, so mcp:<skill> could never reach a registry of that name",
	"bundled": "it names the collection inside agent-skills (url " + BundledURL + ")",
}

// CheckRegistryName returns why name cannot name a registry of the given
// kind, or "" when it can: the grammar (lowercase letters, digits and
// inner hyphens, at most 64 characters), then the reserved names.
// `bundled` is allowed for the bundled kind, so that
// "registry add bundled bundled:" restores the default.
func CheckRegistryName(name, kind string) string {
	if !registryName.MatchString(name) || len(name) > 64 {
		return "a registry name is 1-64 lowercase letters, digits and hyphens, with no hyphen at either end"
	}
	if why, ok := reservedNames[name]; ok && !(name == "bundled" && kind == KindBundled) {
		return "the name " + name + " is reserved: " + why
	}
	return ""
}

// check verifies the values. An Error it returns carries in Line the index
// of the offending registry, which Parse turns into a line number.
func (c *Config) check() error {
	seen := map[string]bool{}
	for i, r := range c.Registries {
		switch {
		case !registryName.MatchString(r.Name) || len(r.Name) > 64:
			return &Error{Line: -(i + 1), Message: fmt.Sprintf("registries[%d]: name %q must be lowercase letters, digits and hyphens", i, r.Name)}
		case seen[r.Name]:
			return &Error{Line: -(i + 1), Message: fmt.Sprintf("registries[%d]: the name %q is used twice", i, r.Name)}
		case r.URL == "":
			return &Error{Line: -(i + 1), Message: fmt.Sprintf("registries[%d] (%s): url is empty", i, r.Name)}
		case !slices.Contains([]string{KindLocal, KindGit, KindHTTP, KindOCI, KindBundled}, r.Kind):
			return &Error{Line: -(i + 1), Message: fmt.Sprintf("registries[%d] (%s): kind %q is not one of local, git, http, oci, bundled", i, r.Name, r.Kind)}
		}
		seen[r.Name] = true
	}
	if c.Cache.TTLSeconds < 0 {
		return &Error{Message: "cache.ttlSeconds must not be negative"}
	}
	if c.Updates != nil && c.Updates.ReleasesURL != "" {
		if why := CheckReleasesURL(c.Updates.ReleasesURL); why != "" {
			return &Error{at: `"releasesURL"`, Message: "updates.releasesURL: " + why}
		}
	}
	for _, id := range slices.Sorted(maps.Keys(c.Agents)) {
		if keys := c.Agents[id].customOnly(); len(keys) > 0 && isBuiltin(id) {
			return &Error{at: `"` + id + `"`, Message: fmt.Sprintf("agents.%s: %s %s only for custom agents; %s is built in, so only enabled, globalRoot and projectRoot may be set for it (docs/cli.md#custom-agents)",
				id, strings.Join(keys, ", "), map[bool]string{true: "is", false: "are"}[len(keys) == 1], id)}
		}
	}
	return nil
}

// Registry returns the registry with the given name.
func (c *Config) Registry(name string) (Registry, bool) {
	for _, r := range c.Registries {
		if r.Name == name {
			return r, true
		}
	}
	return Registry{}, false
}

// AgentEnabled reports whether an agent is enabled (the default is yes).
func (c *Config) AgentEnabled(id string) bool {
	a, ok := c.Agents[id]
	return !ok || a.Enabled == nil || *a.Enabled
}

// Encode returns the canonical bytes of the configuration: indented JSON
// with a trailing newline.
func (c *Config) Encode() []byte {
	out, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		// Config holds only strings, ints, bools and maps of them.
		panic(err)
	}
	return append(out, '\n')
}

// Save writes the configuration to path atomically, creating its folder.
func (c *Config) Save(path string) error {
	if err := c.check(); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFile(path, c.Encode(), 0o644)
}

func decodeError(data []byte, file string, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return &Error{File: file, Line: lineAt(data, int(se.Offset)), Message: "not valid JSON: " + se.Error()}
	case errors.As(err, &te):
		return &Error{File: file, Line: lineAt(data, int(te.Offset)), Message: fmt.Sprintf("%s must be %s, not %s", te.Field, te.Type, te.Value)}
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		field := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return &Error{File: file, Line: lineOf(data, `"`+field+`"`), Message: fmt.Sprintf("unknown key %q", field)}
	case errors.Is(err, io.EOF):
		return &Error{File: file, Message: "the file is empty; delete it to use the defaults"}
	}
	return &Error{File: file, Message: err.Error()}
}

// lineAt returns the 1-based line holding byte offset off.
func lineAt(data []byte, off int) int {
	off = min(max(off, 0), len(data))
	return bytes.Count(data[:off], []byte("\n")) + 1
}

// lineOf returns the line of the first occurrence of s, or 0.
func lineOf(data []byte, s string) int {
	i := bytes.Index(data, []byte(s))
	if i < 0 {
		return 0
	}
	return lineAt(data, i)
}

// lineOfName maps a negative registry index marker (-(i+1)) to the line of
// that registry's "name" key.
func lineOfName(data []byte, marker int) int {
	if marker >= 0 {
		return marker
	}
	want := -marker
	n := 0
	for i := 0; i < len(data); {
		j := bytes.Index(data[i:], []byte(`"name"`))
		if j < 0 {
			return 0
		}
		i += j
		n++
		if n == want {
			return lineAt(data, i)
		}
		i++
	}
	return 0
}

// CheckReleasesURL returns why raw cannot be where the CLI's releases
// are looked up, or "": an absolute https:// URL (plain http:// only to a
// loopback host, for tests and mirrors on this machine) without a user
// or password.
func CheckReleasesURL(raw string) string {
	u, err := url.Parse(raw)
	switch {
	case err != nil || !u.IsAbs() || u.Host == "":
		return fmt.Sprintf("%q is not an absolute URL", raw)
	case u.User != nil:
		return "the URL must not carry a user or password"
	}
	return registry.TransportPolicy(u, false)
}
