package cli

import (
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/ui"

	"github.com/agent-skills/agent-skills/registry"
)

type searchCmd struct {
	Query    []string `arg:"" optional:"" help:"Words to look for in names, keywords and descriptions (all must match). Empty lists every skill."`
	Registry string   `predictor:"registry" help:"Search only this registry."`
	Limit    int      `default:"20" help:"Show at most this many results (0: no limit)."`
	JSON     bool     `name:"json" help:"Print JSON."`
}

func (c *searchCmd) Help() string {
	return `Results are ranked: exact name, name prefix, name substring, keyword, description.
Registries are searched in precedence order; a result whose name an earlier registry
owns is marked "shadowed" (install it with registry:name). Cached indexes are used
when a registry cannot be reached.

Examples:
  agent-skills search java performance
  agent-skills search gc --registry official --json`
}

func (c *searchCmd) Run(e *env) error {
	if c.Limit < 0 {
		return askerr.Usage("--limit must be 0 or more")
	}
	set, _, err := e.ws.Configured()
	if err != nil {
		return err
	}
	loaded, err := set.Indexes(e.ctx, c.Registry)
	if err != nil {
		return err
	}
	query := strings.Join(c.Query, " ")
	hits := registry.Search(loaded, query, c.Limit)
	if c.JSON {
		if hits == nil {
			hits = []registry.Hit{}
		}
		return e.JSON(struct {
			Query string         `json:"query"`
			Hits  []registry.Hit `json:"results"`
		}{query, hits})
	}
	rows := make([]ui.Hit, len(hits))
	for i, h := range hits {
		src := h.Registry
		if h.Shadowed {
			src += " (shadowed by " + h.ShadowedBy + ")"
		}
		rows[i] = ui.Hit{Name: h.Name, Version: h.Latest, Source: src, Description: h.Description}
	}
	return e.SearchResults(query, "REGISTRY", rows)
}
