package ui

import (
	"fmt"
	"io"
	"path"

	"github.com/agent-skills/agent-skills/scan"
)

// Findings prints content-scan findings on Out, one per finding:
//
//	<dir>/<file>:<line>:<col>: <severity> <rule> <message>
//	    | <excerpt, hidden characters shown as <U+XXXX>>
//	    fix: <what to do>
//
// the form of install, update, audit, validate and publish alike; dir is
// the slash-separated folder the files are shown in ("" for none). When
// quiet, only the first line of each finding is printed.
func (p *Printer) Findings(dir string, fs []scan.Finding) {
	p.findings(p.Out, "", dir, fs)
}

// findings prints fs on w in the form of Findings, each line after indent.
func (p *Printer) findings(w io.Writer, indent, dir string, fs []scan.Finding) {
	for _, f := range fs {
		file := f.File
		if dir != "" {
			file = path.Join(dir, file)
		}
		loc := Field(file)
		if f.Line > 0 {
			loc = fmt.Sprintf("%s:%d:%d", loc, f.Line, max(f.Col, 1))
		}
		fmt.Fprintf(w, "%s%s: %s %s %s\n", indent, loc, p.severity(f.Severity), Field(f.Rule), Field(f.Message))
		if p.opts.Quiet {
			continue
		}
		if f.Excerpt != "" {
			fmt.Fprintf(w, "%s    %s %s\n", indent, p.Style.Dim("|"), Field(f.Excerpt))
		}
		if f.Fix != "" {
			fmt.Fprintf(w, "%s    %s %s\n", indent, p.Style.Dim("fix:"), Field(f.Fix))
		}
	}
}

// severity colours a finding's severity: critical and high red, medium
// and low yellow, info plain.
func (p *Printer) severity(s scan.Severity) string {
	switch {
	case s >= scan.High:
		return p.Style.Red(s.String())
	case s >= scan.Low:
		return p.Style.Yellow(s.String())
	}
	return s.String()
}
