package mcpserver

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"mime"
	"net/url"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.yaml.in/yaml/v3"

	"github.com/agent-skills/agent-skills/format"
)

// SkillsExtension is the MCP Skills Extension's identifier (SEP-2640).
const SkillsExtension = "io.modelcontextprotocol/skills"

// Limits and cache hints of the SEP-2640 surface.
const (
	// MaxSkillResources is the most files one served skill may have,
	// SKILL.md included: the extension's per-skill limit. A larger skill
	// is not served.
	MaxSkillResources = 512
	// MaxSkillBytes is the most bytes one served skill may hold in total
	// (16 MiB), the extension's other per-skill limit; it also caps every
	// single file read.
	MaxSkillBytes = 16 << 20
	// SkillsPageSize is the most skills one skills/list or resources/list
	// page carries.
	SkillsPageSize = 50
	// SkillsPageBytes bounds the encoded entries of one page; a page
	// always carries at least one entry, which is never split.
	SkillsPageBytes = 1 << 20
	// SkillsTTLMs is the ttlMs hint of every skills/* and resources/*
	// result: installed skills change when the user installs, so a minute.
	SkillsTTLMs = 60_000
	// SkillsCacheScope is "private": the listing describes what this
	// user installed, which no shared cache should keep.
	SkillsCacheScope = "private"
	// maxCursorLength bounds the cursor a client passes back.
	maxCursorLength = 2048
	// maxURILength bounds a skill:// URI in a request.
	maxURILength = 4096
)

// URI prefixes of the origins. A skill's URI is
// skill://<origin>/<name>/<file>: installed/project, installed/global or
// registry/<registry name>, so that the same name from two origins gives
// two URIs, and the last segment before the file is the front-matter name.
const (
	OriginProject  = "installed/project"
	OriginGlobal   = "installed/global"
	originRegistry = "registry/"
	skillScheme    = "skill://"
)

// RegistryOrigin returns the URI prefix of a registry's skills.
func RegistryOrigin(registry string) string { return originRegistry + registry }

// SkillRef names one served skill: its origin prefix and its name.
type SkillRef struct {
	// Origin is OriginProject, OriginGlobal or RegistryOrigin(name).
	Origin string
	// Name is the skill's name, which its SKILL.md front matter repeats.
	Name string
}

// Root returns the skill's root URI, without a trailing slash.
func (r SkillRef) Root() string { return skillScheme + r.Origin + "/" + r.Name }

// FileURI returns the URI of the skill file rel, each segment escaped.
func (r SkillRef) FileURI(rel string) string {
	segs := strings.Split(rel, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return r.Root() + "/" + strings.Join(segs, "/")
}

// SkillFiles is one skill as the store serves it.
type SkillFiles struct {
	// Files is the skill's file set: sorted, slash-separated,
	// package-relative paths, SKILL.md included.
	Files []string
	// Read returns the bytes of one file of the set, confined to the
	// skill and bounded by MaxSkillBytes.
	Read func(rel string) ([]byte, error)
}

// ErrNotServed is what a SkillStore's error for a skill or file it does
// not serve matches (errors.Is); the server answers it with -32602.
var ErrNotServed = errors.New("not served")

// NotServed returns an error that says why a skill is not served and
// matches ErrNotServed.
func NotServed(format string, args ...any) error {
	return notServedError(fmt.Sprintf(format, args...))
}

// notServedError is NotServed's error.
type notServedError string

// Error returns the reason.
func (e notServedError) Error() string { return string(e) }

// Is matches ErrNotServed.
func (e notServedError) Is(target error) bool { return target == ErrNotServed }

// SkillStore serves the skills of the SEP-2640 surface. The CLI implements
// it over the installed skills and the registries' verified packages.
type SkillStore interface {
	// ServedSkills lists the skills that may be served, cheaply (no file
	// is read), in order of precedence: the listing keeps the first of
	// each name, builds each entry and leaves out those that cannot be
	// served.
	ServedSkills(ctx context.Context) ([]SkillRef, error)
	// OpenSkill returns the file set of one skill and its reader; an
	// error wrapping ErrNotServed when it serves no such skill.
	OpenSkill(ctx context.Context, ref SkillRef) (SkillFiles, error)
}

// SkillEntry is a Skill entry of skills/list and skills/get.
type SkillEntry struct {
	URI         string          `json:"uri"`
	Frontmatter map[string]any  `json:"frontmatter"`
	Resources   []SkillResource `json:"resources"`
}

// SkillResource is one file of a skill entry.
type SkillResource struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"`
	Size   int64  `json:"size"`
}

// listSkillsResult is skills/list's result.
type listSkillsResult struct {
	ResultType string       `json:"resultType"`
	Skills     []SkillEntry `json:"skills"`
	NextCursor string       `json:"nextCursor,omitempty"`
	TTLMs      int          `json:"ttlMs"`
	CacheScope string       `json:"cacheScope"`
}

// getSkillResult is skills/get's result.
type getSkillResult struct {
	ResultType string     `json:"resultType"`
	Skill      SkillEntry `json:"skill"`
	TTLMs      int        `json:"ttlMs"`
	CacheScope string     `json:"cacheScope"`
}

// builtSkill is an entry with what resources/list needs besides it.
type builtSkill struct {
	entry SkillEntry
	ref   SkillRef
	files []string
}

// RPCError is a JSON-RPC error a method handler returns.
type RPCError = jsonrpc.Error

// invalidParams builds a -32602 error.
func invalidParams(format string, args ...any) *RPCError {
	return &RPCError{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(format, args...)}
}

// internalError builds a -32603 error.
func internalError(err error) *RPCError {
	return &RPCError{Code: jsonrpc.CodeInternalError, Message: err.Error()}
}

// MethodHandler answers one JSON-RPC method the SDK does not know, with a
// result to encode or a *RPCError.
type MethodHandler func(ctx context.Context, params json.RawMessage) (any, error)

// SkillMethods returns the handlers of skills/list and skills/get over
// store, for LineTransport.Methods.
func SkillMethods(store SkillStore) map[string]MethodHandler {
	return map[string]MethodHandler{
		"skills/list": func(ctx context.Context, params json.RawMessage) (any, error) {
			var p struct {
				Cursor *string `json:"cursor"`
			}
			if err := decodeParams(params, &p); err != nil {
				return nil, err
			}
			after := ""
			if p.Cursor != nil {
				var err error
				if after, err = DecodeCursor(*p.Cursor); err != nil {
					return nil, invalidParams("%v", err)
				}
			}
			page, next, err := listPage(ctx, store, after)
			if err != nil {
				return nil, err
			}
			res := listSkillsResult{ResultType: "complete", Skills: []SkillEntry{}, NextCursor: next,
				TTLMs: SkillsTTLMs, CacheScope: SkillsCacheScope}
			for _, b := range page {
				res.Skills = append(res.Skills, b.entry)
			}
			return res, nil
		},
		"skills/get": func(ctx context.Context, params json.RawMessage) (any, error) {
			var p struct {
				URI *string `json:"uri"`
			}
			if err := decodeParams(params, &p); err != nil {
				return nil, err
			}
			if p.URI == nil {
				return nil, invalidParams(`skills/get needs "uri", the URI of a SKILL.md`)
			}
			ref, rel, err := ParseSkillURI(*p.URI)
			if err != nil {
				return nil, invalidParams("No skill is served at %s: %v", quoteURI(*p.URI), err)
			}
			if rel != skillMD {
				return nil, invalidParams("No skill is served at %s: a skill is named by the URI of its SKILL.md", quoteURI(*p.URI))
			}
			b, err := buildSkill(ctx, store, ref)
			if err != nil {
				return nil, err
			}
			return getSkillResult{ResultType: "complete", Skill: b.entry, TTLMs: SkillsTTLMs, CacheScope: SkillsCacheScope}, nil
		},
	}
}

// decodeParams decodes absent, null or object params into p; anything
// else is -32602.
func decodeParams(params json.RawMessage, p any) error {
	params = bytes.TrimSpace(params)
	if len(params) == 0 || string(params) == "null" {
		return nil
	}
	if params[0] != '{' || json.Unmarshal(params, p) != nil {
		return invalidParams("params must be an object with the fields of the method")
	}
	return nil
}

// listPage builds the page of entries after the root URI after ("" for
// the first page): at most SkillsPageSize entries and SkillsPageBytes of
// them, at least one. Skills that cannot be served are left out. next is
// the cursor of the following page, "" at the end.
func listPage(ctx context.Context, store SkillStore, after string) (page []builtSkill, next string, err error) {
	refs, err := store.ServedSkills(ctx)
	if err != nil {
		return nil, "", internalError(err)
	}
	// One entry per name, from the first origin that has it (the store
	// lists them in read_skill's order: project, global, registries), so
	// that names are unique in the listing; skills/get and resources/read
	// still serve the shadowed copies by URI.
	seen := map[string]bool{}
	refs = slices.DeleteFunc(refs, func(r SkillRef) bool {
		if seen[r.Name] {
			return true
		}
		seen[r.Name] = true
		return false
	})
	slices.SortFunc(refs, func(a, b SkillRef) int { return strings.Compare(a.Root(), b.Root()) })
	start, _ := slices.BinarySearchFunc(refs, after, func(r SkillRef, t string) int {
		if c := strings.Compare(r.Root(), t); c != 0 || t == "" {
			return c
		}
		return 0
	})
	if start < len(refs) && after != "" && refs[start].Root() == after {
		start++
	}
	size := 0
	for i := start; i < len(refs); i++ {
		if err := ctx.Err(); err != nil {
			return nil, "", internalError(err)
		}
		if len(page) == SkillsPageSize || (len(page) > 0 && size >= SkillsPageBytes) {
			return page, EncodeCursor(page[len(page)-1].ref.Root()), nil
		}
		b, err := buildSkill(ctx, store, refs[i])
		if err != nil {
			var rpc *RPCError
			if errors.As(err, &rpc) && rpc.Code == jsonrpc.CodeInvalidParams {
				// Not servable (over a limit, no valid front matter, a
				// registry package not available offline): the listing
				// may be partial, skills/get says why.
				continue
			}
			return nil, "", err
		}
		enc, _ := json.Marshal(b.entry)
		size += len(enc)
		page = append(page, b)
	}
	return page, "", nil
}

// buildSkill reads every file of ref and builds its entry; a skill that
// cannot be served is a -32602 error that says why.
func buildSkill(ctx context.Context, store SkillStore, ref SkillRef) (builtSkill, error) {
	uri := ref.FileURI(skillMD)
	sf, err := store.OpenSkill(ctx, ref)
	if errors.Is(err, ErrNotServed) {
		return builtSkill{}, invalidParams("No skill is served at %s: %v", uri, err)
	}
	if err != nil {
		return builtSkill{}, internalError(err)
	}
	if len(sf.Files) > MaxSkillResources {
		return builtSkill{}, invalidParams("No skill is served at %s: it has %d files, above the extension's limit of %d",
			uri, len(sf.Files), MaxSkillResources)
	}
	if !slices.Contains(sf.Files, skillMD) {
		return builtSkill{}, invalidParams("No skill is served at %s: it has no SKILL.md", uri)
	}
	b := builtSkill{ref: ref, files: sf.Files, entry: SkillEntry{URI: uri, Resources: make([]SkillResource, 0, len(sf.Files))}}
	var total int64
	for _, rel := range sf.Files {
		if err := ctx.Err(); err != nil {
			return builtSkill{}, internalError(err)
		}
		data, err := sf.Read(rel)
		if err != nil {
			return builtSkill{}, invalidParams("No skill is served at %s: %s cannot be served: %v", uri, rel, err)
		}
		total += int64(len(data))
		if total > MaxSkillBytes {
			return builtSkill{}, invalidParams("No skill is served at %s: its files hold more than the extension's limit of %d bytes",
				uri, MaxSkillBytes)
		}
		if rel == skillMD {
			fm, err := Frontmatter(data)
			if err != nil {
				return builtSkill{}, invalidParams("No skill is served at %s: %v", uri, err)
			}
			if fm["name"] != ref.Name {
				return builtSkill{}, invalidParams("No skill is served at %s: its front matter names %v, not %q", uri, fm["name"], ref.Name)
			}
			b.entry.Frontmatter = fm
		}
		sum := sha256.Sum256(data)
		b.entry.Resources = append(b.entry.Resources, SkillResource{URI: ref.FileURI(rel),
			Digest: "sha256:" + hex.EncodeToString(sum[:]), Size: int64(len(data))})
	}
	return b, nil
}

// Frontmatter decodes SKILL.md's YAML front matter as the JSON object an
// entry carries: every field, verbatim. It must be a mapping with string
// keys whose name and description are strings, and encodable as JSON.
func Frontmatter(skillMD []byte) (map[string]any, error) {
	fm, err := format.SplitFrontMatter(skillMD)
	if err != nil {
		return nil, fmt.Errorf("SKILL.md front matter: %v", err)
	}
	if !fm.Present {
		return nil, errors.New("SKILL.md has no front matter")
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(fm.Data, &doc); err != nil {
		return nil, fmt.Errorf("SKILL.md front matter is not YAML: %v", err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, errors.New("SKILL.md front matter is not a YAML mapping")
	}
	budget := maxFrontmatterNodes
	v, err := jsonValue(doc.Content[0], 0, &budget)
	if err != nil {
		return nil, fmt.Errorf("SKILL.md front matter cannot be written as JSON: %v", err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("SKILL.md front matter is not a YAML mapping")
	}
	for _, k := range []string{"name", "description"} {
		if s, ok := m[k].(string); !ok || s == "" {
			return nil, fmt.Errorf("SKILL.md front matter has no %s string", k)
		}
	}
	return m, nil
}

// maxFrontmatterNodes bounds the values one front matter expands to.
const maxFrontmatterNodes = 100_000

// jsonValue converts a YAML node to the value encoding/json writes as the
// same data. Scalars keep their YAML meaning (numbers, booleans, null),
// except timestamps, which stay the text the author wrote, as a YAML 1.2
// parser reads them. Mappings need string keys; NaN, infinities, integers
// beyond 64 bits and nesting deeper than 64 are errors, and so is expanding to more than
// budget values.
func jsonValue(n *yaml.Node, depth int, budget *int) (any, error) {
	if depth > 64 {
		return nil, errors.New("nested deeper than 64 levels")
	}
	if *budget--; *budget < 0 {
		// Aliases can multiply a small text into a huge value.
		return nil, fmt.Errorf("more than %d values", maxFrontmatterNodes)
	}
	switch n.Kind {
	case yaml.AliasNode:
		return jsonValue(n.Alias, depth+1, budget)
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind != yaml.ScalarNode || k.ShortTag() != "!!str" {
				return nil, fmt.Errorf("line %d: a key that is not a string", k.Line)
			}
			c, err := jsonValue(v, depth+1, budget)
			if err != nil {
				return nil, err
			}
			out[k.Value] = c
		}
		return out, nil
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, e := range n.Content {
			c, err := jsonValue(e, depth+1, budget)
			if err != nil {
				return nil, err
			}
			out = append(out, c)
		}
		return out, nil
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!str", "!!timestamp", "!!binary":
			return n.Value, nil
		case "!!null":
			return nil, nil
		}
		var v any
		if err := n.Decode(&v); err != nil {
			return nil, fmt.Errorf("line %d: %v", n.Line, err)
		}
		switch t := v.(type) {
		case bool, int, int64, uint64:
			return t, nil
		case float64:
			if math.IsNaN(t) || math.IsInf(t, 0) {
				return nil, fmt.Errorf("line %d: %s has no JSON form", n.Line, n.Value)
			}
			return t, nil
		}
		return nil, fmt.Errorf("line %d: a %s value", n.Line, n.ShortTag())
	}
	return nil, fmt.Errorf("line %d: an unexpected YAML node", n.Line)
}

// ParseSkillURI splits skill://<origin>/<name>/<file> into the skill and
// the file's package-relative path (segments unescaped once). It checks
// the shape only; whether the skill and file are served is the store's.
func ParseSkillURI(uri string) (SkillRef, string, error) {
	if len(uri) > maxURILength {
		return SkillRef{}, "", fmt.Errorf("the URI is longer than %d bytes", maxURILength)
	}
	rest, ok := strings.CutPrefix(uri, skillScheme)
	if !ok {
		return SkillRef{}, "", errors.New("not a skill:// URI")
	}
	if strings.ContainsAny(rest, "?#") {
		return SkillRef{}, "", errors.New("skill URIs have no query or fragment")
	}
	parts := strings.SplitN(rest, "/", 4)
	if len(parts) < 4 || parts[3] == "" {
		return SkillRef{}, "", errors.New("expected skill://installed/<project|global>/<name>/<file> or skill://registry/<registry>/<name>/<file>")
	}
	var origin string
	switch {
	case parts[0] == "installed" && (parts[1] == "project" || parts[1] == "global"):
		origin = parts[0] + "/" + parts[1]
	case parts[0] == "registry" && validRegistryName(parts[1]):
		origin = RegistryOrigin(parts[1])
	default:
		return SkillRef{}, "", fmt.Errorf("unknown origin %q", parts[0]+"/"+parts[1])
	}
	if !format.ValidName(parts[2]) {
		return SkillRef{}, "", fmt.Errorf("%q is not a skill name", parts[2])
	}
	segs := strings.Split(parts[3], "/")
	for i, s := range segs {
		u, err := url.PathUnescape(s)
		if err != nil || u == "" || strings.Contains(u, "/") {
			return SkillRef{}, "", fmt.Errorf("bad path segment %q", s)
		}
		segs[i] = u
	}
	rel := strings.Join(segs, "/")
	if !utf8.ValidString(rel) {
		return SkillRef{}, "", errors.New("the path is not valid UTF-8")
	}
	return SkillRef{Origin: origin, Name: parts[2]}, rel, nil
}

// validRegistryName reports a registry name of the configuration's
// grammar: lowercase letters, digits and inner hyphens, at most 64 bytes.
func validRegistryName(name string) bool {
	if name == "" || len(name) > 64 || name[0] == '-' || name[len(name)-1] == '-' {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// skillMD is the entry point every served skill has.
const skillMD = "SKILL.md"

// cursorPrefix versions the cursor format.
const cursorPrefix = "v1:"

// EncodeCursor returns the opaque cursor of the page after the skill whose
// root URI is after.
func EncodeCursor(after string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(cursorPrefix + after))
}

// DecodeCursor returns the root URI a cursor from EncodeCursor carries.
// Anything else — too long, not base64url, another version, not a skill
// root — is an error (-32602).
func DecodeCursor(cursor string) (string, error) {
	if len(cursor) > maxCursorLength {
		return "", errors.New("invalid cursor: too long")
	}
	raw, err := base64.RawURLEncoding.Strict().DecodeString(cursor)
	if err != nil {
		return "", errors.New("invalid cursor: not one this server returned")
	}
	after, ok := strings.CutPrefix(string(raw), cursorPrefix)
	if !ok || !strings.HasPrefix(after, skillScheme) || !utf8.ValidString(after) {
		return "", errors.New("invalid cursor: not one this server returned")
	}
	if _, _, err := ParseSkillURI(after + "/" + skillMD); err != nil {
		return "", errors.New("invalid cursor: not one this server returned")
	}
	return after, nil
}

// quoteURI bounds a client's URI for an error message.
func quoteURI(uri string) string {
	if len(uri) > 200 {
		uri = uri[:200] + "…"
	}
	return fmt.Sprintf("%q", uri)
}

// mimeTypeOf is the MIME type of a skill file: text/markdown for
// Markdown, the extension's registered type otherwise, and
// application/octet-stream when there is none.
func mimeTypeOf(rel string) string {
	ext := path.Ext(rel)
	switch ext {
	case ".md", ".markdown":
		return "text/markdown"
	case "":
		return "application/octet-stream"
	}
	if t := mime.TypeByExtension(ext); t != "" {
		return t
	}
	return "application/octet-stream"
}

// addSkillResources serves every file of every skill as a skill://
// resource: resources/read through a resource template, resources/list
// through a receiving middleware that pages the skills' files (the SDK
// lists only resources added one by one, which would go stale as skills
// are installed).
func addSkillResources(s *mcp.Server, store SkillStore) {
	s.AddResourceTemplate(&mcp.ResourceTemplate{Name: "skill-file", Title: "A file of a skill",
		URITemplate: "skill://{+path}",
		Description: "Every file of every served skill (SEP-2640): skill://installed/project/<name>/<file>, " +
			"skill://installed/global/<name>/<file> and skill://registry/<registry>/<name>/<file>."},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return readSkillResource(ctx, store, req.Params.URI)
		})
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != "resources/list" {
				return next(ctx, method, req)
			}
			after := ""
			if p, ok := req.GetParams().(*mcp.ListResourcesParams); ok && p != nil && p.Cursor != "" {
				var err error
				if after, err = DecodeCursor(p.Cursor); err != nil {
					return nil, invalidParams("%v", err)
				}
			}
			page, next, err := listPage(ctx, store, after)
			if err != nil {
				return nil, err
			}
			res := &mcp.ListResourcesResult{NextCursor: next, Resources: []*mcp.Resource{},
				Cacheable: mcp.Cacheable{TTLMs: SkillsTTLMs, CacheScope: SkillsCacheScope}}
			for _, b := range page {
				for i, rel := range b.files {
					r := &mcp.Resource{URI: b.entry.Resources[i].URI, Name: path.Base(rel), Title: b.ref.Name + "/" + rel,
						MIMEType: mimeTypeOf(rel), Size: b.entry.Resources[i].Size}
					if rel == skillMD {
						r.Name = b.ref.Name
						r.Description, _ = b.entry.Frontmatter["description"].(string)
					}
					res.Resources = append(res.Resources, r)
				}
			}
			return res, nil
		}
	})
}

// readSkillResource serves one skill file: -32602 for a URI that names no
// served file (a path outside the file set, a link, a skill over a limit).
func readSkillResource(ctx context.Context, store SkillStore, uri string) (*mcp.ReadResourceResult, error) {
	ref, rel, err := ParseSkillURI(uri)
	if err != nil {
		return nil, invalidParams("Resource not found: %s: %v", quoteURI(uri), err)
	}
	sf, err := store.OpenSkill(ctx, ref)
	if errors.Is(err, ErrNotServed) {
		return nil, invalidParams("Resource not found: %s: %v", quoteURI(uri), err)
	}
	if err != nil {
		return nil, internalError(err)
	}
	if len(sf.Files) > MaxSkillResources {
		return nil, invalidParams("Resource not found: %s: the skill has more than %d files", quoteURI(uri), MaxSkillResources)
	}
	if !slices.Contains(sf.Files, rel) {
		return nil, invalidParams("Resource not found: %s: the skill has no such file", quoteURI(uri))
	}
	data, err := sf.Read(rel)
	if err != nil {
		return nil, invalidParams("Resource not found: %s: %v", quoteURI(uri), err)
	}
	c := &mcp.ResourceContents{URI: ref.FileURI(rel), MIMEType: mimeTypeOf(rel)}
	if utf8.Valid(data) && !bytes.ContainsRune(data, 0) {
		c.Text = string(data)
		if strings.HasPrefix(c.MIMEType, "application/octet-stream") {
			c.MIMEType = "text/plain"
		}
	} else {
		c.Blob = data
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c},
		Cacheable: mcp.Cacheable{TTLMs: SkillsTTLMs, CacheScope: SkillsCacheScope}}, nil
}
