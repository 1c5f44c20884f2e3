package scaffold

import (
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// manifest is the content of a generated skill.yaml. Optional fields are
// left out of the document when empty.
type manifest struct {
	header      string // comment lines written above the document
	name        string
	kind        string // empty: left out (the format's default is skill)
	version     string
	description string
	license     string
	licenseFrom string // SKILL.md's free text the licence was adopted from; "" otherwise
	keywords    []string
	authors     []author
	agents      []string // compatibility.agents ids; empty: every agent
	files       []string
	// capabilities are the informational capability tags, such as
	// runs-scripts for a package that ships code.
	capabilities []string
}

// encode renders the manifest as skill.yaml. Each section carries a short
// comment that tells the author what it is for.
func (m manifest) encode() ([]byte, error) {
	doc := newYAMLMap()
	doc.set("schemaVersion", yamlInt(1), "Package format version; see agent-skills' docs/manifest.md.")
	doc.set("name", yamlString(m.name), "Must equal the folder name, and the entrypoint's name when it declares one.")
	if m.kind != "" {
		doc.set("kind", yamlString(m.kind), "skill, command or workflow: decides the entrypoint and where it installs.")
	}
	doc.set("version", yamlString(m.version), "Strict semver; bump it for every published change.")
	doc.set("description", yamlText(m.description), "")
	if m.license != "" {
		comment := "An SPDX licence expression."
		if m.licenseFrom != "" {
			comment = "Adopted from SKILL.md's license: " + strconv.Quote(m.licenseFrom)
		}
		doc.set("license", yamlString(m.license), comment)
	}
	if len(m.keywords) > 0 {
		doc.set("keywords", yamlStrings(m.keywords...), "Search terms for `agent-skills search`.")
	}
	if len(m.authors) > 0 {
		seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, a := range m.authors {
			am := newYAMLMap()
			am.set("name", yamlString(a.name), "")
			if a.email != "" {
				am.set("email", yamlString(a.email), "")
			}
			if a.url != "" {
				am.set("url", yamlString(a.url), "")
			}
			seq.Content = append(seq.Content, am.node)
		}
		doc.set("authors", seq, "")
	}
	if len(m.agents) > 0 {
		agents := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, id := range m.agents {
			am := newYAMLMap()
			am.set("id", yamlString(id), "")
			agents.Content = append(agents.Content, am.node)
		}
		compat := newYAMLMap()
		compat.set("agents", agents, "")
		doc.set("compatibility", compat.node, "Agents this package is written for; omit the block to mean every agent.")
	}
	doc.set("files", yamlStrings(m.files...), "What ships in the package; folders (ending in /) are included recursively.")
	if len(m.capabilities) > 0 {
		doc.set("capabilities", yamlStrings(m.capabilities...), "Informational tags for users and policies; runs-scripts: the package runs code (its scripts, or a shell).")
	}
	data, err := doc.encode(true)
	if err != nil {
		return nil, fmt.Errorf("encoding skill.yaml: %w", err)
	}
	if m.header == "" {
		return data, nil
	}
	var out []byte
	for _, line := range strings.Split(m.header, "\n") {
		out = append(out, "# "+line+"\n"...)
	}
	return append(append(out, '\n'), data...), nil
}
