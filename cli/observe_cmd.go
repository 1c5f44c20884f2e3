package cli

import (
	"fmt"
	"io"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/atomicfile"
	"github.com/agent-skills/agent-skills/cli/internal/snapshot"
	"github.com/agent-skills/agent-skills/cli/internal/ui"
)

type observeCmd struct {
	Snapshot       string `arg:"" help:"The snapshot file (- reads standard input)."`
	SourceEvidence string `name:"source-evidence" type:"path" help:"A file holding one JSON value saying where the snapshot came from (repository and commit, registry version); attached as given."`
	CheckEvidence  string `name:"check-evidence" type:"path" help:"A file holding one JSON value saying which checks ran on it; attached as given."`
	Out            string `type:"path" help:"Write the observation to this file, atomically (default: standard output)."`
	JSON           bool   `name:"json" help:"With --out, print the summary as JSON."`
}

func (c *observeCmd) Help() string {
	return `Verifies a snapshot (its schema, its paths, every file's bytes against its digest) and
writes its observation (schema agent-skills.observation/1, see docs/maintenance.md): the
same packages, contracts and file digests without the files' bytes or any local path,
named by the digest of the snapshot's bytes, with the source and check evidence
attached as given (each one JSON value of at most 1 MiB, not interpreted). Bump
reports compare two observations. The summary goes to standard error.

Examples:
  agent-skills observe pdf.snapshot.json --source-evidence source.json --out pdf.observation.json
  agent-skills snapshot capture skills/pdf | agent-skills observe -`
}

// observeSummary is the --json output of observe with --out.
type observeSummary struct {
	Out            string `json:"out"`
	Snapshot       string `json:"snapshot"`
	Kind           string `json:"kind"`
	Packages       int    `json:"packages"`
	Files          int    `json:"files"`
	SourceEvidence bool   `json:"sourceEvidence"`
	CheckEvidence  bool   `json:"checkEvidence"`
}

func (c *observeCmd) Run(e *env) error {
	if c.JSON && c.Out == "" {
		return askerr.Usage("--json prints the summary of an observation written with --out; without --out the observation itself is the output")
	}
	raw, s, err := readSnapshot(e, c.Snapshot)
	if err != nil {
		return err
	}
	source, err := readEvidence(e, "--source-evidence", c.SourceEvidence)
	if err != nil {
		return err
	}
	check, err := readEvidence(e, "--check-evidence", c.CheckEvidence)
	if err != nil {
		return err
	}
	o, err := s.Observe(raw, source, check)
	if err != nil {
		return err
	}
	b, err := snapshot.EncodeObservation(o)
	if err != nil {
		return askerr.Internal("cannot encode the observation", err)
	}
	if c.Out == "" {
		if _, err := e.RawOut().Write(b); err != nil {
			return askerr.IO("cannot write the observation to standard output", err)
		}
	} else if err := atomicfile.WriteFile(c.Out, b, 0o644); err != nil {
		return askerr.IO("cannot write "+e.Rel(c.Out), err)
	}
	sum := observeSummary{Out: e.Rel(c.Out), Snapshot: o.Snapshot, Kind: o.Kind, Packages: len(o.Packages),
		SourceEvidence: o.SourceEvidence != nil, CheckEvidence: o.CheckEvidence != nil}
	for _, p := range o.Packages {
		sum.Files += len(p.Files)
	}
	if c.JSON {
		return e.JSON(sum)
	}
	e.Info("observed %s snapshot %s: %d %s, %d %s; source evidence %s, check evidence %s", o.Kind, o.Snapshot,
		sum.Packages, ui.Plural(sum.Packages, "package", "packages"), sum.Files, ui.Plural(sum.Files, "file", "files"),
		attached(sum.SourceEvidence), attached(sum.CheckEvidence))
	if c.Out != "" {
		e.Info("wrote %s", sum.Out)
	}
	return nil
}

func attached(ok bool) string {
	if ok {
		return "attached"
	}
	return "none"
}

// readEvidence reads an evidence file, no more than one byte past
// snapshot.MaxEvidence (Observe refuses a larger one); nil when none is
// named.
func readEvidence(e *env, flag, name string) ([]byte, error) {
	if name == "" {
		return nil, nil
	}
	f, err := openPlain(name)
	if err != nil {
		return nil, &askerr.Error{Code: askerr.CodeUsage, Message: fmt.Sprintf("%s %s cannot be read", flag, e.Rel(name)), Err: err,
			Try: []string{"name a regular file holding one JSON value"}}
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, snapshot.MaxEvidence+1))
	if err != nil {
		return nil, askerr.IO("cannot read "+e.Rel(name), err)
	}
	if len(b) == 0 {
		return nil, &askerr.Error{Code: snapshot.CodeInvalid, Message: fmt.Sprintf("%s %s is empty", flag, e.Rel(name)),
			Try: []string{"pass a file holding one JSON value, or leave the flag out"}}
	}
	return b, nil
}
