package skillset

import (
	"fmt"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/install"
	"github.com/agent-skills/agent-skills/cli/internal/redact"
	"github.com/agent-skills/agent-skills/format"
	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/validate"
)

// fetched is a verified payload in a temporary folder.
type fetched struct {
	want
	item install.Item
}

// fetch reads and verifies every wanted package into memory (a snapshot
// whose digest is computed over the very bytes that will be installed),
// checks the lock's integrity, and validates each package for the selected
// agents. Nothing outside the registries' caches is written.
func (p *op) fetch(wants []want) ([]fetched, error) {
	var out []fetched
	defer p.progress.Done()
	vopts := validate.Options{OverrideKeys: p.ws.OverrideKeys()}
	for i, w := range wants {
		p.progress.Step(i+1, len(wants), "fetching", w.name+"@"+w.version)
		reg, ok := p.Registries.Get(w.registry)
		if !ok {
			return nil, &askerr.Error{Code: registry.CodeRegistryUnknown,
				Message: fmt.Sprintf("%s@%s comes from registry %q, which is not configured", w.name, w.version, w.registry),
				Try:     []string{"agent-skills registry add " + w.registry + " <url>", "agent-skills update " + w.name + "   (to resolve it again)"}}
		}
		pkg, integrity, err := registry.Snapshot(p.ctx, reg, w.name, w.version)
		if err != nil {
			return nil, err
		}
		if w.integrity != "" && !format.SameIntegrity(w.integrity, integrity) {
			return nil, &askerr.Error{Code: registry.CodeIntegrityMismatch,
				Message: fmt.Sprintf("%s@%s does not match skills.lock", w.name, w.version),
				Detail:  []string{"expected (skills.lock): " + w.integrity, "actual   (" + w.registry + "):  " + integrity, "Nothing was installed."},
				Try:     []string{"ask the registry's maintainers why the published bytes changed", "agent-skills update " + w.name + "   (only if you trust the new bytes)"}}
		}
		resolved, err := reg.Resolved(p.ctx, w.name, w.version)
		if err != nil {
			return nil, err
		}
		// An HTTP registry's tarball URL inherits the user information of
		// an index URL written with a password; skills.lock and the
		// receipts record where the payload came from, never the password.
		resolved = redact.Strip(resolved)
		vopts.DirName = w.name
		diags := validate.Package(pkg, vopts)
		for _, a := range p.Agents {
			diags = append(diags, a.Validate(pkg)...)
		}
		if diags.HasErrors() {
			p.out.Problems = append(p.out.Problems, Problem{Package: w.name + "@" + w.version, Diagnostics: errorsOnly(diags)})
			return nil, &askerr.Error{Code: askerr.CodeValidationFailed, Diagnostics: errorsOnly(diags),
				Message: fmt.Sprintf("%s@%s from %s is not a valid package; nothing was installed", w.name, w.version, w.registry),
				Try:     []string{"report the problems above to the skill's maintainers", "install another version: agent-skills info " + w.name}}
		}
		out = append(out, fetched{want: w, item: install.Item{Pkg: pkg, Registry: reg.Name(), KeepRole: w.keepRole, Dependencies: w.deps,
			Resolved: resolved, Integrity: integrity, Role: w.role}})
	}
	return out, nil
}

// errorsOnly returns the errors among diags.
func errorsOnly(diags format.Diagnostics) format.Diagnostics {
	var out format.Diagnostics
	for _, d := range diags {
		if d.Severity == format.SeverityError {
			out = append(out, d)
		}
	}
	return out
}
