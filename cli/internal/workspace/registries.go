package workspace

import (
	"context"
	"io/fs"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/config"
	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/skills"
)

// BundledIndexPath is where the bundled collection keeps its index.
const BundledIndexPath = "registry/skills.yaml"

// registryTimeout bounds loading one registry's index, so that an
// unreachable host cannot stall a command that other registries can serve.
const registryTimeout = 60 * time.Second

// RegistrySpec converts a configured registry to the registry module's Spec.
func RegistrySpec(r config.Registry) registry.Spec {
	return registry.Spec{Name: r.Name, URL: r.URL, Kind: r.Kind, Ref: r.Ref, Untrusted: !r.Trusted}
}

// RegistryOptions returns the environment every registry runs in.
func (m *Machine) RegistryOptions(cfg *config.Config) registry.Options {
	idx, _ := fs.ReadFile(skills.FS, BundledIndexPath)
	return registry.Options{
		CacheDir:     m.CacheDir(),
		TTL:          time.Duration(cfg.Cache.TTLSeconds) * time.Second,
		Offline:      m.Offline(),
		HTTPTimeouts: m.HTTP,
		Notify:       m.notify,
		Bundled:      skills.FS,
		BundledIndex: idx,
	}
}

// OpenRegistries opens every registry cfg names, in precedence order.
func (m *Machine) OpenRegistries(cfg *config.Config) (*registry.Set, error) {
	opts := m.RegistryOptions(cfg)
	regs := make([]registry.Registry, 0, len(cfg.Registries))
	for _, r := range cfg.Registries {
		reg, err := OpenRegistry(r, opts)
		if err != nil {
			return nil, err
		}
		regs = append(regs, reg)
	}
	return registry.NewSet(m.notify, regs...), nil
}

// OpenRegistry opens one configured registry, each index load bounded so
// that an unreachable host cannot stall a command other registries serve.
func OpenRegistry(r config.Registry, opts registry.Options) (registry.Registry, error) {
	reg, err := registry.Open(RegistrySpec(r), opts)
	if err != nil {
		return nil, err
	}
	return timed{reg}, nil
}

// timed bounds each index load of a registry by registryTimeout.
type timed struct{ registry.Registry }

func (t timed) Index(ctx context.Context) (*registry.Index, error) {
	ctx, cancel := context.WithTimeout(ctx, registryTimeout)
	defer cancel()
	return t.Registry.Index(ctx)
}
