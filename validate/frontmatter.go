package validate

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agent-skills/agent-skills/format"
)

// Limits of the Agent Skills specification for entrypoint front matter.
const (
	// MaxDescriptionLen is the longest description, in characters.
	MaxDescriptionLen = 1024
	// MaxCompatibilityLen is the longest compatibility note, in characters.
	MaxCompatibilityLen = 500
)

// specKeys are the front-matter keys of the Agent Skills specification,
// plus version, which this package format adds (DESIGN §3.2).
var specKeys = []string{"name", "description", "license", "compatibility", "metadata", "allowed-tools", "version"}

// DefaultAgentFrontMatterKeys returns the front-matter keys that agents
// understand beyond the Agent Skills specification, by agent id. Such keys
// are reported as agent-specific rather than unknown. The lists follow the
// agents' public documentation:
//
//   - claude-code (Claude Code skills and commands): when_to_use,
//     argument-hint, arguments, disable-model-invocation, user-invocable,
//     allowed-tools (also in the specification), disallowed-tools, model,
//     effort, context, agent, background, hooks, paths.
//   - codex (OpenAI Codex) reads only name and description from SKILL.md
//     and keeps its extras inside metadata (metadata.short-description) or
//     in agents/openai.yaml, so it adds no top-level keys.
//
// A caller with fresher knowledge (the agent adapters) passes its own map
// in Options.AgentFrontMatterKeys. Each call returns a new map.
func DefaultAgentFrontMatterKeys() map[string][]string {
	return map[string][]string{
		"claude-code": {
			"when_to_use", "argument-hint", "arguments", "disable-model-invocation",
			"user-invocable", "disallowed-tools", "model", "effort", "context",
			"agent", "background", "hooks", "paths",
		},
	}
}

// CheckEntrypoint applies the Agent Skills specification to an
// entrypoint's front matter (or WORKFLOW.js meta) and returns every problem
// with the field path it concerns, at the level its rule has at gate g
// (see Rules; a rule that is off at g is not reported):
//
//   - name: required for SKILL.md and WORKFLOW.js, optional for COMMAND.md
//     (the file name is the command name); a string of at most 64 lowercase
//     letters, digits and hyphens, with no leading, trailing or double
//     hyphen (ASK_FRONTMATTER_FIELD_INVALID).
//   - description: required for SKILL.md and WORKFLOW.js, recommended (a
//     warning when missing) for COMMAND.md; a string, non-empty after
//     trimming, at most 1024 characters.
//   - compatibility: a non-empty string of at most 500 characters.
//   - metadata: a mapping of string keys to string values.
//   - allowed-tools: a space-separated string. A YAML list, which Claude
//     Code also reads, is a warning (an error when strict).
//   - license and version: strings.
//
// A missing required field is ASK_REQUIRED_FIELD. For SKILL.md and
// COMMAND.md, a key that is neither in the specification nor version is
// checked against agentKeys (agent id → keys, see
// DefaultAgentFrontMatterKeys): a known agent key is accepted, and reported
// as a warning naming its agent only when strict, since other agents ignore
// it (never for COMMAND.md, which is itself an agent-specific file); any other
// key is ASK_FRONTMATTER_UNKNOWN_KEY, a warning, or an error when strict.
// Keys of a WORKFLOW.js meta beyond name, description and version are not
// checked.
func CheckEntrypoint(e *format.Entrypoint, agentKeys map[string][]string, g Gate) []FieldProblem {
	var out []FieldProblem
	for _, p := range checkEntrypoint(e, agentKeys) {
		if q, ok := graded(p.Problem, g); ok {
			p.Problem = q
			out = append(out, p)
		}
	}
	return out
}

// checkEntrypoint is CheckEntrypoint before grading: every problem names
// its rule, and its Warning is not set.
func checkEntrypoint(e *format.Entrypoint, agentKeys map[string][]string) []FieldProblem {
	if e == nil {
		return nil
	}
	file := e.File
	if file == "" {
		file = format.EntrypointFor(e.Kind)
	}
	var out []FieldProblem
	add := func(field, rule, msg, fix string) {
		r, _ := RuleByID(rule)
		out = append(out, FieldProblem{Field: field, Problem: &Problem{Code: r.Code, Message: msg, Fix: fix, rule: rule}})
	}
	command := e.Kind == format.KindCommand
	where := "front matter"
	if e.Kind == format.KindWorkflow {
		where = "meta"
	}

	if !e.HasMeta && e.Kind == format.KindWorkflow {
		return nil // format reports the missing meta export
	}
	if !e.HasMeta {
		if command {
			add("", ruleCommandFrontMatter, file+" has no front matter, so it has no description",
				"start the file with a front-matter block: ---, description: <what the command does>, ---")
			return out
		}
		add("", ruleFrontMatterMissing, file+" has no front matter; name and description are required",
			"start the file with a front-matter block: ---, name: <package name>, description: <what it covers and when to use it>, ---")
		return out
	}

	// name
	if v, ok := e.Fields["name"]; !ok || v == nil {
		if !command {
			add("", ruleEntryNameMissing, fmt.Sprintf("%s %s has no name", file, where),
				"add `name: <package name>`, the same as the directory name")
		}
	} else if s, ok := v.(string); !ok {
		add("name", ruleEntryNameType, fmt.Sprintf("%s name is a %s; it must be a string", where, typeName(v)), "write the name as text, such as `name: my-skill`")
	} else if reasons := format.CheckName(s); len(reasons) > 0 {
		add("name", ruleEntryNameInvalid, fmt.Sprintf("%s name %q %s", where, s, strings.Join(reasons, "; ")), nameFix(s))
	}

	// description
	missing := ruleDescriptionMissing
	if command {
		missing = ruleCommandDescription
	}
	if v, ok := e.Fields["description"]; !ok || v == nil {
		add("", missing, fmt.Sprintf("%s %s has no description", file, where),
			"add `description:` saying what it covers and when to use it; agents choose skills by it")
	} else if s, ok := v.(string); !ok {
		add("description", ruleDescriptionInvalid, fmt.Sprintf("description is a %s; it must be a string", typeName(v)), "quote the description")
	} else if strings.TrimSpace(s) == "" {
		add("description", ruleDescriptionInvalid, "description is empty", "say what it covers and when to use it; agents choose skills by it")
	} else if n := utf8.RuneCountInString(s); n > MaxDescriptionLen {
		add("description", ruleDescriptionLength, fmt.Sprintf("description is %d characters; the limit is %d", n, MaxDescriptionLen),
			"shorten it and move details into the body or references/")
	}

	if e.Kind == format.KindWorkflow {
		checkVersionType(e, add)
		return out
	}

	// compatibility
	if v, ok := e.Fields["compatibility"]; ok {
		if s, ok := v.(string); !ok {
			add("compatibility", ruleCompatibility, fmt.Sprintf("compatibility is a %s; it must be a string", typeName(v)),
				"describe the environment the skill needs in one string, such as `compatibility: Requires git and Python 3.11`")
		} else if strings.TrimSpace(s) == "" {
			add("compatibility", ruleCompatibility, "compatibility is empty", "remove it, or describe the environment the skill needs")
		} else if n := utf8.RuneCountInString(s); n > MaxCompatibilityLen {
			add("compatibility", ruleCompatibility, fmt.Sprintf("compatibility is %d characters; the limit is %d", n, MaxCompatibilityLen),
				"shorten it to the essential requirements")
		}
	}

	// metadata
	if v, ok := e.Fields["metadata"]; ok {
		if m, ok := v.(map[string]any); !ok {
			add("metadata", ruleMetadataType, fmt.Sprintf("metadata is a %s; it must be a mapping of string keys to string values", typeName(v)),
				"write it as `metadata:` followed by indented `key: \"value\"` lines")
		} else {
			keys := make([]string, 0, len(m))
			for k := range m {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				if _, ok := m[k].(string); !ok {
					how := "quote the value, e.g."
					switch m[k].(type) {
					case []any, map[string]any:
						how = "write it as one string, e.g."
					}
					add("metadata."+k, ruleMetadataValue, fmt.Sprintf("metadata.%s is a %s; metadata values must be strings", k, typeName(m[k])),
						fmt.Sprintf("%s %s: %s", how, yamlKey(k), strconv.Quote(metadataText(e, "metadata."+k, m[k]))))
				}
			}
		}
	}

	// allowed-tools
	if v, ok := e.Fields["allowed-tools"]; ok {
		switch x := v.(type) {
		case string:
		case []any:
			allStrings := true
			for _, it := range x {
				if _, ok := it.(string); !ok {
					allStrings = false
				}
			}
			if allStrings {
				add("allowed-tools", ruleAllowedToolsList,
					"allowed-tools is a list; the Agent Skills specification defines a space-separated string (Claude Code reads both)",
					"write the tools on one line separated by spaces, such as `allowed-tools: Read Grep Bash(git *)`")
				break
			}
			add("allowed-tools", ruleAllowedToolsInvalid, "allowed-tools must be a space-separated string of tool names",
				"write the tools on one line separated by spaces, such as `allowed-tools: Read Grep`")
		default:
			add("allowed-tools", ruleAllowedToolsInvalid, fmt.Sprintf("allowed-tools is a %s; it must be a space-separated string of tool names", typeName(v)),
				"write the tools on one line separated by spaces, such as `allowed-tools: Read Grep`")
		}
	}

	if v, ok := e.Fields["license"]; ok && v != nil {
		if _, ok := v.(string); !ok {
			add("license", ruleEntryLicenseType, fmt.Sprintf("license is a %s; it must be a string", typeName(v)),
				"name the licence as text, such as `license: Apache-2.0`")
		}
	}
	checkVersionType(e, add)

	// unknown and agent-specific keys
	for _, k := range e.Keys {
		if slices.Contains(specKeys, k.Name) {
			continue
		}
		if agent := agentFor(agentKeys, k.Name); agent != "" {
			if !command {
				out = append(out, FieldProblem{Field: k.Name, atKey: true, Problem: &Problem{
					Code:    CodeFrontMatterUnknownKey,
					Message: fmt.Sprintf("%q is a %s key, not part of the Agent Skills specification; other agents ignore it", k.Name, agent),
					Fix:     "keep it if the skill needs it in " + agent + "; it does no harm elsewhere",
					rule:    ruleFrontMatterAgentKey,
				}})
			}
			continue
		}
		out = append(out, FieldProblem{Field: k.Name, atKey: true, Problem: &Problem{
			Code:    CodeFrontMatterUnknownKey,
			Message: fmt.Sprintf("%s has the unknown front-matter key %q", file, k.Name),
			Fix:     "remove it, or move it under `metadata:`; the Agent Skills specification allows only " + strings.Join(specKeys[:6], ", "),
			rule:    ruleFrontMatterUnknownKey,
		}})
	}
	return out
}

// metadataText renders a metadata value that is not a string as the text
// the fix proposes, keeping its data: a scalar as written (`1.0` stays
// "1.0", not "1"), a list as its items joined by ", ", a mapping as
// "key: value" pairs joined by ", ", null as "".
func metadataText(e *format.Entrypoint, path string, v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case []any:
		items := make([]string, len(x))
		for i, it := range x {
			items[i] = metadataText(e, fmt.Sprintf("%s[%d]", path, i), it)
		}
		return strings.Join(items, ", ")
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		pairs := make([]string, len(keys))
		for i, k := range keys {
			pairs[i] = k + ": " + metadataText(e, path+"."+k, x[k])
		}
		return strings.Join(pairs, ", ")
	}
	if t := e.Text(path); t != "" {
		return t
	}
	return fmt.Sprint(v)
}

// yamlKey returns k as a YAML mapping key: as it is when it is a plain
// word, quoted otherwise.
func yamlKey(k string) string {
	for _, r := range k {
		if !(r == '-' || r == '_' || r == '.' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return strconv.Quote(k)
		}
	}
	if k == "" {
		return `""`
	}
	return k
}

// agentFor returns the first agent id, in sorted order, whose key list
// holds key, or "".
func agentFor(agentKeys map[string][]string, key string) string {
	ids := make([]string, 0, len(agentKeys))
	for id, keys := range agentKeys {
		if slices.Contains(keys, key) {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return ""
	}
	return slices.Min(ids)
}

// typeName names the type of a decoded YAML or JavaScript value.
func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case int64, int, float64:
		return "number"
	case []any:
		return "list"
	case map[string]any:
		return "mapping"
	}
	return fmt.Sprintf("%T", v)
}

// checkVersionType reports a version that is not a scalar. A number such as
// `version: 1.0` is left to the semver checks, which explain it better.
func checkVersionType(e *format.Entrypoint, add func(field, rule, msg, fix string)) {
	switch v := e.Fields["version"].(type) {
	case []any, map[string]any, bool:
		add("version", ruleEntryVersionType, fmt.Sprintf("version is a %s; it must be a string", typeName(v)),
			`write an exact version such as version: 1.0.0`)
	}
}
