// Package readhook turns the payload a coding agent gives its post-tool
// hook into a read observation of an installed skill's file, without
// trusting the payload: Parse reads one host's payload with limits and
// keeps only what a read needs (never a file body or a command), and
// Confine checks that the path is a regular Markdown file inside an
// installed skill's folder, reached without a link out of the skill or
// out of its root.
//
// What each host sends was captured from the real agents (Claude Code
// 2.1.328, Codex 0.169.0, Gemini CLI 0.61.0, Copilot CLI 1.0.102; the
// payloads are in testdata/); docs/evidence-hooks.md says what is accepted
// and what is dropped.
package readhook

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"time"
)

// MaxPayload is the largest payload Parse reads: a payload holds the whole
// body of the file read, so it is large, but it is bounded.
const MaxPayload = 16 << 20

// Hosts are the hosts whose read events Parse understands.
var Hosts = []string{"claude", "codex", "copilot", "gemini"}

// ErrNotRead says the payload is well formed but is no successful file read
// this package counts: another tool, a failed read, a shell command that is
// not a bounded literal read. A hook stays silent about it.
var ErrNotRead = errors.New("not a successful file read")

// Candidate is a file read a host reported, before it is confined to an
// installed skill.
type Candidate struct {
	// Host is the host that sent it.
	Host string
	// EventKey identifies the event for idempotent retries: the host's own
	// tool-call id where it has one, else a digest of its session,
	// timestamp and path (so identical receipts with the same timestamp
	// collapse into one).
	EventKey string
	// Session is the host's session id, "" when it gives none.
	Session string
	// At is the host's timestamp, UTC, millisecond precision; zero when the
	// host gives none (Claude Code, Codex).
	At time.Time
	// Path is the absolute, cleaned path read (a relative path is joined
	// with the payload's cwd). It is not resolved: Confine does that.
	Path string
	// Partial says only part of the file was read (an offset, a line range).
	Partial bool
	// Returned is, for Codex only, the command's output: Confine compares it
	// with the file's bytes and the caller must drop it afterwards.
	Returned []byte
	// Lines is, for a Codex sed read, the line range A..B printed (1-based,
	// inclusive); zero for a whole file.
	Lines [2]int
}

// Parse reads the payload host gave its post-tool hook. It returns
// ErrNotRead (wrapped) for a well-formed event that is no successful read,
// another error for a malformed or oversized payload.
func Parse(host string, payload []byte) (Candidate, error) {
	if len(payload) > MaxPayload {
		return Candidate{}, fmt.Errorf("the hook payload is over %d MiB", MaxPayload>>20)
	}
	if !json.Valid(payload) {
		return Candidate{}, errors.New("the hook payload is not JSON")
	}
	var c Candidate
	var err error
	switch host {
	case "claude":
		c, err = parseClaude(payload)
	case "codex":
		c, err = parseCodex(payload)
	case "gemini":
		c, err = parseGemini(payload)
	case "copilot":
		c, err = parseCopilot(payload)
	default:
		return Candidate{}, fmt.Errorf("unknown host %q: use claude, codex, copilot or gemini", host)
	}
	if err != nil {
		return Candidate{}, err
	}
	c.Host = host
	return c, nil
}

// notRead wraps ErrNotRead with the reason.
func notRead(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrNotRead, fmt.Sprintf(format, a...))
}

// Bounds of the short fields a payload carries.
const (
	maxIDLen   = 256
	maxPathLen = 4096
)

// checkID validates a host id: printable ASCII without spaces, bounded.
func checkID(what, s string, required bool) error {
	if s == "" {
		if required {
			return fmt.Errorf("the hook payload has no %s", what)
		}
		return nil
	}
	if len(s) > maxIDLen {
		return fmt.Errorf("the hook payload's %s is over %d bytes", what, maxIDLen)
	}
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] >= 0x7f {
			return fmt.Errorf("the hook payload's %s has a character outside printable ASCII", what)
		}
	}
	return nil
}

// absPath makes p absolute against cwd and cleans it; it refuses an empty
// path, a path with a NUL or a control character, and a relative path
// without an absolute cwd.
func absPath(p, cwd string) (string, error) {
	if p == "" {
		return "", errors.New("the hook payload has no file path")
	}
	if len(p) > maxPathLen || len(cwd) > maxPathLen {
		return "", fmt.Errorf("the hook payload's path is over %d bytes", maxPathLen)
	}
	for _, s := range []string{p, cwd} {
		for i := 0; i < len(s); i++ {
			if s[i] < ' ' || s[i] == 0x7f {
				return "", errors.New("the hook payload's path has a control character")
			}
		}
	}
	if !filepath.IsAbs(p) {
		if !filepath.IsAbs(cwd) {
			return "", errors.New("the hook payload's path is relative and its cwd is not absolute")
		}
		p = filepath.Join(cwd, p)
	}
	return filepath.Clean(p), nil
}

// keyDigest returns a short digest of parts, each length-prefixed so that
// no two different lists collide by concatenation.
func keyDigest(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s\n", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// Timestamps outside these bounds are not a host's clock.
var (
	minAt = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	maxAt = time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC)
)

func checkAt(t time.Time) (time.Time, error) {
	t = t.UTC().Truncate(time.Millisecond)
	if t.Before(minAt) || !t.Before(maxAt) {
		return time.Time{}, errors.New("the hook payload's timestamp is out of range")
	}
	return t, nil
}

// present reports whether a raw JSON value is there and not null.
func present(r json.RawMessage) bool {
	r = bytes.TrimSpace(r)
	return len(r) > 0 && !bytes.Equal(r, []byte("null"))
}

// emptyish reports whether a raw JSON value is absent, null, false, "",
// {} or [] — an "error" field that says nothing went wrong.
func emptyish(r json.RawMessage) bool {
	r = bytes.TrimSpace(r)
	switch string(r) {
	case "", "null", "false", `""`, "{}", "[]":
		return true
	}
	return false
}

// ---- Claude Code: PostToolUse, tool Read ----

type claudePayload struct {
	SessionID     string          `json:"session_id"`
	Cwd           string          `json:"cwd"`
	HookEventName string          `json:"hook_event_name"`
	ToolName      string          `json:"tool_name"`
	ToolUseID     string          `json:"tool_use_id"`
	ToolInput     json.RawMessage `json:"tool_input"`
	ToolResponse  json.RawMessage `json:"tool_response"`
}

type claudeInput struct {
	FilePath string `json:"file_path"`
}

type claudeResponse struct {
	Type string `json:"type"`
	File *struct {
		FilePath   string `json:"filePath"`
		NumLines   int64  `json:"numLines"`
		StartLine  int64  `json:"startLine"`
		TotalLines int64  `json:"totalLines"`
	} `json:"file"`
}

func parseClaude(payload []byte) (Candidate, error) {
	var p claudePayload
	if err := json.Unmarshal(payload, &p); err != nil {
		return Candidate{}, fmt.Errorf("the hook payload is not a Claude Code hook event: %v", err)
	}
	if p.HookEventName != "PostToolUse" {
		return Candidate{}, notRead("event %q", p.HookEventName)
	}
	if p.ToolName != "Read" {
		return Candidate{}, notRead("tool %q", p.ToolName)
	}
	var in claudeInput
	if err := json.Unmarshal(p.ToolInput, &in); err != nil {
		return Candidate{}, errors.New("the hook payload's tool_input is not an object with file_path")
	}
	var resp claudeResponse
	if !present(p.ToolResponse) || json.Unmarshal(p.ToolResponse, &resp) != nil || resp.File == nil {
		// An image, a PDF or a notebook comes back without a text file.
		return Candidate{}, notRead("no file in tool_response")
	}
	if err := checkID("tool_use_id", p.ToolUseID, true); err != nil {
		return Candidate{}, err
	}
	if err := checkID("session_id", p.SessionID, false); err != nil {
		return Candidate{}, err
	}
	path, err := absPath(in.FilePath, p.Cwd)
	if err != nil {
		return Candidate{}, err
	}
	f := resp.File
	return Candidate{
		EventKey: "claude:" + p.ToolUseID,
		Session:  p.SessionID,
		Path:     path,
		Partial:  f.StartLine > 1 || f.NumLines < f.TotalLines,
	}, nil
}

// ---- Codex: PostToolUse, tool Bash (exec_command) ----

type codexPayload struct {
	SessionID     string          `json:"session_id"`
	Cwd           string          `json:"cwd"`
	HookEventName string          `json:"hook_event_name"`
	ToolName      string          `json:"tool_name"`
	ToolUseID     string          `json:"tool_use_id"`
	ToolInput     json.RawMessage `json:"tool_input"`
	ToolResponse  json.RawMessage `json:"tool_response"`
}

func parseCodex(payload []byte) (Candidate, error) {
	var p codexPayload
	if err := json.Unmarshal(payload, &p); err != nil {
		return Candidate{}, fmt.Errorf("the hook payload is not a Codex hook event: %v", err)
	}
	if p.HookEventName != "PostToolUse" {
		return Candidate{}, notRead("event %q", p.HookEventName)
	}
	if p.ToolName != "Bash" {
		return Candidate{}, notRead("tool %q", p.ToolName)
	}
	var in struct {
		Command json.RawMessage `json:"command"`
	}
	if err := json.Unmarshal(p.ToolInput, &in); err != nil || !present(in.Command) {
		return Candidate{}, errors.New("the hook payload's tool_input has no command")
	}
	rd, err := commandRead(in.Command)
	if err != nil {
		return Candidate{}, err
	}
	// The output is a string (captured, 0.169.0); an object with an
	// "output" string is accepted too, for older or later shapes.
	var out string
	if err := json.Unmarshal(p.ToolResponse, &out); err != nil {
		var obj struct {
			Output *string `json:"output"`
		}
		if json.Unmarshal(p.ToolResponse, &obj) != nil || obj.Output == nil {
			return Candidate{}, notRead("tool_response holds no output text")
		}
		out = *obj.Output
	}
	if err := checkID("tool_use_id", p.ToolUseID, true); err != nil {
		return Candidate{}, err
	}
	if err := checkID("session_id", p.SessionID, false); err != nil {
		return Candidate{}, err
	}
	path, err := absPath(rd.path, p.Cwd)
	if err != nil {
		return Candidate{}, err
	}
	key := "codex:" + p.ToolUseID
	if p.SessionID != "" {
		// Codex's call ids come from the model; the session makes them unique.
		key = "codex:" + p.SessionID + ":" + p.ToolUseID
	}
	return Candidate{
		EventKey: key,
		Session:  p.SessionID,
		Path:     path,
		Partial:  rd.lines != [2]int{},
		Returned: []byte(out),
		Lines:    rd.lines,
	}, nil
}

// ---- Gemini CLI: AfterTool, tool read_file ----

type geminiPayload struct {
	SessionID     string          `json:"session_id"`
	Cwd           string          `json:"cwd"`
	HookEventName string          `json:"hook_event_name"`
	Timestamp     string          `json:"timestamp"`
	ToolName      string          `json:"tool_name"`
	ToolInput     json.RawMessage `json:"tool_input"`
	ToolResponse  json.RawMessage `json:"tool_response"`
}

type geminiInput struct {
	FilePath  string          `json:"file_path"`
	StartLine json.RawMessage `json:"start_line"`
	EndLine   json.RawMessage `json:"end_line"`
}

func parseGemini(payload []byte) (Candidate, error) {
	var p geminiPayload
	if err := json.Unmarshal(payload, &p); err != nil {
		return Candidate{}, fmt.Errorf("the hook payload is not a Gemini CLI hook event: %v", err)
	}
	if p.HookEventName != "AfterTool" {
		return Candidate{}, notRead("event %q", p.HookEventName)
	}
	if p.ToolName != "read_file" {
		return Candidate{}, notRead("tool %q", p.ToolName)
	}
	var in geminiInput
	if err := json.Unmarshal(p.ToolInput, &in); err != nil {
		return Candidate{}, errors.New("the hook payload's tool_input is not an object with file_path")
	}
	// AfterTool fires for a failed read too, with tool_response.error set.
	var resp struct {
		Error json.RawMessage `json:"error"`
	}
	if !present(p.ToolResponse) || json.Unmarshal(p.ToolResponse, &resp) != nil {
		return Candidate{}, notRead("no tool_response object")
	}
	if !emptyish(resp.Error) {
		return Candidate{}, notRead("the read failed")
	}
	if err := checkID("session_id", p.SessionID, false); err != nil {
		return Candidate{}, err
	}
	if p.Timestamp == "" || len(p.Timestamp) > 64 {
		return Candidate{}, errors.New("the hook payload has no usable timestamp")
	}
	t, err := time.Parse(time.RFC3339Nano, p.Timestamp)
	if err != nil {
		return Candidate{}, errors.New("the hook payload's timestamp is not RFC 3339")
	}
	at, err := checkAt(t)
	if err != nil {
		return Candidate{}, err
	}
	path, err := absPath(in.FilePath, p.Cwd)
	if err != nil {
		return Candidate{}, err
	}
	return Candidate{
		EventKey: "gemini:" + keyDigest(p.SessionID, p.Timestamp, path),
		Session:  p.SessionID,
		At:       at,
		Path:     path,
		Partial:  present(in.StartLine) || present(in.EndLine),
	}, nil
}

// ---- GitHub Copilot CLI: postToolUse, tool view ----

type copilotPayload struct {
	SessionID  string          `json:"sessionId"`
	Timestamp  json.Number     `json:"timestamp"`
	Cwd        string          `json:"cwd"`
	ToolName   string          `json:"toolName"`
	ToolArgs   json.RawMessage `json:"toolArgs"`
	ToolResult json.RawMessage `json:"toolResult"`
	Error      json.RawMessage `json:"error"`
}

type copilotArgs struct {
	Path      string  `json:"path"`
	ViewRange []int64 `json:"view_range"`
}

func parseCopilot(payload []byte) (Candidate, error) {
	var p copilotPayload
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.UseNumber()
	if err := dec.Decode(&p); err != nil {
		return Candidate{}, fmt.Errorf("the hook payload is not a Copilot CLI hook event: %v", err)
	}
	if p.ToolName != "view" {
		return Candidate{}, notRead("tool %q", p.ToolName)
	}
	if !emptyish(p.Error) {
		return Candidate{}, notRead("the view failed")
	}
	// toolArgs is an object (captured, 1.0.102); a JSON string holding the
	// object is accepted too, as the documentation describes it.
	raw := p.ToolArgs
	var s string
	if json.Unmarshal(raw, &s) == nil {
		raw = json.RawMessage(s)
	}
	var args copilotArgs
	if err := json.Unmarshal(raw, &args); err != nil {
		return Candidate{}, errors.New("the hook payload's toolArgs is not an object with path")
	}
	if present(p.ToolResult) {
		var res struct {
			ResultType *string `json:"resultType"`
		}
		if json.Unmarshal(p.ToolResult, &res) != nil {
			return Candidate{}, notRead("toolResult is not an object")
		}
		if res.ResultType != nil && *res.ResultType != "success" {
			return Candidate{}, notRead("resultType %q", *res.ResultType)
		}
	}
	if err := checkID("sessionId", p.SessionID, false); err != nil {
		return Candidate{}, err
	}
	ms, err := p.Timestamp.Int64()
	if err != nil || ms <= 0 || ms > math.MaxInt64/int64(time.Millisecond) {
		return Candidate{}, errors.New("the hook payload has no usable timestamp (Unix milliseconds)")
	}
	at, err := checkAt(time.UnixMilli(ms))
	if err != nil {
		return Candidate{}, err
	}
	path, err := absPath(args.Path, p.Cwd)
	if err != nil {
		return Candidate{}, err
	}
	partial := false
	if len(args.ViewRange) > 0 {
		partial = !(len(args.ViewRange) == 2 && args.ViewRange[0] <= 1 && args.ViewRange[1] == -1)
	}
	return Candidate{
		EventKey: "copilot:" + keyDigest(p.SessionID, p.Timestamp.String(), path, p.Cwd),
		Session:  p.SessionID,
		At:       at,
		Path:     path,
		Partial:  partial,
	}, nil
}

// isShell reports whether name is a POSIX shell Codex may wrap a command in.
func isShell(name string) bool {
	switch strings.TrimPrefix(strings.TrimPrefix(name, "/usr"), "/bin/") {
	case "bash", "sh", "zsh", "dash":
		return true
	}
	return false
}
