package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// FileName is the catalog's file name at the root of a collection.
const FileName = "skills-catalog.json"

// SchemaVersion is the catalog format version Build writes and Decode reads.
const SchemaVersion = 1

// MaxCatalogSize bounds the catalog file Decode accepts.
const MaxCatalogSize = 32 << 20

// Catalog is the derived inventory of a collection (skills-catalog.json).
// Its fields, and those of Entry, are declared in the alphabetical order of
// their JSON keys, so that encoding/json writes sorted keys.
type Catalog struct {
	// SchemaVersion is the format version, SchemaVersion.
	SchemaVersion int `json:"schemaVersion"`
	// Skills lists every package, sorted by name, then version, then path.
	Skills []Entry `json:"skills"`
}

// Entry describes one package of a collection.
type Entry struct {
	// Description is the package's description.
	Description string `json:"description"`
	// Digest is format.Digest of the package's file set ("sha256-…").
	Digest string `json:"digest"`
	// Keywords are the manifest's search terms; empty for a bare skill.
	Keywords []string `json:"keywords"`
	// Kind is skill, command or workflow.
	Kind string `json:"kind"`
	// Name is the package name.
	Name string `json:"name"`
	// Path is the package folder relative to the collection root,
	// slash-separated ("." when the root is the package).
	Path string `json:"path"`
	// Version is the package version; empty when it has none.
	Version string `json:"version,omitempty"`
}

// Encode returns the canonical bytes of c: two-space indented JSON with
// sorted keys, no HTML escaping, empty lists as [] and a trailing newline.
func (c *Catalog) Encode() []byte {
	out := Catalog{SchemaVersion: c.SchemaVersion, Skills: make([]Entry, len(c.Skills))}
	for i, e := range c.Skills {
		if e.Keywords == nil {
			e.Keywords = []string{}
		}
		out.Skills[i] = e
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	// Only strings, ints and slices of them: encoding cannot fail.
	_ = enc.Encode(out)
	return b.Bytes()
}

// Decode parses a catalog file strictly: unknown keys, trailing data, a
// schema version other than SchemaVersion and files above MaxCatalogSize
// are errors.
func Decode(data []byte) (*Catalog, error) {
	if len(data) > MaxCatalogSize {
		return nil, fmt.Errorf("%s is larger than %d bytes", FileName, MaxCatalogSize)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var c Catalog
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("%s is not a valid catalog: %v", FileName, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%s has data after the catalog object", FileName)
	}
	if c.SchemaVersion != SchemaVersion {
		return nil, fmt.Errorf("%s has schemaVersion %d; this agent-skills reads %d", FileName, c.SchemaVersion, SchemaVersion)
	}
	return &c, nil
}
