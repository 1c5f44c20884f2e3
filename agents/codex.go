package agents

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agent-skills/agent-skills/format"
	"go.yaml.in/yaml/v3"
)

// Codex's own limits, from its skill loader (codex-rs/core/src/skills). A
// longer name makes Codex refuse the skill; a longer description is cut
// to codexMaxDescription characters in the list it shows the model
// (verified with agent-oracle against Codex 0.169.0: a 1,068-character
// description is listed, cut to 1,024).
const (
	codexMaxName             = 64
	codexMaxDescription      = 1024
	codexMaxShortDescription = 500
)

// codexUIFile is where Codex reads a skill's UI metadata.
const codexUIFile = "agents/openai.yaml"

// codexInterfaceKeys returns the keys of the interface block of
// agents/openai.yaml, in the order they are written.
func codexInterfaceKeys() []string {
	return []string{"display_name", "short_description", "icon_small", "icon_large", "brand_color", "default_prompt"}
}

// codexInterface returns agentOverrides.codex.interface, or nil.
func codexInterface(pkg *format.Package) map[string]any {
	if pkg.Manifest == nil {
		return nil
	}
	m, _ := pkg.Manifest.AgentOverrides["codex"]["interface"].(map[string]any)
	return m
}

// projectCodex adds what Codex reads beyond the neutral front matter: a
// metadata.short-description and, unless the package ships one, an
// agents/openai.yaml whose interface block comes from
// agentOverrides.codex.interface. The short description is, in order:
// interface.short_description, the author's own metadata.short-description,
// or the first sentence of the manifest's description (else the
// entrypoint's) cut to 64 characters. display_name falls back to the
// title-cased name.
func projectCodex(p *projection) error {
	if p.kind != format.KindSkill {
		return nil
	}
	iface := codexInterface(p.pkg)
	desc, _ := p.fm["description"].(string)

	meta := map[string]any{}
	if m, ok := p.fm["metadata"].(map[string]any); ok {
		meta = maps.Clone(m)
	}
	short, _ := iface["short_description"].(string)
	if strings.TrimSpace(short) == "" {
		short, _ = meta["short-description"].(string)
	}
	if strings.TrimSpace(short) == "" {
		src := desc
		if p.pkg.Manifest != nil && p.pkg.Manifest.Description != "" {
			src = p.pkg.Manifest.Description
		}
		short = shortDescription(src)
	}
	if short != "" {
		meta["short-description"] = short
	}
	if len(meta) > 0 {
		p.fm["metadata"] = meta
	}

	if p.hasFile(codexUIFile) {
		return nil
	}
	ui := map[string]any{}
	for _, k := range codexInterfaceKeys() {
		if v, ok := iface[k].(string); ok && strings.TrimSpace(v) != "" {
			ui[k] = v
		}
	}
	if ui["display_name"] == nil {
		ui["display_name"] = titleCase(p.pkg.Name())
	}
	if ui["short_description"] == nil && short != "" {
		ui["short_description"] = short
	}
	inner, err := encodeOrdered(ui, codexInterfaceKeys(), yaml.DoubleQuotedStyle)
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("interface:\n")
	for _, line := range strings.SplitAfter(string(inner), "\n") {
		if line != "" {
			b.WriteString("  " + line)
		}
	}
	p.files[codexUIFile] = []byte(b.String())
	return nil
}

// checkCodex reports what Codex would refuse or silently drop.
func checkCodex(pkg *format.Package) format.Diagnostics {
	if pkg.Kind != format.KindSkill || pkg.Entrypoint == nil {
		return nil
	}
	var ds format.Diagnostics
	ep := pkg.Entrypoint
	file := ep.File
	desc, _ := ep.String("description")
	desc = strings.Join(strings.Fields(desc), " ")
	if desc == "" && pkg.Manifest != nil {
		desc = strings.Join(strings.Fields(pkg.Manifest.Description), " ")
	}
	switch n := utf8.RuneCountInString(desc); {
	case n == 0:
		ds = append(ds, constraint(file, ep.Pos("name"), format.SeverityError,
			"Codex silently drops a skill without a description",
			"add a `description` to the front matter saying what the skill does and when to use it"))
	case n > codexMaxDescription:
		ds = append(ds, constraint(file, ep.Pos("description"), format.SeverityWarning,
			fmt.Sprintf("the description is %d characters; Codex shows the model only the first %d", n, codexMaxDescription),
			"put the routing signal first, shorten the description and move detail into the body"))
	}
	// Codex 0.169.0 drops a skill whose metadata is not a mapping (verified
	// with agent-oracle: `metadata: hello`); values that are not strings
	// are fine.
	if v, ok := ep.Fields["metadata"]; ok {
		if _, isMap := v.(map[string]any); !isMap {
			ds = append(ds, constraint(file, ep.Pos("metadata"), format.SeverityError,
				"Codex silently drops a skill whose metadata is not a mapping",
				"write metadata as indented `key: value` lines, or remove it"))
		}
	}
	if n := utf8.RuneCountInString(pkg.Name()); n > codexMaxName {
		ds = append(ds, constraint(file, ep.Pos("name"), format.SeverityError,
			fmt.Sprintf("the name is %d characters; Codex refuses names over %d", n, codexMaxName),
			"choose a shorter name"))
	}
	ds = append(ds, checkCodexInterface(pkg)...)
	return ds
}

// checkCodexInterface checks agentOverrides.codex.interface: string
// values, known keys, Codex's short-description limit, and a shipped
// agents/openai.yaml that would shadow it.
func checkCodexInterface(pkg *format.Package) format.Diagnostics {
	if pkg.Manifest == nil {
		return nil
	}
	raw, present := pkg.Manifest.AgentOverrides["codex"]["interface"]
	if !present {
		return nil
	}
	m := pkg.Manifest
	file := m.File
	if file == "" {
		file = "skill.yaml"
	}
	const at = "agentOverrides.codex.interface"
	iface, ok := raw.(map[string]any)
	if !ok {
		return format.Diagnostics{constraint(file, m.Pos(at), format.SeverityError,
			"agentOverrides.codex.interface must be a mapping of interface fields",
			"write it as a mapping, e.g. `interface: {display_name: My Skill}`")}
	}
	var ds format.Diagnostics
	known := codexInterfaceKeys()
	for _, k := range sortedKeys(iface) {
		pos := m.Pos(at + "." + k)
		if pos == (format.Pos{}) {
			pos = m.Pos(at)
		}
		if !slices.Contains(known, k) {
			ds = append(ds, constraint(file, pos, format.SeverityWarning,
				fmt.Sprintf("Codex's interface block has no field %q; it is not written to agents/openai.yaml", k),
				"use one of "+strings.Join(known, ", ")))
			continue
		}
		s, isString := iface[k].(string)
		if !isString {
			ds = append(ds, constraint(file, pos, format.SeverityError,
				fmt.Sprintf("agentOverrides.codex.interface.%s must be a string", k),
				"quote the value"))
			continue
		}
		if k == "short_description" {
			if n := utf8.RuneCountInString(strings.Join(strings.Fields(s), " ")); n > codexMaxShortDescription {
				ds = append(ds, constraint(file, pos, format.SeverityError,
					fmt.Sprintf("short_description is %d characters; Codex refuses skills whose short description exceeds %d", n, codexMaxShortDescription),
					"keep it to one short line (25–64 characters is what Codex shows best)"))
			}
		}
	}
	if _, ships := slices.BinarySearch(pkg.Files, codexUIFile); ships {
		ds = append(ds, constraint(file, m.Pos(at), format.SeverityWarning,
			"the package ships agents/openai.yaml, which Codex reads instead of agentOverrides.codex.interface",
			"keep the interface in one place: delete agents/openai.yaml or the override"))
	}
	return ds
}

// constraint builds an ASK_AGENT_CONSTRAINT diagnostic.
func constraint(file string, pos format.Pos, sev format.Severity, msg, fix string) format.Diagnostic {
	return format.Diagnostic{File: file, Pos: pos, Severity: sev, Code: CodeAgentConstraint, Message: msg, Fix: fix}
}

// sortedKeys returns the keys of m in byte order.
func sortedKeys(m map[string]any) []string {
	return slices.Sorted(maps.Keys(m))
}
