package ui

import (
	"fmt"
	"io"
	"path"

	"github.com/agent-skills/agent-skills/format"
)

// Diagnostics prints validation problems on Out, one per line:
//
//	<dir>/<file>:<line>:<col>: <severity> <CODE> <message>
//	    fix: <what to do>
//
// the form of validate, create, publish and install alike; dir is the
// slash-separated folder the files are shown in ("" for none). File names
// come from packages and are escaped; when quiet, only errors are
// printed, without their fix lines.
func (p *Printer) Diagnostics(dir string, ds format.Diagnostics) {
	p.diagnostics(p.Out, "", dir, ds)
}

// diagnostics prints ds on w in the form of Diagnostics, each line after
// indent.
func (p *Printer) diagnostics(w io.Writer, indent, dir string, ds format.Diagnostics) {
	for _, d := range ds {
		if p.opts.Quiet && d.Severity != format.SeverityError {
			continue // quiet prints errors only
		}
		if dir != "" {
			d.File = path.Join(dir, d.File)
		}
		sev := p.Style.Red(d.Severity.String())
		if d.Severity == format.SeverityWarning {
			sev = p.Style.Yellow(d.Severity.String())
		}
		fmt.Fprintf(w, "%s%s: %s %s %s\n", indent, Location(d), sev, Field(d.Code), Field(d.Message))
		if d.Fix != "" && !p.opts.Quiet {
			fmt.Fprintf(w, "%s    %s %s\n", indent, p.Style.Dim("fix:"), Field(d.Fix))
		}
	}
}

// Location renders "file:line:col", or just "file" when the line is
// unknown; the file name, which a package chose, is escaped.
func Location(d format.Diagnostic) string {
	if d.Line > 0 {
		return fmt.Sprintf("%s:%d:%d", Field(d.File), d.Line, max(d.Col, 1))
	}
	return Field(d.File)
}
