package skillset

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing/fstest"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/format"
)

// keepLocal carries the user's edits of installed files into the new
// packages: for each package, a file the user changed in an installed
// copy replaces the new version's file. It returns the packages rebuilt
// over memory and the files kept.
func (p *op) keepLocal(fs []fetched) ([]fetched, error) {
	found, err := p.scan()
	if err != nil {
		return nil, err
	}
	edits := map[string]map[string][]byte{}
	for _, in := range found {
		for _, dr := range in.Drift {
			f := dr.Path
			if dr.State != install.DriftChanged || in.Kind != format.KindSkill {
				continue
			}
			data, err := os.ReadFile(filepath.Join(in.Dest, filepath.FromSlash(f)))
			if err != nil {
				continue
			}
			if edits[in.Name] == nil {
				edits[in.Name] = map[string][]byte{}
			}
			if _, seen := edits[in.Name][f]; !seen {
				edits[in.Name][f] = data
			}
		}
	}
	for i, f := range fs {
		keep := edits[f.name]
		if len(keep) == 0 {
			continue
		}
		mem := fstest.MapFS{}
		pkg := f.item.Pkg
		if pkg == nil { // past the held budget: only sealed (see fetched)
			if pkg, err = f.item.Load(); err != nil {
				return nil, err
			}
		}
		for _, name := range pkg.Files {
			data, err := fs2bytes(pkg.FS, name)
			if err != nil {
				return nil, err
			}
			mem[name] = &fstest.MapFile{Data: data, Mode: 0o644}
		}
		var kept []string
		for name, data := range keep {
			if _, ok := mem[name]; ok {
				mem[name] = &fstest.MapFile{Data: data, Mode: 0o644}
				kept = append(kept, name)
			}
		}
		np, diags := format.Load(mem, format.LoadOptions{})
		if np == nil || diags.HasErrors() {
			return nil, &askerr.Error{Code: askerr.CodeValidationFailed, Message: fmt.Sprintf("%s with your edits kept is not a valid package", f.name),
				Detail: diagLines(diags), Try: []string{"update " + f.name + " without --keep-local, then apply your edits again"}}
		}
		slices.Sort(kept)
		p.info("%s: keeping your version of %s", f.name, strings.Join(kept, ", "))
		fs[i].item.Pkg, fs[i].item.Load = np, nil
	}
	return fs, nil
}
