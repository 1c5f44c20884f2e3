package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"

	"github.com/agent-skills/agent-skills/cli/internal/atomicfile"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/scaffold"
)

type createCmd struct {
	Name        string `arg:"" optional:"" help:"Package name: 1-64 lowercase letters, digits and single hyphens."`
	Kind        string `default:"skill" help:"What to create: skill, command or workflow."`
	Dir         string `type:"path" default:"." help:"Folder to create the package in (the package gets its own sub-folder)."`
	Description string `help:"What the package covers and when to use it (agents choose skills by this)."`
	License     string `help:"SPDX licence expression (default Apache-2.0). With --from, it replaces a free-text licence of SKILL.md."`
	Author      string `help:"Author, as \"Name\" or \"Name <email>\"."`
	From        string `type:"path" help:"Adopt an existing bare skill (a folder with only SKILL.md): write a skill.yaml that matches its front matter, saying what it decided."`
	DryRun      bool   `help:"Print what would be written; write nothing."`
}

func (c *createCmd) Help() string {
	return `The scaffold passes agent-skills validate --strict as it is: a SKILL.md with the
Purpose / Workflow / Rules structure, a skill.yaml manifest and a references/ folder.

Examples:
  agent-skills create go-error-handling --description "Reviews Go error handling. Use when a change adds or wraps errors."
  agent-skills create review-diff --kind command
  agent-skills create release-checklist --kind workflow --dir skills/
  agent-skills create --from ~/.claude/skills/my-old-skill     # adopt a bare skill`
}

func (c *createCmd) Run(e *env) error {
	if c.From != "" {
		return c.adopt(e)
	}
	if c.Name == "" {
		return askerr.Usage("create needs a name, or --from <folder> to adopt a bare skill")
	}
	files, err := scaffold.New(scaffold.Options{
		Name: c.Name, Kind: format.Kind(c.Kind), Description: c.Description,
		License: c.License, Author: c.Author,
	})
	if err != nil {
		return err
	}
	target := filepath.Join(c.Dir, c.Name)
	if _, err := os.Lstat(target); err == nil {
		return &askerr.Error{Code: CodeTargetExists, Message: fmt.Sprintf("%s already exists", e.Rel(target)),
			Try: []string{"choose another name or --dir", "agent-skills create --from " + e.Rel(target) + "   to adopt a bare skill"}}
	}
	tree := make([]atomicfile.File, len(files))
	for i, f := range files {
		tree[i] = atomicfile.File{Path: f.Path, Data: f.Data, Mode: f.Mode}
	}
	if c.DryRun {
		fmt.Fprintf(e.Out, "would create %s %s in %s:\n", c.Kind, c.Name, e.Rel(target))
		for _, f := range files {
			fmt.Fprintf(e.Out, "  %s (%d bytes)\n", f.Path, len(f.Data))
		}
		return nil
	}
	if err := atomicfile.WriteTree(target, tree); err != nil {
		if errors.Is(err, atomicfile.ErrExist) {
			return &askerr.Error{Code: CodeTargetExists, Message: fmt.Sprintf("%s already exists", e.Rel(target))}
		}
		return &askerr.Error{Code: askerr.CodeIO, Message: "cannot write " + e.Rel(target), Err: err}
	}
	e.Done("created %s %s in %s", c.Kind, c.Name, e.Rel(target))
	for _, f := range files {
		e.Verbose("  %s", f.Path)
	}
	e.Info("next: edit %s, then run agent-skills validate %s --strict",
		filepath.Join(e.Rel(target), format.EntrypointFor(format.Kind(c.Kind))), e.Rel(target))
	return nil
}

// adopt writes a skill.yaml for an existing bare skill.
func (c *createCmd) adopt(e *env) error {
	dir, err := filepath.Abs(c.From)
	if err != nil {
		return askerr.Usage("cannot resolve %s", c.From)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return askerr.Usage("%s is not a folder", c.From)
	}
	if c.Name != "" && c.Name != filepath.Base(dir) {
		return askerr.Usage("the name %q differs from the folder name %q; a package's name must equal its folder", c.Name, filepath.Base(dir))
	}
	a, err := scaffold.Adopt(os.DirFS(dir), filepath.Base(dir), scaffold.AdoptOptions{License: c.License, Author: c.Author})
	if err != nil {
		var se *scaffold.Error
		if errors.As(err, &se) {
			e.Diagnostics(filepath.ToSlash(e.Rel(dir)), se.Diagnostics)
		}
		return err
	}
	for _, n := range a.Notes {
		e.Note("%s", n)
	}
	for _, f := range a.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if c.DryRun {
			fmt.Fprintf(e.Out, "would write %s:\n%s", e.Rel(p), f.Data)
			continue
		}
		if _, err := os.Lstat(p); err == nil {
			return &askerr.Error{Code: CodeTargetExists, Message: e.Rel(p) + " already exists"}
		}
		if err := atomicfile.WriteFile(p, f.Data, 0o644); err != nil {
			return &askerr.Error{Code: askerr.CodeIO, Message: "cannot write " + e.Rel(p), Err: err}
		}
		e.Done("wrote %s", e.Rel(p))
	}
	if !c.DryRun {
		e.Info("next: agent-skills validate %s --strict", e.Rel(dir))
	}
	return nil
}
