package plugin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/hooks"
	"github.com/agent-skills/agent-skills/cli/internal/mcpserver"
	"github.com/agent-skills/agent-skills/format"
)

// Host is a coding agent a plugin is built for.
type Host string

// The hosts plugin build writes manifests for.
const (
	Claude  Host = "claude"
	Codex   Host = "codex"
	Copilot Host = "copilot"
)

// Hosts returns every host, in the order manifests are described.
func Hosts() []Host { return []Host{Claude, Codex, Copilot} }

// ParseHosts reads a --host value: one host, or "all" for every host.
func ParseHosts(s string) ([]Host, error) {
	if s == "all" {
		return Hosts(), nil
	}
	if h := Host(s); slices.Contains(Hosts(), h) {
		return []Host{h}, nil
	}
	return nil, askerr.Usage("unknown host %q: use claude, codex, copilot or all", s)
}

// Options are the plugin's identity and what it carries besides skills.
type Options struct {
	// Name is the plugin's name (a valid package name); the marketplace
	// of Build takes it too unless Marketplace is set.
	Name string
	// Marketplace is the marketplace's name; "" means Name.
	Marketplace string
	// Version is the plugin's version.
	Version string
	// Description is the plugin's description; "" derives one from the
	// skills.
	Description string
	// Author is the plugin's author and the marketplace's owner; ""
	// takes the skills' common first author, else Name.
	Author string
	// License is the plugin's SPDX licence; "" takes the skills' common
	// licence, else none.
	License string
	// Hosts are the hosts Build writes manifests for.
	Hosts []Host
	// MCP adds this CLI's MCP server (agent-skills mcp serve).
	MCP bool
	// Hooks adds this CLI's session-start hook, per host.
	Hooks bool
}

// Tree is a folder to write: its files, sorted by path.
type Tree struct {
	Files []File
	// Stripped names the skill files Submission left out, with why.
	Stripped []string
}

// add puts a file into the tree.
func (t *Tree) add(p string, data []byte, exec bool) {
	t.Files = append(t.Files, File{Path: p, Data: data, Exec: exec})
}

// sort orders the files by path.
func (t *Tree) sort() {
	slices.SortFunc(t.Files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
}

// resolve fills the options' defaults from the collection and checks them.
func (o Options) resolve(c *Collection) (Options, error) {
	if !format.ValidName(o.Name) {
		return o, &askerr.Error{Code: askerr.CodeUsage,
			Message: fmt.Sprintf("%q is not a valid plugin name: lowercase letters, digits and single hyphens, at most 64 characters", o.Name),
			Try:     []string{"--name my-plugin"}}
	}
	if o.Marketplace == "" {
		o.Marketplace = o.Name
	}
	if !format.ValidName(o.Marketplace) {
		return o, askerr.Usage("%q is not a valid marketplace name: lowercase letters, digits and single hyphens", o.Marketplace)
	}
	if o.Version == "" {
		o.Version = "0.1.0"
	}
	if o.Description == "" {
		o.Description = describe(c.Skills)
	}
	o.Description = oneLine(o.Description)
	if o.Author == "" {
		o.Author = common(c.Skills, func(s Skill) string { return s.Author })
	}
	if o.Author == "" {
		o.Author = o.Name
	}
	if o.License == "" {
		o.License = common(c.Skills, func(s Skill) string { return s.License })
	}
	return o, nil
}

// common returns the value every skill has, or "".
func common(skills []Skill, get func(Skill) string) string {
	v := get(skills[0])
	for _, s := range skills[1:] {
		if get(s) != v {
			return ""
		}
	}
	return v
}

// describe derives a plugin description from its skills.
func describe(skills []Skill) string {
	if len(skills) == 1 {
		return skills[0].Description
	}
	names := make([]string, 0, 8)
	for i, s := range skills {
		if i == 8 {
			names = append(names, fmt.Sprintf("and %d more", len(skills)-8))
			break
		}
		names = append(names, s.Name)
	}
	return fmt.Sprintf("%d agent skills: %s.", len(skills), strings.Join(names, ", "))
}

// Build returns the marketplace folder of one plugin holding every skill
// of the collection, with the manifests of o.Hosts:
//
//	.claude-plugin/marketplace.json          claude, copilot
//	.agents/plugins/marketplace.json         codex
//	plugins/<name>/.claude-plugin/plugin.json claude
//	plugins/<name>/.codex-plugin/plugin.json  codex
//	plugins/<name>/plugin.json                copilot
//	plugins/<name>/README.md
//	plugins/<name>/skills/<skill>/…           the package's files, byte for byte
//	plugins/<name>/.mcp.json                  with MCP
//	plugins/<name>/hooks/<host>.json          with Hooks, one per host family
func Build(c *Collection, o Options) (Tree, error) {
	o, err := o.resolve(c)
	if err != nil {
		return Tree{}, err
	}
	if len(o.Hosts) == 0 {
		o.Hosts = Hosts()
	}
	has := func(h Host) bool { return slices.Contains(o.Hosts, h) }
	root := "plugins/" + o.Name
	var t Tree
	if has(Claude) || has(Copilot) {
		t.add(".claude-plugin/marketplace.json", claudeMarketplace(o, "./"+root), false)
	}
	if has(Codex) {
		t.add(".agents/plugins/marketplace.json", codexMarketplace(o, "./"+root), false)
	}
	if has(Claude) {
		t.add(root+"/.claude-plugin/plugin.json", claudeManifest(o, o.MCP, o.Hooks), false)
	}
	if has(Codex) {
		t.add(root+"/.codex-plugin/plugin.json", codexManifest(o), false)
	}
	if has(Copilot) {
		t.add(root+"/plugin.json", copilotManifest(o), false)
	}
	if o.MCP {
		t.add(root+"/.mcp.json", mcpFile(), false)
	}
	if o.Hooks {
		if has(Claude) {
			t.add(root+"/hooks/hooks.json", hooksFile(hooks.Claude), false)
		}
		if has(Codex) {
			t.add(root+"/hooks/codex.json", hooksFile(hooks.Codex), false)
		}
		if has(Copilot) {
			t.add(root+"/hooks/copilot.json", hooksFile(hooks.Copilot), false)
		}
	}
	t.add(root+"/README.md", readme(c, o, false), false)
	for _, s := range c.Skills {
		for _, f := range s.Files {
			t.add(path.Join(root, "skills", s.Name, f.Path), f.Data, f.Exec)
		}
	}
	t.sort()
	return t, nil
}

// Submission returns the skills-only plugin folder a directory review
// accepts: .claude-plugin/plugin.json (no hooks, no MCP server),
// .claude-plugin/icon.png, README.md and skills/<skill>/…. It is inert:
// every executable file, every file under a skill's scripts/ and every
// file that starts with "#!" is left out and named in Stripped; a skill
// whose SKILL.md declares hooks is refused (ASK_PLUGIN_NOT_INERT), since
// its bytes are shipped unchanged. Submission needs a licence (o.License or
// one the skills share): the directory requires one.
func Submission(c *Collection, o Options) (Tree, error) {
	o, err := o.resolve(c)
	if err != nil {
		return Tree{}, err
	}
	o.MCP, o.Hooks = false, false
	var hooked []string
	for _, s := range c.Skills {
		if s.Hooks {
			hooked = append(hooked, s.Path+"/SKILL.md")
		}
	}
	if len(hooked) > 0 {
		return Tree{}, &askerr.Error{Code: CodeNotInert,
			Message: "a submission is inert, but these skills declare hooks in their front matter, which the host runs",
			Detail:  hooked,
			Try:     []string{"remove the hooks key from those SKILL.md files, or leave the skills out of the submitted collection"}}
	}
	if o.License == "" {
		return Tree{}, &askerr.Error{Code: askerr.CodeUsage,
			Message: "the skills declare no common licence, and a plugin directory requires one",
			Try:     []string{"--license Apache-2.0 (the SPDX id the skills are published under)"}}
	}
	var t Tree
	t.add(".claude-plugin/plugin.json", claudeManifest(o, false, false), false)
	t.add(".claude-plugin/icon.png", Icon(o.Name), false)
	t.add("README.md", readme(c, o, true), false)
	for _, s := range c.Skills {
		for _, f := range s.Files {
			if why := notInert(f); why != "" {
				t.Stripped = append(t.Stripped, path.Join("skills", s.Name, f.Path)+": "+why)
				continue
			}
			t.add(path.Join("skills", s.Name, f.Path), f.Data, false)
		}
	}
	t.sort()
	return t, nil
}

// notInert says why a skill file may run, "" when it is data.
func notInert(f File) string {
	switch {
	case f.Exec:
		return "executable"
	case strings.HasPrefix(f.Path, "scripts/"):
		return "a script (under scripts/)"
	case bytes.HasPrefix(f.Data, []byte("#!")):
		return "a script (starts with #!)"
	}
	return ""
}

// manifest is an ordered JSON object: keys in the order given.
type manifest []member

type member struct {
	key   string
	value any
}

// MarshalJSON writes the members in order.
func (m manifest) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, kv := range m {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(kv.key)
		b.Write(k)
		b.WriteByte(':')
		v, err := marshal(kv.value)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshal is json.Marshal without HTML escaping.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// encode renders v as two-space indented JSON with a trailing newline.
func encode(v any) []byte {
	raw, err := marshal(v)
	if err != nil {
		panic(err) // only our own values are encoded
	}
	var b bytes.Buffer
	_ = json.Indent(&b, raw, "", "  ")
	b.WriteByte('\n')
	return b.Bytes()
}

// identity is the members every plugin manifest starts with.
func identity(o Options) manifest {
	m := manifest{{"name", o.Name}, {"version", o.Version}, {"description", o.Description},
		{"author", manifest{{"name", o.Author}}}}
	if o.License != "" {
		m = append(m, member{"license", o.License})
	}
	return m
}

// claudeManifest is .claude-plugin/plugin.json.
func claudeManifest(o Options, mcp, hook bool) []byte {
	m := append(identity(o), member{"skills", "./skills/"})
	if mcp {
		m = append(m, member{"mcpServers", "./.mcp.json"})
	}
	if hook {
		m = append(m, member{"hooks", "./hooks/hooks.json"})
	}
	return encode(m)
}

// codexManifest is .codex-plugin/plugin.json.
func codexManifest(o Options) []byte {
	m := append(identity(o), member{"skills", "./skills/"})
	if o.MCP {
		m = append(m, member{"mcpServers", "./.mcp.json"})
	}
	if o.Hooks {
		m = append(m, member{"hooks", "./hooks/codex.json"})
	}
	m = append(m, member{"interface", manifest{{"displayName", o.Name}, {"shortDescription", o.Description}}})
	return encode(m)
}

// copilotManifest is Copilot CLI's plugin.json at the plugin root.
func copilotManifest(o Options) []byte {
	m := append(identity(o), member{"skills", "skills/"})
	if o.MCP {
		m = append(m, member{"mcpServers", ".mcp.json"})
	}
	if o.Hooks {
		m = append(m, member{"hooks", "hooks/copilot.json"})
	}
	return encode(m)
}

// claudeMarketplace is .claude-plugin/marketplace.json.
func claudeMarketplace(o Options, source string) []byte {
	return encode(manifest{{"name", o.Marketplace}, {"description", o.Description},
		{"owner", manifest{{"name", o.Author}}},
		{"plugins", []any{manifest{{"name", o.Name}, {"source", source}, {"description", o.Description}, {"version", o.Version}}}}})
}

// codexMarketplace is .agents/plugins/marketplace.json.
func codexMarketplace(o Options, source string) []byte {
	return encode(manifest{{"name", o.Marketplace}, {"interface", manifest{{"displayName", o.Marketplace}}},
		{"plugins", []any{manifest{{"name", o.Name},
			{"source", manifest{{"source", "local"}, {"path", source}}},
			{"policy", manifest{{"installation", "AVAILABLE"}}},
			{"category", "Productivity"}}}}})
}

// mcpFile is the plugin's .mcp.json: this CLI's stdio server. The entry
// has no type, which Claude Code reads as stdio and Copilot as local.
func mcpFile() []byte {
	return encode(manifest{{"mcpServers", manifest{{mcpserver.ServerName,
		manifest{{"command", "agent-skills"}, {"args", []string{"mcp", "serve"}}}}}}})
}

// hooksFile is a plugin hooks file running the session index for h, in
// h's own format.
func hooksFile(h hooks.Host) []byte {
	cmd := hooks.Command(h)
	if h == hooks.Copilot {
		return encode(manifest{{"version", 1}, {"hooks", manifest{{"sessionStart", []any{
			manifest{{"type", "command"}, {"bash", cmd}, {"powershell", cmd}, {"timeoutSec", hooks.TimeoutSeconds}}}}}}})
	}
	return encode(manifest{{"hooks", manifest{{"SessionStart", []any{manifest{{"hooks", []any{
		manifest{{"type", "command"}, {"command", cmd}, {"timeout", hooks.TimeoutSeconds}}}}}}}}}})
}
