package source

import (
	"net/url"
	"strings"
)

// The prefixes of an MCP source (docs/sources.md, "MCP servers").
const (
	mcpStdioPrefix = "mcp:"
	mcpHTTPSPrefix = "mcp+https://"
	mcpHTTPPrefix  = "mcp+http://"
)

// isMCPSyntax reports whether s is written as an MCP source: mcp:<command…>,
// mcp+https://… or mcp+http://….
func isMCPSyntax(s string) bool {
	low := strings.ToLower(s)
	return strings.HasPrefix(low, mcpStdioPrefix) || strings.HasPrefix(low, mcpHTTPSPrefix) ||
		strings.HasPrefix(low, mcpHTTPPrefix)
}

// parseMCP reads an MCP source. mcp:<command…> is one argument that is
// split into words like a shell would split it, without running one:
// blanks separate words, '…' quotes literally, "…" quotes with \" and \\
// as its only escapes, and a backslash outside quotes takes the next
// character literally. Nothing is expanded: no variables, no ~, no
// globs, no pipes or redirections (such characters are refused outside
// quotes, so that a command meant for a shell fails loudly instead of
// running something else). mcp+https://host/path is a streamable HTTP
// endpoint; plain mcp+http:// is accepted only for a loopback host.
func parseMCP(ref, s string) (Ref, error) {
	out := Ref{Kind: KindMCP, Input: ref}
	low := strings.ToLower(s)
	if strings.HasPrefix(low, mcpHTTPSPrefix) || strings.HasPrefix(low, mcpHTTPPrefix) {
		raw := s[len("mcp+"):]
		u, err := url.Parse(raw)
		if err != nil || u.Host == "" {
			return Ref{}, mcpInvalid(ref, "write mcp+https://host/path")
		}
		if u.User != nil {
			return Ref{}, mcpInvalid(ref, "an MCP URL must not carry user information; skills.lock would record it")
		}
		if u.Fragment != "" || strings.Contains(raw, "#") {
			return Ref{}, mcpInvalid(ref, "an MCP URL has no #fragment; pick a skill with --skill NAME")
		}
		u.Scheme = strings.ToLower(u.Scheme)
		if u.Scheme == "http" && !isLoopback(u.Hostname()) {
			return Ref{}, mcpInvalid(ref, "plain http is refused for MCP servers except on loopback (use mcp+https://)")
		}
		out.URL = u.String()
		return out, nil
	}
	words, why := splitWords(s[len(mcpStdioPrefix):])
	if why != "" {
		return Ref{}, mcpInvalid(ref, why)
	}
	if len(words) == 0 {
		return Ref{}, mcpInvalid(ref, "write mcp:<command> [args…], such as mcp:'python3 server.py'")
	}
	if strings.HasPrefix(words[0], "-") {
		return Ref{}, mcpInvalid(ref, "the command must not start with '-'")
	}
	out.Command = joinWords(words)
	return out, nil
}

// mcpInvalid is ASK_SOURCE_INVALID for an MCP source.
func mcpInvalid(ref, why string) *Error {
	e := invalid(ref, why)
	e.Try = []string{"write mcp:'<command> [args…]' (split into words without a shell) or mcp+https://host/path (see docs/sources.md)"}
	return e
}

// shellOnly are the characters a shell would give a meaning that
// splitWords does not; outside quotes they are refused.
const shellOnly = "|&;<>()$`*?[]{}~!#"

// splitWords splits s into words as described at parseMCP, returning why
// it cannot when it cannot.
func splitWords(s string) ([]string, string) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, "a ' quote is never closed"
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, `a " quote is never closed`
			}
			inWord = true
		case c == '\\':
			if i+1 >= len(s) {
				return nil, "a backslash ends the command"
			}
			i++
			cur.WriteByte(s[i])
			inWord = true
		case c == 0:
			return nil, "the command contains a NUL byte"
		case strings.IndexByte(shellOnly, c) >= 0 && !(c == '~' && inWord) && !(c == '#' && inWord):
			return nil, "the command contains " + quote(string(c)) + ", which a shell would interpret and agent-skills does not (it runs no shell); quote it if it is literal"
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, ""
}

// joinWords is the inverse of splitWords: the words separated by blanks,
// each quoted with '…' only when it must be, so that splitWords gives
// them back.
func joinWords(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		if w != "" && !strings.ContainsAny(w, " \t\n'\"\\"+shellOnly) {
			out[i] = w
			continue
		}
		out[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(out, " ")
}

// mcpIdentity is Identity for an MCP server: "mcp:" and its command
// (joinWords), or "mcp+" and its URL with the scheme and host
// lower-cased and no trailing slash.
func mcpIdentity(r Ref) string {
	if r.URL == "" {
		return mcpStdioPrefix + r.Command
	}
	u, err := url.Parse(r.URL)
	if err != nil {
		return "mcp+" + r.URL
	}
	u.Scheme, u.Host, u.User, u.Fragment = strings.ToLower(u.Scheme), strings.ToLower(u.Host), nil, ""
	u.Path = strings.TrimRight(u.Path, "/")
	return "mcp+" + u.String()
}

// mcpShown is how messages name the server r reaches: its identity.
func mcpShown(r Ref) string { return scrub(mcpIdentity(r), nil) }
