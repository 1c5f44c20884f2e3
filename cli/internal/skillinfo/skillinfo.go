// Package skillinfo assembles what is known of one published skill —
// its manifest at one version, every version, which registry owns the
// name and where else it is published — for `agent-skills info` and the
// MCP skill_info tool alike.
package skillinfo

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/Masterminds/semver/v3"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/resolve"
)

// Info is one published skill; its JSON form is info --json.
type Info struct {
	Name                 string              `json:"name"`
	Registry             string              `json:"registry"`
	Version              string              `json:"version"`
	Latest               string              `json:"latest"`
	Kind                 string              `json:"kind"`
	Description          string              `json:"description"`
	License              string              `json:"license,omitempty"`
	Keywords             []string            `json:"keywords,omitempty"`
	Authors              []string            `json:"authors,omitempty"`
	Homepage             string              `json:"homepage,omitempty"`
	Repository           string              `json:"repository,omitempty"`
	Integrity            string              `json:"integrity"`
	Dependencies         []format.Dependency `json:"dependencies"`
	OptionalDependencies []format.Dependency `json:"optionalDependencies"`
	Suggests             []string            `json:"suggests"`
	Compatibility        []string            `json:"compatibility"`
	Capabilities         []string            `json:"capabilities"`
	Versions             []Version           `json:"versions"`
	AlsoIn               []string            `json:"alsoIn,omitempty"`
	Owner                string              `json:"owner,omitempty"`
}

// Version is one published version.
type Version struct {
	Version           string `json:"version"`
	PublishedAt       string `json:"publishedAt,omitempty"`
	Deprecated        bool   `json:"deprecated,omitempty"`
	DeprecationReason string `json:"deprecationReason,omitempty"`
}

// Lookup finds the skill ref names — in ref.Registry, or in the registry
// that owns the name — and reads the manifest of the version ref asks for
// (the latest by default).
func Lookup(ctx context.Context, set *registry.Set, ref resolve.Reference) (*Info, error) {
	reg, sk, err := set.Lookup(ctx, ref.Registry, ref.Name)
	if err != nil {
		return nil, didYouMean(ctx, set, ref, err)
	}
	v, err := pickVersion(sk, ref)
	if err != nil {
		return nil, err
	}
	pkg, err := reg.Package(ctx, sk.Name, v.Version)
	if err != nil {
		return nil, err
	}
	info := &Info{
		Name: sk.Name, Registry: reg.Name(), Version: v.Version, Latest: sk.Latest,
		Kind: string(pkg.Kind), Description: pkg.Description(), Integrity: v.Integrity,
		Dependencies: []format.Dependency{}, OptionalDependencies: []format.Dependency{},
		Suggests: []string{}, Compatibility: []string{}, Capabilities: []string{},
	}
	if m := pkg.Manifest; m != nil {
		info.License, info.Keywords, info.Homepage = m.License, m.Keywords, m.Homepage
		for _, a := range m.Authors {
			info.Authors = append(info.Authors, a.String())
		}
		if m.Repository != nil {
			info.Repository = m.Repository.URL
			if m.Repository.Directory != "" {
				info.Repository += " (" + m.Repository.Directory + ")"
			}
		}
		info.Dependencies = append(info.Dependencies, m.Dependencies...)
		info.OptionalDependencies = append(info.OptionalDependencies, m.OptionalDependencies...)
		info.Suggests = append(info.Suggests, m.Suggests...)
		for _, a := range m.Compatibility.Agents {
			s := a.ID
			if a.MinVersion != "" {
				s += " " + a.MinVersion
			}
			info.Compatibility = append(info.Compatibility, s)
		}
		info.Capabilities = append(info.Capabilities, m.Capabilities...)
	}
	for _, pv := range sk.Sorted() {
		info.Versions = append(info.Versions, Version{pv.Version, pv.PublishedAt, pv.Deprecated, pv.DeprecationReason})
	}
	for _, r := range set.Registries() {
		if r.Name() == reg.Name() {
			continue
		}
		if idx, err := r.Index(ctx); err == nil {
			if _, ok := idx.Skill(sk.Name); ok {
				info.AlsoIn = append(info.AlsoIn, r.Name())
			}
		}
	}
	if owner, _, err := set.Owner(ctx, sk.Name); err == nil {
		info.Owner = owner.Name()
	}
	return info, nil
}

// pickVersion chooses the version info shows: the one named exactly, the
// highest non-deprecated one satisfying a range, or the latest.
func pickVersion(sk *registry.Skill, ref resolve.Reference) (*registry.Version, error) {
	want := ref.Range
	if want == "" || want == "latest" {
		want = sk.Latest
		if want == "" {
			if vs := sk.Sorted(); len(vs) > 0 {
				return vs[0], nil
			}
		}
	}
	if v, ok := sk.Version(want); ok {
		return v, nil
	}
	con, err := semver.NewConstraint(want)
	if err == nil {
		for _, v := range sk.Sorted() {
			if !v.Deprecated && v.Semver() != nil && con.Check(v.Semver()) {
				return v, nil
			}
		}
	}
	var have []string
	for _, v := range sk.Sorted() {
		have = append(have, v.Version)
	}
	return nil, &askerr.Error{Code: CodeVersionNotFound,
		Message: fmt.Sprintf("%s has no version matching %s", sk.Name, want),
		Detail:  []string{"published: " + strings.Join(have, ", ")},
		Try:     []string{"agent-skills info " + sk.Name}}
}

// CodeVersionNotFound: no published version matches the one asked for.
const CodeVersionNotFound = "ASK_VERSION_NOT_FOUND"

// didYouMean adds to a lookup that found no skill called ref's name the
// near names the registries publish, and the info command for the
// nearest.
func didYouMean(ctx context.Context, set *registry.Set, ref resolve.Reference, err error) error {
	if !errors.Is(err, registry.ErrNotFound) && !askerr.Is(err, registry.CodeRegistryUnavailable) {
		return err
	}
	near := set.Similar(ctx, ref.Registry, ref.Name)
	if len(near) == 0 {
		return err
	}
	fixed := ref
	fixed.Name = near[0].Name
	return askerr.WithHints(err, []string{ref.String() + ": " + registry.DidYouMean(near)}, []string{"agent-skills info " + fixed.String()})
}
