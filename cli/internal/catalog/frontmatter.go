package catalog

import (
	"bytes"
	"strings"

	"go.yaml.in/yaml/v3"
)

// parseFrontMatter reads name, description and version from SKILL.md front
// matter YAML. Plain, simply quoted and block scalars of top-level keys are
// read by a fast line scanner — listing thousands of skills must not pay for
// a full YAML decode each — and anything else (flow collections, anchors,
// tags, escapes, unusual indentation) falls back to the YAML decoder. Both
// paths give the same values once folded to one line (FuzzFrontMatter).
func parseFrontMatter(data []byte) (frontMatter, error) {
	if fm, ok := scanFrontMatter(data); ok {
		return fm, nil
	}
	var fm frontMatter
	err := yaml.Unmarshal(data, &fm)
	return fm, err
}

// scanFrontMatter is the fast path; ok is false when it cannot be sure.
func scanFrontMatter(data []byte) (fm frontMatter, ok bool) {
	if otherBreaks(data) {
		return fm, false
	}
	lines := strings.Split(string(data), "\n")
	seen := map[string]bool{}
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSuffix(lines[i], "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimLeft(line, " "), "#") {
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			// Continuations are consumed with their key below: an
			// indented line here starts an indented document.
			return fm, false
		}
		key, val, found := strings.Cut(line, ":")
		if !found || key == "" || strings.ContainsAny(key, " \t\"'{}[]&*!|><%@`#,?\\") {
			return fm, false
		}
		if val != "" && val[0] != ' ' && val[0] != '\t' {
			return fm, false
		}
		if seen[key] {
			return fm, false
		}
		seen[key] = true
		var dst *string
		switch key {
		case "name":
			dst = &fm.Name
		case "description":
			dst = &fm.Description
		case "version":
			dst = &fm.Version
		}
		// The lines that belong to this key's value.
		j := i + 1
		for j < len(lines) {
			l := strings.TrimSuffix(lines[j], "\r")
			if l != "" && l[0] != ' ' && l[0] != '\t' && !strings.HasPrefix(l, "#") {
				break
			}
			j++
		}
		cont := lines[i+1 : j]
		i = j - 1
		if dst == nil {
			// A key we do not read: its value must not be able to
			// reach into the next key (multi-line quoted or flow
			// scalars) or merge into the root (anchors, aliases).
			if strings.ContainsAny(val, "\"'[{*&!") || strings.ContainsAny(strings.Join(cont, "\n"), "\"'[{*&!") {
				return fm, false
			}
			continue
		}
		v, ok := scalar(strings.TrimSpace(val), cont)
		if !ok {
			return fm, false
		}
		*dst = v
	}
	return fm, true
}

// scalar reads a scalar that starts with first on the key's line and
// continues on the lines cont; ok is false for anything but plain, simply
// quoted or block scalars.
func scalar(first string, cont []string) (string, bool) {
	var more []string
	for _, l := range cont {
		l = strings.TrimSuffix(l, "\r")
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "#") {
			return "", false
		}
		if t != "" && l[0] == '\t' {
			return "", false
		}
		more = append(more, t)
	}
	switch {
	case first == "":
		// A nested mapping or sequence, or an empty value.
		for _, m := range more {
			if m != "" {
				return "", false
			}
		}
		return "", true
	case first[0] == '>' || first[0] == '|':
		if strings.TrimLeft(first[1:], "+-") != "" {
			return "", false
		}
		return strings.Join(more, " "), true
	case first[0] == '"':
		if len(more) > 0 && strings.Join(more, "") != "" || strings.ContainsAny(first[1:], `\`) {
			return "", false
		}
		inner, rest, ok := strings.Cut(first[1:], `"`)
		if !ok || strings.TrimSpace(rest) != "" && !strings.HasPrefix(strings.TrimSpace(rest), "#") {
			return "", false
		}
		return inner, true
	case first[0] == '\'':
		if len(more) > 0 && strings.Join(more, "") != "" {
			return "", false
		}
		body := first[1:]
		var b strings.Builder
		for {
			k := strings.IndexByte(body, '\'')
			if k < 0 {
				return "", false
			}
			b.WriteString(body[:k])
			if strings.HasPrefix(body[k:], "''") {
				b.WriteByte('\'')
				body = body[k+2:]
				continue
			}
			rest := strings.TrimSpace(body[k+1:])
			if rest != "" && !strings.HasPrefix(rest, "#") {
				return "", false
			}
			return b.String(), true
		}
	case strings.ContainsRune("[{&*!%@`,?-:#", rune(first[0])):
		return "", false
	}
	// A plain scalar, possibly continued on indented lines.
	parts := []string{first}
	for _, m := range more {
		if m != "" {
			parts = append(parts, m)
		}
	}
	v := strings.Join(parts, " ")
	if strings.ContainsAny(v, "\t") || strings.Contains(v, " #") || strings.Contains(v, ": ") || strings.HasSuffix(v, ":") {
		return "", false
	}
	if bytes.ContainsAny([]byte(v), "\x00") {
		return "", false
	}
	switch v {
	case "~", "null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE":
		// YAML reads these as null or bool, not as the text.
		return "", false
	}
	return v, true
}

// manifestMeta holds the skill.yaml keys a listing needs.
type manifestMeta struct {
	Version  string   `yaml:"version"`
	Keywords []string `yaml:"keywords"`
}

// parseManifest reads version and keywords from skill.yaml: a fast line
// scan for a plain top-level version and a one-line flow list of plain
// keywords, else the YAML decoder. A manifest that cannot be read gives
// empty values: listings are lenient, validate is strict.
func parseManifest(data []byte) manifestMeta {
	var m manifestMeta
	sure := true
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		key, val, ok := strings.Cut(line, ":")
		if !ok || key != strings.TrimSpace(key) {
			continue
		}
		val = strings.TrimSpace(val)
		switch key {
		case "version":
			if val == "" || strings.ContainsAny(val, "\"'#{}[]&*!|>") {
				sure = false
			}
			m.Version = val
		case "keywords":
			inner, ok := strings.CutPrefix(val, "[")
			inner, ok2 := strings.CutSuffix(inner, "]")
			if !ok || !ok2 || strings.ContainsAny(inner, "\"'#{}[]&*!|>") {
				sure = false
				continue
			}
			for _, k := range strings.Split(inner, ",") {
				if k = strings.TrimSpace(k); k != "" {
					m.Keywords = append(m.Keywords, k)
				}
			}
		}
	}
	if sure {
		return m
	}
	m = manifestMeta{}
	if yaml.Unmarshal(data, &m) != nil {
		return manifestMeta{}
	}
	return m
}

// otherBreaks reports whether data holds a line break the scanner does
// not split at and YAML does: a carriage return not followed by a line
// feed, NEL (U+0085), LS (U+2028) or PS (U+2029). Such input is left to
// the YAML decoder.
func otherBreaks(data []byte) bool {
	s := strings.ReplaceAll(string(data), "\r\n", "\n")
	return strings.ContainsAny(s, "\r\u0085\u2028\u2029")
}
