package publish

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/agent-skills/agent-skills/registry"
)

// indexEdit is the change one publication makes to an index document.
type indexEdit struct {
	// name is the skill published.
	name string
	// skill is the new skills[] item when the index does not list name.
	skill *registry.Skill
	// add is the new version when the index lists name.
	add *registry.Version
	// latest is the new latest value when it changes; "" keeps it.
	latest string
	// description and keywords refresh the skill-level fields when
	// setFields is true (the new version became latest).
	setFields   bool
	description string
	keywords    []string
	// tarball maps versions moved into archives to their tarball path.
	tarball map[string]string
	// drop lists versions whose bytes are gone.
	drop []string
	// updatedAt is the new updatedAt value, written only when the
	// document already has the key; "" leaves it.
	updatedAt string
}

// apply makes the edit on a decoded index, which is how the patched text
// is checked: the document written must decode to exactly this.
func (e *indexEdit) apply(x *registry.Index) {
	if e.updatedAt != "" && x.UpdatedAt != "" {
		x.UpdatedAt = e.updatedAt
	}
	if e.skill != nil {
		c := *e.skill
		c.Versions = slices.Clone(e.skill.Versions)
		x.Skills = append(x.Skills, &c)
		return
	}
	for _, s := range x.Skills {
		if s.Name != e.name {
			continue
		}
		var vs []*registry.Version
		for _, v := range s.Versions {
			if slices.Contains(e.drop, v.Version) {
				continue
			}
			if t, ok := e.tarball[v.Version]; ok {
				c := *v
				c.Path, c.Tarball = "", t
				v = &c
			}
			vs = append(vs, v)
		}
		s.Versions = append(vs, e.add)
		if e.latest != "" {
			s.Latest = e.latest
		}
		if e.setFields {
			s.Description = e.description
			s.Keywords = e.keywords
		}
		return
	}
}

// patchIndex returns the document src with the edit made. It patches the
// text in place when it can (patchText) and otherwise edits the yaml.Node
// tree and re-encodes it (patchNodes); either result is accepted only when
// it decodes to the edited index. An empty src gives a new document.
// want is src already decoded, or nil; patchIndex makes the edit on it.
func patchIndex(src []byte, file string, want *registry.Index, e *indexEdit) ([]byte, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		x := &registry.Index{SchemaVersion: registry.IndexSchemaVersion}
		e.apply(x)
		return x.EncodeYAML(), nil
	}
	if want == nil {
		var err error
		if want, err = registry.DecodeIndex(src, file); err != nil {
			return nil, err
		}
	}
	e.apply(want)
	wantJSON := want.EncodeJSON()
	var firstErr error
	for _, patch := range []func([]byte, *indexEdit) ([]byte, error){patchText, patchNodes} {
		out, err := patch(src, e)
		if err == nil {
			var got *registry.Index
			got, err = registry.DecodeIndex(out, file)
			if err == nil && !bytes.Equal(got.EncodeJSON(), wantJSON) {
				err = fmt.Errorf("the patched document does not decode to the intended index")
			}
		}
		if err == nil {
			return out, nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	return nil, &Error{
		Code:    CodePublishIndexPatch,
		Message: fmt.Sprintf("cannot patch %s in place", file),
		Err:     firstErr,
		Try:     []string{"add the entry printed by `agent-skills publish` (without --write) to the index by hand"},
	}
}
