package ui

import (
	"fmt"
	"text/tabwriter"
)

// Hit is one row of search results, whichever search produced it.
type Hit struct {
	Name, Version, Source, Description string
}

// SearchResults prints hits as a table whose third column is headed
// source (REGISTRY, SOURCE), or says on Err that nothing matches query:
// the one rendering of search and catalog search.
func (p *Printer) SearchResults(query, source string, hits []Hit) error {
	if len(hits) == 0 {
		p.Info("no skills match %q", query)
		return nil
	}
	tw := tabwriter.NewWriter(p.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "NAME\tVERSION\t%s\tDESCRIPTION\n", source)
	for _, h := range hits {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", Field(h.Name), Field(Dash(h.Version)), Field(h.Source), Truncate(OneLine(h.Description), 70))
	}
	return tw.Flush()
}
