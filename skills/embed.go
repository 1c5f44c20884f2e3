// Package skills embeds the sample collection that ships inside the
// agent-skills binary as the bundled registry: every package folder below
// this one, and the generated index at registry/skills.yaml.
package skills

import "embed"

// FS holds the collection. Its root is this folder: packages are at
// <name>/ and the index at registry/skills.yaml.
//
//go:embed *
var FS embed.FS
