package source

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/termtext"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/registry"
	"go.yaml.in/yaml/v3"
)

// This file reads the skills an MCP server serves (SEP-2640; docs/hosts.md,
// "SEP-2640") into a folder, verified, so that discovery and
// materialisation treat it as any other source: every file of a chosen
// skill is read with resources/read and written only once its size and
// sha256 match the listing, and a SKILL.md only once its front matter
// matches the listing's frontmatter field by field.

// skillsExtension is the capability a server that serves skills declares.
const skillsExtension = "io.modelcontextprotocol/skills"

// SEP-2640's limits per skill: hosts must accept up to them, and
// agent-skills accepts no more.
const (
	mcpMaxResources = 512
	mcpMaxSkillSize = 16 << 20
	// mcpMaxPages bounds how many pages of skills/list are read.
	mcpMaxPages = 1000
)

// mcpEntry is a skill entry of skills/list or skills/get.
type mcpEntry struct {
	URI         string          `json:"uri"`
	Frontmatter json.RawMessage `json:"frontmatter"`
	Resources   json.RawMessage `json:"resources"`
}

// mcpResource is one file of an entry.
type mcpResource struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"`
	Size   *int64 `json:"size"`
}

// mcpSkill is an entry that passed its checks.
type mcpSkill struct {
	uri     string // of its SKILL.md
	root    string // the URI without /SKILL.md
	name    string // frontmatter name
	folder  string // where it is written in the tree: the skill path
	front   any    // the frontmatter, decoded
	files   []mcpResource
	dynamic bool
}

// openMCP reads the skills of the server r names into root (a new empty
// folder). subpath, when set (a restore), names the one skill folder to
// read; otherwise the skills named in r.Skill and opts.Skills are read in
// full (all of them when none or "*" is named), and of the others only
// their SKILL.md, so that they are listed, unless every name picked a
// skill. With opts.List every skill's SKILL.md only is read.
func openMCP(ctx context.Context, r Ref, root, subpath string, opts *Options) error {
	if r.URL == "" && r.Locked && opts.getenv(mcpCommandEnv) != "1" {
		return commandRefusal(r)
	}
	whole := opts.HTTPTimeouts.Total
	if whole <= 0 {
		whole = registry.DefaultHTTPTimeouts().Total
	}
	ctx, cancel := context.WithTimeout(ctx, whole)
	defer cancel()
	s, err := dialMCP(ctx, r, opts)
	if err != nil {
		return err
	}
	defer s.Close()
	caps := s.cs.InitializeResult().Capabilities
	ext, declared := map[string]any(nil), false
	if caps != nil {
		var v any
		v, declared = caps.Extensions[skillsExtension]
		ext, _ = v.(map[string]any)
	}
	if !declared {
		return &Error{Code: CodeSourceUnsupported,
			Message: "the MCP server " + s.shown + " does not serve skills: it does not declare the " + skillsExtension + " extension",
			Detail:  []string{"SEP-2640 servers declare capabilities.extensions[\"" + skillsExtension + "\"]; nothing was asked of it beyond initialize."},
			Try:     []string{"check that the server (and its version) implements the MCP skills extension"}}
	}
	if ext == nil {
		return s.protocol("its " + skillsExtension + " capability is not an object")
	}
	if caps.Resources == nil {
		return s.protocol("it declares " + skillsExtension + " without the resources capability the extension requires")
	}
	entries, err := listMCP(ctx, s, opts)
	if err != nil {
		return err
	}
	if subpath != "" {
		i := slices.IndexFunc(entries, func(k mcpSkill) bool { return k.folder == subpath })
		if i < 0 {
			// skills/get must answer for unlisted skills too.
			var got struct {
				Skill mcpEntry `json:"skill"`
			}
			uri := "skill://" + subpath + "/SKILL.md"
			if err := s.call(ctx, "skills/get", "skills/get "+uri, map[string]string{"uri": uri}, &got); err != nil {
				return err
			}
			k, err := checkEntry(s, got.Skill)
			if err != nil {
				return err
			}
			if k.folder != subpath {
				return s.protocol("skills/get of skill://" + subpath + "/SKILL.md answered with " + k.uri)
			}
			entries, i = append(entries, k), len(entries)
		}
		if entries[i].dynamic {
			return dynamicRefusal(s, entries[i])
		}
		return fetchSkill(ctx, s, entries[i], root, false, opts)
	}
	names := append(slices.Clone(opts.Skills), r.Skill)
	names = slices.DeleteFunc(names, func(n string) bool { return n == "" })
	all := len(names) == 0 || slices.Contains(names, "*")
	picks := func(n string, k mcpSkill) bool { return n == k.folder || n == k.name || n == path.Base(k.folder) }
	// When every name picks a skill, the others are not read at all, so
	// that a broken skill beside them does not block them; otherwise
	// their SKILL.md is read too, for the message listing what is served.
	every := !all && !slices.ContainsFunc(names, func(n string) bool {
		return !slices.ContainsFunc(entries, func(k mcpSkill) bool { return picks(n, k) })
	})
	var total int64
	for _, k := range entries {
		chosen := !opts.List && (all || slices.ContainsFunc(names, func(n string) bool { return picks(n, k) }))
		if !chosen && every && !opts.List {
			continue
		}
		if k.dynamic {
			if chosen && !all {
				return dynamicRefusal(s, k)
			}
			if opts.Notify != nil {
				opts.Notify(fmt.Sprintf("%s serves %s with \"dynamic\" resources, which cannot be verified; it is not offered", s.shown, termtext.Line(k.name)))
			}
			continue
		}
		for _, f := range k.files {
			if chosen || path.Base(f.URI) == "SKILL.md" && f.URI == k.uri {
				total += *f.Size
			}
		}
		if total > opts.maxBytes() {
			return &Error{Code: CodeSourceTooLarge,
				Message: fmt.Sprintf("the skills %s serves add up to more than %d MiB", s.shown, opts.maxBytes()>>20),
				Try:     []string{"name the skill to install with --skill NAME"}}
		}
		if err := fetchSkill(ctx, s, k, root, !chosen, opts); err != nil {
			return err
		}
	}
	return nil
}

// mcpCommandEnv names the variable that lets a restore or an update run
// the command of an mcp: source that skills.lock records.
const mcpCommandEnv = "AGENT_SKILLS_ALLOW_MCP_COMMANDS"

// commandRefusal is ASK_SOURCE_COMMAND_UNAPPROVED: skills.lock, which
// comes with the project, names a command to run, and the user has not
// allowed it.
func commandRefusal(r Ref) error {
	shown := termtext.Line(mcpShown(r))
	return &Error{Code: CodeSourceCommandUnapproved,
		Message: "skills.lock names a command to run: " + shown,
		Detail:  []string{"Restoring or updating a skill from an mcp: source runs that command on this machine, and skills.lock comes with the project, so agent-skills runs it only when you allow it. Nothing was run or installed."},
		Try: []string{"read the command; if you trust it: " + mcpCommandEnv + "=1 agent-skills install",
			"or install the skill afresh from a server you choose: agent-skills install mcp:'<command>' --skill NAME"}}
}

// dynamicRefusal is ASK_SOURCE_UNSUPPORTED for a skill whose files the
// server does not list.
func dynamicRefusal(s *mcpSession, k mcpSkill) error {
	return &Error{Code: CodeSourceUnsupported,
		Message: "the MCP server " + s.shown + " serves " + termtext.Line(k.name) + " with \"dynamic\" resources: its files are not listed, so they cannot be verified",
		Detail:  []string{"agent-skills installs a skill from an MCP server only when the listing gives every file with its size and sha256. Nothing was installed."},
		Try:     []string{"ask the server's maintainers to list the skill's resources"}}
}

// listMCP reads every page of skills/list and checks each entry.
func listMCP(ctx context.Context, s *mcpSession, opts *Options) ([]mcpSkill, error) {
	maxSkills := opts.MaxSkills
	if maxSkills <= 0 {
		maxSkills = DefaultMaxSkills
	}
	var out []mcpSkill
	seen := map[string]bool{}
	cursors := map[string]bool{}
	cursor := ""
	for page := 0; ; page++ {
		if page >= mcpMaxPages {
			return nil, s.protocol(fmt.Sprintf("skills/list goes on for more than %d pages", mcpMaxPages))
		}
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		var res struct {
			Skills     []mcpEntry `json:"skills"`
			NextCursor string     `json:"nextCursor"`
		}
		if err := s.call(ctx, "skills/list", "skills/list", params, &res); err != nil {
			return nil, err
		}
		for _, e := range res.Skills {
			k, err := checkEntry(s, e)
			if err != nil {
				return nil, err
			}
			if seen[k.folder] {
				return nil, s.protocol("skills/list lists " + k.uri + " twice")
			}
			seen[k.folder] = true
			out = append(out, k)
			if len(out) > maxSkills {
				return nil, &Error{Code: CodeSourceTooManySkills,
					Message: fmt.Sprintf("the MCP server %s serves more than %d skills", s.shown, maxSkills),
					Try:     []string{fmt.Sprintf("--max-skills %d (or more) to read them all", 2*maxSkills)}}
			}
		}
		if res.NextCursor == "" {
			return out, nil
		}
		if cursors[res.NextCursor] {
			return nil, s.protocol("skills/list returned a cursor it had returned before")
		}
		cursors[res.NextCursor] = true
		cursor = res.NextCursor
	}
}

// checkEntry checks one skill entry: its URI, its frontmatter (an object
// whose name is the last segment of the skill path) and its resources
// (every file once, SKILL.md among them, each under the skill root with a
// sha256 digest and a size, within SEP-2640's limits).
func checkEntry(s *mcpSession, e mcpEntry) (mcpSkill, error) {
	bad := func(why string) (mcpSkill, error) {
		return mcpSkill{}, s.protocol("the skill entry " + quote(termtext.Line(e.URI)) + " " + why)
	}
	k := mcpSkill{uri: e.URI}
	var ok bool
	if k.root, ok = strings.CutSuffix(e.URI, "/SKILL.md"); !ok || k.root == "" {
		return bad("does not name a SKILL.md")
	}
	var fm map[string]any
	if err := json.Unmarshal(e.Frontmatter, &fm); err != nil || fm == nil {
		return bad("has no frontmatter object")
	}
	k.front = fm
	k.name, _ = fm["name"].(string)
	if !skillRE.MatchString(k.name) {
		return bad("has no valid frontmatter name")
	}
	if rest, ok := strings.CutPrefix(k.root, "skill://"); ok {
		k.folder = rest
	} else {
		k.folder = k.name // another scheme: the skill path is not ours to read
	}
	for _, seg := range strings.Split(k.folder, "/") {
		if seg == "" || seg == "." || seg == ".." || strings.ContainsAny(seg, "\\\x00:") || seg != termtext.Line(seg) {
			return bad("has a skill path that is not a plain relative folder path")
		}
	}
	if path.Base(k.folder) != k.name {
		return bad("is in a folder whose last segment is not its frontmatter name " + quote(k.name))
	}
	if string(bytes.TrimSpace(e.Resources)) == `"dynamic"` {
		k.dynamic = true
		return k, nil
	}
	if err := json.Unmarshal(e.Resources, &k.files); err != nil || k.files == nil {
		return bad(`has no resources array (nor "dynamic")`)
	}
	if len(k.files) > mcpMaxResources {
		return bad(fmt.Sprintf("lists %d resources; SEP-2640 allows %d", len(k.files), mcpMaxResources))
	}
	var total int64
	uris := map[string]bool{}
	for _, f := range k.files {
		rel, ok := strings.CutPrefix(f.URI, k.root+"/")
		if !ok {
			return bad("lists " + quote(termtext.Line(f.URI)) + ", which is not under its root " + k.root)
		}
		if err := checkRel(rel); err != "" {
			return bad("lists " + quote(termtext.Line(f.URI)) + ": " + err)
		}
		if uris[f.URI] {
			return bad("lists " + f.URI + " twice")
		}
		if path.Join(k.folder, rel) == registryIndex {
			// In the tree discovery reads, it would make the server a registry.
			return bad("lists " + registryIndex + ", which agent-skills reads as a registry index")
		}
		uris[f.URI] = true
		if !digestRE(f.Digest) {
			return bad("gives " + rel + " a digest that is not sha256:<64 lowercase hex>")
		}
		if f.Size == nil || *f.Size < 0 || *f.Size > mcpMaxSkillSize {
			return bad("gives " + rel + " no size, or one out of range")
		}
		total += *f.Size
	}
	if !uris[e.URI] {
		return bad("does not list its own SKILL.md among its resources")
	}
	if total > mcpMaxSkillSize {
		return bad(fmt.Sprintf("adds up to %d bytes; SEP-2640 allows %d", total, mcpMaxSkillSize))
	}
	return k, nil
}

// checkRel returns why rel cannot be a file path inside a skill, or "".
func checkRel(rel string) string {
	for _, seg := range strings.Split(rel, "/") {
		if seg == "" || seg == "." || seg == ".." || strings.ContainsAny(seg, "\\\x00") || seg != termtext.Line(seg) {
			return "its path is not a plain relative file path"
		}
	}
	return ""
}

// digestRE reports whether d is sha256:<64 lowercase hex>.
func digestRE(d string) bool {
	h, ok := strings.CutPrefix(d, "sha256:")
	if !ok || len(h) != 64 {
		return false
	}
	for _, c := range h {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// fetchSkill reads the files of k (only its SKILL.md when onlySkillMD),
// verifies each and writes it under root/<k.folder>.
func fetchSkill(ctx context.Context, s *mcpSession, k mcpSkill, root string, onlySkillMD bool, opts *Options) error {
	for _, f := range k.files {
		if onlySkillMD && f.URI != k.uri {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		data, err := readVerified(ctx, s, k, f)
		if err != nil {
			return err
		}
		if f.URI == k.uri {
			if err := sameFrontmatter(s, k, data); err != nil {
				return err
			}
		}
		rel := strings.TrimPrefix(f.URI, k.root+"/")
		dest := filepath.Join(root, filepath.FromSlash(k.folder), filepath.FromSlash(rel))
		if old, err := os.ReadFile(dest); err == nil {
			// A nested skill's files are its parent's too: the same bytes.
			if !bytes.Equal(old, data) {
				return mcpMismatch(s, k, rel, "two entries serve it with different bytes")
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dest, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// readVerified reads one resource and checks it against the listing.
func readVerified(ctx context.Context, s *mcpSession, k mcpSkill, f mcpResource) ([]byte, error) {
	rel := strings.TrimPrefix(f.URI, k.root+"/")
	res, err := s.read(ctx, f.URI)
	if err != nil {
		return nil, err
	}
	if len(res.Contents) != 1 || res.Contents[0] == nil || res.Contents[0].URI != f.URI {
		return nil, s.protocol("resources/read of " + f.URI + " did not answer with exactly that resource")
	}
	c := res.Contents[0]
	data := []byte(c.Text)
	if c.Blob != nil {
		data = c.Blob
	}
	if int64(len(data)) != *f.Size {
		return nil, mcpMismatch(s, k, rel, fmt.Sprintf("the listing gives %d bytes, the server sent %d", *f.Size, len(data)))
	}
	sum := sha256.Sum256(data)
	if got := "sha256:" + hex.EncodeToString(sum[:]); got != f.Digest {
		return nil, mcpMismatch(s, k, rel, "the listing gives "+f.Digest+", the bytes the server sent are "+got)
	}
	return data, nil
}

// sameFrontmatter compares the front matter of SKILL.md with the entry's
// frontmatter, field by field: the same keys, and for each the same value
// (see sameValue).
func sameFrontmatter(s *mcpSession, k mcpSkill, data []byte) error {
	split, err := format.SplitFrontMatter(data)
	if err != nil || !split.Present {
		return mcpMismatch(s, k, "SKILL.md", "it has no front matter to compare with the listing's")
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(split.Data, &doc); err != nil || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return mcpMismatch(s, k, "SKILL.md", "its front matter is not a YAML mapping")
	}
	got := map[string]*yaml.Node{}
	m := doc.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		got[m.Content[i].Value] = m.Content[i+1]
	}
	want := k.front.(map[string]any)
	keys := map[string]bool{}
	for key := range want {
		keys[key] = true
	}
	for key := range got {
		keys[key] = true
	}
	var differ []string
	for key := range keys {
		n, ok := got[key]
		w, inWant := want[key]
		if !ok || !inWant || !sameValue(n, w, 0) {
			differ = append(differ, termtext.Line(key))
		}
	}
	if len(differ) > 0 {
		slices.Sort(differ)
		return mcpMismatch(s, k, "SKILL.md", "its front matter differs from the listing's in "+strings.Join(differ, ", "))
	}
	return nil
}

// sameValue reports whether the YAML value n is the JSON value v (as
// encoding/json decodes it into any). Mappings and sequences must match
// entry by entry. A scalar matches a JSON string when its text is the
// string, or when the value YAML reads it as prints as the string (a
// YAML timestamp such as 2024-01-01 is a string in one server's JSON and
// a time in another's); a number, a boolean or null when YAML reads it as
// that value, a boolean also in its YAML 1.1 spelling (yes/no/on/off).
// Servers parse front matter with different YAML libraries, and a field
// is the same field whichever one they used.
func sameValue(n *yaml.Node, v any, depth int) bool {
	if depth > 32 {
		return false
	}
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		return sameValue(n.Alias, v, depth+1)
	}
	switch n.Kind {
	case yaml.MappingNode:
		obj, ok := v.(map[string]any)
		if !ok || len(n.Content) != 2*len(obj) {
			return false
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			w, ok := obj[n.Content[i].Value]
			if !ok || !sameValue(n.Content[i+1], w, depth+1) {
				return false
			}
		}
		return true
	case yaml.SequenceNode:
		arr, ok := v.([]any)
		if !ok || len(arr) != len(n.Content) {
			return false
		}
		for i, c := range n.Content {
			if !sameValue(c, arr[i], depth+1) {
				return false
			}
		}
		return true
	case yaml.ScalarNode:
	default:
		return false
	}
	var typed any
	if err := n.Decode(&typed); err != nil {
		return false
	}
	switch w := v.(type) {
	case string:
		if n.Value == w {
			return true
		}
		if t, ok := typed.(time.Time); ok {
			// 2024-01-01 as a JS server prints it, or Go's, or Python's.
			u, err := time.Parse(time.RFC3339Nano, w)
			return (err == nil && u.Equal(t)) || w == t.Format(time.DateOnly)
		}
		return false
	case float64:
		switch x := typed.(type) {
		case int:
			return float64(x) == w
		case int64:
			return float64(x) == w
		case uint64:
			return float64(x) == w
		case float64:
			return x == w
		}
		return false
	case bool:
		if b, ok := typed.(bool); ok {
			return b == w
		}
		if n.Style != 0 { // quoted: a string
			return false
		}
		switch strings.ToLower(n.Value) {
		case "yes", "on", "y":
			return w
		case "no", "off", "n":
			return !w
		}
		return false
	case nil:
		return typed == nil
	}
	return false
}

// mcpMismatch is ASK_INTEGRITY_MISMATCH for one file of a skill.
func mcpMismatch(s *mcpSession, k mcpSkill, rel, why string) error {
	return &Error{Code: registry.CodeIntegrityMismatch,
		Message: fmt.Sprintf("%s from the MCP server %s does not match its listing: %s: %s", termtext.Line(k.name), s.shown, rel, why),
		Detail:  []string{"Nothing was installed: a file whose bytes do not match the listing is not used."},
		Try:     []string{"report it to the server's maintainers; try again later if the server was being updated"}}
}
