package cli

import (
	"context"
	"io/fs"
	"time"

	"github.com/agent-skills/agent-skills/cli/internal/config"
	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/skills"
)

// bundledIndexPath is where the bundled collection keeps its index.
const bundledIndexPath = "registry/skills.yaml"

// registryTimeout bounds loading one registry's index, so that an
// unreachable host cannot stall a command that other registries can serve.
const registryTimeout = 60 * time.Second

// registrySpec converts a configured registry to the registry module's Spec.
func registrySpec(r config.Registry) registry.Spec {
	return registry.Spec{Name: r.Name, URL: r.URL, Kind: r.Kind, Ref: r.Ref, Untrusted: !r.Trusted}
}

// registryOptions returns the environment every registry runs in.
func (e *env) registryOptions(cfg *config.Config) registry.Options {
	idx, _ := fs.ReadFile(skills.FS, bundledIndexPath)
	return registry.Options{
		CacheDir:     e.cacheDir(),
		TTL:          time.Duration(cfg.Cache.TTLSeconds) * time.Second,
		Offline:      e.offline(),
		HTTPTimeouts: e.http,
		Notify:       func(msg string) { e.note("%s", msg) },
		Bundled:      skills.FS,
		BundledIndex: idx,
	}
}

// offline reports whether network use is forbidden (--offline or
// AGENT_SKILLS_OFFLINE=1): registries serve their caches only.
func (e *env) offline() bool {
	return e.g.Offline || e.getenv("AGENT_SKILLS_OFFLINE") == "1"
}

// openRegistries opens every configured registry, in precedence order.
func (e *env) openRegistries() (*registry.Set, *config.Config, error) {
	cfg, err := e.loadConfig()
	if err != nil {
		return nil, nil, err
	}
	opts := e.registryOptions(cfg)
	regs := make([]registry.Registry, 0, len(cfg.Registries))
	for _, r := range cfg.Registries {
		reg, err := registry.Open(registrySpec(r), opts)
		if err != nil {
			return nil, nil, err
		}
		regs = append(regs, timed{reg})
	}
	return registry.NewSet(func(msg string) { e.note("%s", msg) }, regs...), cfg, nil
}

// timed bounds each index load of a registry by registryTimeout.
type timed struct{ registry.Registry }

func (t timed) Index(ctx context.Context) (*registry.Index, error) {
	ctx, cancel := context.WithTimeout(ctx, registryTimeout)
	defer cancel()
	return t.Registry.Index(ctx)
}
