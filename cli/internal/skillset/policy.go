package skillset

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/policy"
	"github.com/agent-skills/agent-skills/cli/internal/source"
	"github.com/agent-skills/agent-skills/cli/internal/workspace"
	"github.com/agent-skills/agent-skills/format"
)

// This file holds the hooks by which install, update and restore enforce
// the session's policy (docs/policy.md): each refuses with
// ASK_POLICY_VIOLATION before anything is written.

// policyReady returns why the policy files cannot be used, if they cannot:
// a command that brings skills in does not run without its policy.
func (s *Session) policyReady() error { return s.PolicyErr }

// policyRegistries refuses, before any package is fetched, the wanted
// packages whose registry the policy refuses by name or URL.
func (p *op) policyRegistries(wants []want) error {
	if p.Policy.Empty() {
		return nil
	}
	checked := map[string]bool{}
	for _, w := range wants {
		if checked[w.registry] {
			continue
		}
		checked[w.registry] = true
		reg, ok := p.Registries.Get(w.registry)
		if !ok {
			continue // fetchOne names it
		}
		if err := p.Policy.CheckRegistry(reg.Name(), reg.Spec().URL); err != nil {
			return err
		}
	}
	return nil
}

// policySource refuses a direct source the policy refuses, before it is
// fetched.
func (p *op) policySource(r source.Ref) error {
	if p.Policy.Empty() {
		return nil
	}
	return p.Policy.CheckSource(r.Input, sourceSubjects(r, p.ws.UserHome()))
}

// policyPackage refuses a fetched package the policy's capability rules
// refuse.
func (p *op) policyPackage(name string, pkg *format.Package) error {
	return p.Policy.CheckPackage(name, pkg)
}

// sourceSubjects are what the policy's host patterns match for r
// (policy.Subject): a GitHub or GitLab shorthand as github.com/owner/repo
// or gitlab.com/group/repo, whatever host AGENT_SKILLS_GITHUB_URL names,
// then its URL's — a folder or local archive as file:///its/path.
func sourceSubjects(r source.Ref, home string) []string {
	var out []string
	switch r.Kind {
	case source.KindGitHub:
		out = append(out, "github.com/"+strings.ToLower(r.Repo))
	case source.KindGitLab:
		out = append(out, "gitlab.com/"+strings.ToLower(r.Repo))
	}
	u := r.URL
	if u == "~" || strings.HasPrefix(u, "~/") {
		u = filepath.Join(home, strings.TrimPrefix(u, "~"))
	}
	if s := policy.Subject(u); s != "" && !slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, s) }) {
		out = append(out, s)
	}
	return out
}

// CheckListedSource refuses, before anything is read from it, a source
// that `install --list` would contact and the effective policy of scope
// refuses — the same check an install of it makes, so that a denied host
// is not contacted to list it either.
func CheckListedSource(ws *workspace.Machine, scope workspace.Scope, r source.Ref) error {
	pol, err := ws.LoadPolicy(scope.Root)
	if err != nil {
		return err
	}
	if pol.Empty() {
		return nil
	}
	return pol.CheckSource(r.Input, sourceSubjects(r, ws.UserHome()))
}
