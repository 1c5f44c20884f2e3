package publish

import (
	"context"

	"github.com/agent-skills/agent-skills/format"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/resolve"
)

// RegistryTarget checks a package against an opened registry without
// writing to it: publish --offline uses it for a git registry, whose
// checks then read the registry's cached clone instead of making a fresh
// one. Write refuses.
type RegistryTarget struct {
	// Registry is the registry, opened with the options of the command
	// (offline: cached copies only).
	Registry registry.Registry
}

// Index returns the registry's index.
func (t RegistryTarget) Index(ctx context.Context) (*registry.Index, error) {
	return t.Registry.Index(ctx)
}

// Locate returns the folder an existing version of name lives in, else
// skills/<name>, as FolderTarget does for a package outside the registry.
func (t RegistryTarget) Locate(idx *registry.Index, name, _ string) (string, error) {
	return locate(idx, name, "")
}

// Requirements reads the edges of a published version from its verified
// payload.
func (t RegistryTarget) Requirements(ctx context.Context, name string, v *registry.Version) (resolve.Requirements, error) {
	pkg, err := t.Registry.Package(ctx, name, v.Version)
	if err != nil {
		return resolve.Requirements{}, err
	}
	if pkg.Manifest == nil {
		return resolve.Requirements{}, nil
	}
	return requirementsOf(pkg.Manifest), nil
}

// Published hands use a published version's verified payload.
func (t RegistryTarget) Published(ctx context.Context, name string, v *registry.Version, use func(*format.Package) error) error {
	pkg, err := t.Registry.Package(ctx, name, v.Version)
	if err != nil {
		return err
	}
	return use(pkg)
}

// Write refuses: the registry is only read.
func (t RegistryTarget) Write(context.Context, *Plan, string) (*WriteResult, error) {
	return nil, &Error{Code: askerr.CodeUsage,
		Message: "registry " + t.Registry.Name() + " is only read here; writing to it needs a fresh clone",
		Try:     []string{"publish again without --offline"}}
}
