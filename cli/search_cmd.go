package cli

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/agent-skills/agent-skills/cli/internal/termtext"
	"github.com/agent-skills/agent-skills/registry"
)

type searchCmd struct {
	Query    []string `arg:"" optional:"" help:"Words to look for in names, keywords and descriptions (all must match). Empty lists every skill."`
	Registry string   `help:"Search only this registry."`
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
		return usageError("--limit must be 0 or more")
	}
	set, _, err := e.openRegistries()
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
		return e.printJSON(struct {
			Query string         `json:"query"`
			Hits  []registry.Hit `json:"results"`
		}{query, hits})
	}
	if len(hits) == 0 {
		e.info("no skills match %q", query)
		return nil
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tVERSION\tREGISTRY\tDESCRIPTION")
	for _, h := range hits {
		reg := h.Registry
		if h.Shadowed {
			reg += " (shadowed by " + h.ShadowedBy + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", field(h.Name), field(h.Latest), field(reg), truncate(oneLine(h.Description), 70))
	}
	return tw.Flush()
}

// oneLine folds white space runs, new lines included, into single spaces
// and escapes what a terminal would act on (see termtext.Line): the form
// of every description printed in a table or a line.
func oneLine(s string) string { return termtext.Line(foldSpace(s)) }

// foldSpace folds white space runs, new lines included, into single
// spaces, for a value that a program, not a terminal, reads.
func foldSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// field returns a value from a package, index or source — a name, a
// version, a path, a registry — escaped to print as one field of a line.
func field(s string) string { return termtext.Line(s) }

// fields escapes each value like field and joins them with sep.
func fields(ss []string, sep string) string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = field(s)
	}
	return strings.Join(out, sep)
}

// truncate shortens s to at most n runes, marking a cut with "…".
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
