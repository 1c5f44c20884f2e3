package skillset

import (
	"errors"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/resolve"
)

// didYouMean adds, to a resolution that failed because a name the user
// typed is in no registry that could be asked (ASK_SKILL_NOT_FOUND, or
// ASK_REGISTRY_UNAVAILABLE when a registry that might have it was down),
// the near names the reachable registries publish (registry.Set.Similar)
// and the command with the nearest one. Other failures, and names with
// nothing near, come back as they were.
func (p *op) didYouMean(err error, typed []resolve.Reference) error {
	if !errors.Is(err, resolve.ErrNotFound) && !askerr.Is(err, registry.CodeRegistryUnavailable) {
		return err
	}
	var detail, try []string
	for _, r := range typed {
		near := p.Registries.Similar(p.ctx, r.Registry, r.Name)
		if len(near) == 0 {
			continue
		}
		detail = append(detail, r.String()+": "+registry.DidYouMean(near))
		fixed := r
		fixed.Name = near[0].Name
		try = append(try, "agent-skills "+p.command+" "+fixed.String())
	}
	return askerr.WithHints(err, detail, try)
}
