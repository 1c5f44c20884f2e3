package skillset

import (
	"errors"
	"fmt"
	"slices"
	"strings"

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
		var alts []string
		for _, m := range near {
			alts = append(alts, m.Name+" (registry "+m.Registry+")")
		}
		detail = append(detail, fmt.Sprintf("%s: did you mean %s?", r.String(), strings.Join(alts, " or ")))
		fixed := r
		fixed.Name = near[0].Name
		try = append(try, "agent-skills "+p.command+" "+fixed.String())
	}
	if len(detail) == 0 {
		return err
	}
	return &hinted{error: err, detail: detail, try: try}
}

// hinted is an error with more detail lines and next actions than the
// error it wraps: the code, the message and errors.Is/As stay the
// wrapped error's, the lines it adds come after its detail and before its
// next actions.
type hinted struct {
	error
	detail, try []string
}

// ErrorDetail returns the wrapped error's detail lines, then the added ones.
func (h *hinted) ErrorDetail() []string {
	return append(slices.Clone(askerr.DetailOf(h.error)), h.detail...)
}

// ErrorTry returns the added next actions, then the wrapped error's.
func (h *hinted) ErrorTry() []string { return append(slices.Clone(h.try), askerr.TryOf(h.error)...) }

// Unwrap returns the wrapped error.
func (h *hinted) Unwrap() error { return h.error }
