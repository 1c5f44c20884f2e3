package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/bump"
	"github.com/agent-skills/agent-skills/cli/internal/signing"
	"github.com/agent-skills/agent-skills/cli/internal/ui"
	"github.com/agent-skills/agent-skills/cli/internal/workspace"
	"github.com/agent-skills/agent-skills/registry"

	"github.com/agent-skills/agent-skills/cli/internal/config"
	"github.com/agent-skills/agent-skills/cli/internal/publish"
	"github.com/agent-skills/agent-skills/format"
)

type publishCmd struct {
	Path     string `arg:"" optional:"" default:"." type:"path" help:"The package folder to publish."`
	Registry string `predictor:"registry" help:"Target: a configured registry (local, git or oci), or the path of a registry folder (agent-skills registry init creates one). Default: official; with --pack alone, none."`
	Write    bool   `help:"Write the package and patch the registry's registry/skills.yaml (for git: commit on a new branch of a clone)."`
	Push     bool   `help:"With --write on a git registry: push the branch, ready for a pull request."`
	Pack     string `type:"path" placeholder:"DIR" help:"Also write a reproducible <name>-<version>.tar.gz into DIR."`
	JSON     bool   `name:"json" help:"Print the index entry (and the write result) as JSON."`
	SignKey  string `type:"path" name:"sign-key" placeholder:"KEY" help:"Sign with this OpenSSH private key: the version's package statement (kept in its index entry) and, with --write, the whole index (registry/skills.yaml.sig; for an OCI registry, a signature referrer of the index artifact). An encrypted key reads its passphrase from AGENT_SKILLS_SIGN_KEY_PASSPHRASE."`
	// AllowRisk accepts blocking content-scan findings of these rules.
	AllowRisk []string `name:"allow-risk" placeholder:"RULE" help:"Publish despite findings of these rules that would block installs (rule ids; comma-separated or repeated). Users' installs still refuse them unless they accept them too."`
	// AcceptBump and Review: the bump check against the registry's latest.
	AcceptBump bool   `name:"accept-bump" help:"Publish even when the version step is below what the bump report against the registry's latest version recommends."`
	Review     string `type:"path" placeholder:"FILE" help:"A review file of per-change verdicts for the bump report (see agent-skills report bump --help)."`
}

func (c *publishCmd) Help() string {
	return `publish prepares a release: strict validation; the version must be new and greater than
the registry's latest; every dependency must resolve in the target registry; every
agent id in compatibility must be known; the integrity digest is computed. The content
scanner runs as install runs it and its findings are shown: one that would block installs
(critical) refuses the package (exit 5, ASK_CONTENT_RISK) unless --allow-risk <rule>
accepts it. When the registry has a version of the package, publish compares the
package with its latest version (agent-skills report bump) and prints the report: a
version step below the recommendation is refused (exit 3, ASK_PUBLISH_BUMP_TOO_SMALL)
unless --accept-bump; an undetermined recommendation (a changed file with no review
verdict: --review FILE gives them) is refused only when the decided changes already
need more than the step, and is otherwise a warning. It prints the index entry. --write applies it: for a registry folder, the package is placed and
registry/skills.yaml patched in place (comments and order kept); for a git registry,
the same happens on a branch publish/<name>-<version> of a fresh clone — open a pull
request from it (--push pushes it).

--pack DIR alone (no --registry, no --write) asks no registry: the checks that need
one — the version is new, the dependencies resolve — are skipped and say so.
With --offline, nothing is cloned: a git registry is checked against its cached
copy, and --write to one is refused.

Examples:
  agent-skills publish ./java-performance --registry ./my-registry
  agent-skills publish ./java-performance --registry ./my-registry --write
  agent-skills publish ./java-performance --registry team --write --push
  agent-skills registry init ./my-registry             # start a registry
  agent-skills publish . --pack dist/                  # a reproducible archive; no registry is asked
  agent-skills publish skills/java-basics --registry skills --write   # the bundled collection`
}

func (c *publishCmd) Run(e *env) error {
	if c.Push && !c.Write {
		return askerr.Usage("--push needs --write")
	}
	var signer ssh.Signer
	if c.SignKey != "" {
		var err error
		if signer, err = signing.LoadSignKey(c.SignKey, e.ws.Getenv); err != nil {
			return err
		}
	}
	var target publish.Target
	desc := "no registry"
	if packOnly := c.Registry == "" && c.Pack != "" && !c.Write; !packOnly {
		// Packing alone asks no registry: target stays nil.
		var err error
		if target, desc, err = c.target(e); err != nil {
			return err
		}
	}
	opts := publish.Options{
		OverrideKeys: e.ws.OverrideKeys(),
		Load:         workspace.LoadOptions(),
		KnownAgents:  e.ws.Table().IDs(),
		Now:          time.Now,
		AllowRisk:    c.AllowRisk,
	}
	if target != nil {
		opts.Bump = &publish.BumpCheck{Accept: c.AcceptBump}
		if c.Review != "" {
			f, err := os.Open(c.Review)
			if err != nil {
				return askerr.IO("cannot read review "+e.Rel(c.Review), err)
			}
			opts.Bump.Review, err = bump.DecodeReview(f, e.Rel(c.Review))
			f.Close()
			if err != nil {
				return err
			}
		}
	} else if c.Review != "" || c.AcceptBump {
		return askerr.Usage("--review and --accept-bump need a registry to compare with: --registry <name or folder>")
	}
	if ft, ok := target.(publish.FolderTarget); ok && c.isBundledCollection(ft.Root) {
		// The bundled index carries no time stamps, so that it stays equal
		// to the index generated from the packages.
		opts.Now = nil
	}
	plan, err := publish.Prepare(e.ctx, c.Path, target, opts)
	if err != nil {
		var re *publish.RiskError
		var pe *publish.Error
		var be *publish.BumpError
		switch {
		case errors.As(err, &be):
			e.renderBumpReport(e.Err, be.Report)
		case errors.As(err, &re):
			e.Findings(filepath.ToSlash(e.Rel(c.Path)), re.Findings)
		case errors.As(err, &pe):
			e.Diagnostics(filepath.ToSlash(e.Rel(c.Path)), pe.Diagnostics)
		}
		return err
	}
	if signer != nil {
		sig, err := signing.SignPackage(signer, plan.Name, plan.Version, plan.Integrity)
		if err != nil {
			return &askerr.Error{Code: signing.CodeSignKeyInvalid, Message: "cannot sign with " + e.Rel(c.SignKey), Err: err}
		}
		if err := plan.Sign([]string{sig}, func(b []byte) ([]byte, error) { return signing.SignIndex(signer, b) }); err != nil {
			return err
		}
	}
	// What the scanner found is what users will see on install: shown
	// before the result (--json carries it in plan.findings).
	shown := filepath.ToSlash(e.Rel(c.Path))
	if !c.JSON {
		e.Findings(shown, plan.Findings)
		if plan.Bump != nil && !e.g.Quiet {
			e.renderBumpReport(e.Err, plan.Bump)
		}
	}
	for _, a := range plan.Accepted {
		e.Note("%s %s (%s) accepted by %s; installs still refuse it unless the user accepts it too",
			ui.Field(path.Join(shown, a.File)), ui.Field(a.Rule), a.Severity, ui.Field(a.By))
	}
	for _, w := range plan.Warnings {
		e.Warn("%s", ui.Field(w))
	}
	if len(plan.Skipped) > 0 {
		e.Note("no --registry: skipped the checks that need a registry (%s); run publish --registry <name> before releasing", strings.Join(plan.Skipped, "; "))
	}
	result := struct {
		Entry  json.RawMessage      `json:"entry"`
		Write  *publish.WriteResult `json:"write,omitempty"`
		Pack   string               `json:"pack,omitempty"`
		Target string               `json:"target"`
		Plan   map[string]any       `json:"plan"`
	}{Entry: plan.EntryJSON, Target: desc, Plan: map[string]any{
		"name": plan.Name, "version": plan.Version, "integrity": plan.Integrity, "path": plan.Path}}
	if len(plan.Findings) > 0 {
		result.Plan["findings"] = plan.Findings
	}
	if len(plan.Accepted) > 0 {
		result.Plan["accepted"] = plan.Accepted
	}
	if len(plan.Skipped) > 0 {
		result.Plan["skipped"] = plan.Skipped
	}
	if plan.Bump != nil {
		result.Plan["bump"] = plan.Bump
	}
	if c.Pack != "" {
		pkg, diags := format.Load(os.DirFS(c.Path), workspace.LoadOptions())
		if pkg == nil || diags.HasErrors() {
			return &askerr.Error{Code: askerr.CodeValidationFailed, Message: "the package changed while it was being published"}
		}
		if err := os.MkdirAll(c.Pack, 0o755); err != nil {
			return &askerr.Error{Code: askerr.CodeIO, Message: "cannot create " + e.Rel(c.Pack), Err: err}
		}
		p, err := publish.Pack(pkg, c.Pack)
		if err != nil {
			return err
		}
		result.Pack = p
	}
	if c.Write {
		res, err := target.Write(e.ctx, plan, c.Path)
		if err != nil {
			return err
		}
		result.Write = res
		for _, w := range res.Warnings {
			e.Warn("%s", w)
		}
	}
	if c.JSON {
		return e.JSON(result)
	}
	if target == nil {
		e.Info("%s %s is packed for no registry (integrity %s)", plan.Name, plan.Version, plan.Integrity)
	} else if !c.Write {
		e.Info("%s %s is ready for %s (integrity %s); the index entry:", plan.Name, plan.Version, desc, plan.Integrity)
		fmt.Fprintf(e.Out, "%s", plan.Entry)
		if !strings.HasSuffix(string(plan.Entry), "\n") {
			fmt.Fprintln(e.Out)
		}
	} else {
		r := result.Write
		e.Done("published %s %s to %s at %s", plan.Name, plan.Version, desc, r.Path)
		for _, a := range r.Archived {
			e.Done("  archived %s as a tarball", a)
		}
		for _, d := range r.Dropped {
			e.Done("  dropped %s (its files were already replaced)", d)
		}
		if r.Signature != "" {
			e.Done("  signed %s@%s and the index (%s) with %s", plan.Name, plan.Version, e.Rel(r.Signature), ssh.FingerprintSHA256(signer.PublicKey()))
		}
		if r.Branch != "" {
			e.Done("  branch %s, commit %s", r.Branch, r.Commit)
		}
		if r.Next != "" {
			e.Done("next: %s", r.Next)
		}
	}
	if result.Pack != "" {
		e.Done("packed %s", e.Rel(result.Pack))
	}
	return nil
}

// target turns --registry (official when not given) into a publish
// target: a configured local or git registry — the user's or the
// project's — or a registry folder given by path. With --offline a git
// registry is never cloned: its cached copy answers the checks, and
// --write is refused.
func (c *publishCmd) target(e *env) (publish.Target, string, error) {
	name := c.Registry
	if name == "" {
		name = "official"
	}
	cfg, err := e.ws.LoadConfig()
	if err != nil {
		return nil, "", err
	}
	root, err := e.ws.ProjectRoot("")
	if err != nil {
		return nil, "", err
	}
	list, err := e.ws.RegistryList(cfg, root)
	if err != nil {
		if fi, serr := os.Stat(name); serr == nil && fi.IsDir() {
			list, err = e.ws.RegistryList(cfg, "") // a folder target does not need the project's registries
		}
		if err != nil {
			return nil, "", err
		}
	}
	if r, ok := list.Get(name); ok {
		switch r.Kind {
		case config.KindLocal:
			return publish.FolderTarget{Root: strings.TrimPrefix(r.URL, "file://")}, "registry " + r.Name, nil
		case config.KindGit:
			if e.ws.Offline() {
				return c.offlineGit(e, cfg, r.Registry)
			}
			sum := sha256.Sum256([]byte(r.URL + "#" + r.Ref))
			work, err := os.MkdirTemp(ensureDir(filepath.Join(e.ws.CacheDir(), "publish")), hex.EncodeToString(sum[:6])+"-")
			if err != nil {
				return nil, "", &askerr.Error{Code: askerr.CodeIO, Message: "cannot create a work folder for the clone", Err: err}
			}
			if err := os.Remove(work); err != nil {
				return nil, "", &askerr.Error{Code: askerr.CodeIO, Message: "cannot prepare " + work, Err: err}
			}
			ref := r.Ref
			if ref == "" {
				ref = "main"
			}
			return publish.GitTarget{URL: r.URL, Ref: ref, WorkDir: work, Push: c.Push}, "registry " + r.Name, nil
		case config.KindOCI:
			return c.ociTarget(e, cfg, r.Registry)
		case config.KindBundled:
			return nil, "", &askerr.Error{Code: askerr.CodeUsage, Message: "the bundled registry is built into agent-skills and cannot be written",
				Try: []string{"publish into the skills/ folder of the agent-skills source: --registry path/to/skills"}}
		default:
			return nil, "", &askerr.Error{Code: askerr.CodeUsage, Message: fmt.Sprintf("registry %s is an %s registry, which has no write path", r.Name, r.Kind),
				Try: []string{"publish to the git repository or folder that backs it"}}
		}
	}
	if fi, err := os.Stat(name); err == nil && fi.IsDir() {
		abs, _ := filepath.Abs(name)
		if _, err := os.Stat(filepath.Join(abs, filepath.FromSlash(publish.IndexFile))); err != nil {
			if c.Write {
				e.Note("%s has no %s; --write starts one (agent-skills registry init %s makes an empty registry explicitly)", e.Rel(abs), publish.IndexFile, e.Rel(abs))
			} else {
				e.Note("%s has no %s yet: it is checked as an empty registry", e.Rel(abs), publish.IndexFile)
			}
		}
		return publish.FolderTarget{Root: abs}, "registry folder " + e.Rel(abs), nil
	}
	names := make([]string, len(list.Registries))
	for i, r := range list.Registries {
		names[i] = r.Name
	}
	if looksLikePath(name) {
		return nil, "", &askerr.Error{Code: registry.CodeRegistryUnknown, Message: fmt.Sprintf("there is no registry folder at %s", name),
			Detail: []string{"Nothing was published. A registry folder holds registry/skills.yaml and the skills it lists."},
			Try: []string{
				"agent-skills registry init " + name + "   (creates an empty registry there; --git makes it a git repository)",
				"then publish again with --registry " + name + " --write",
			}}
	}
	return nil, "", &askerr.Error{Code: registry.CodeRegistryUnknown, Message: fmt.Sprintf("%q is neither a configured registry nor a folder", name),
		Detail: []string{"configured: " + strings.Join(names, ", ")},
		Try: []string{"agent-skills registry add <name> <url>", "--registry <path of a registry folder>",
			"agent-skills registry init <dir>   (to start a registry)"}}
}

// ociTarget is the target of an OCI registry: read for the checks,
// pushed to by --write (which implies --push).
func (c *publishCmd) ociTarget(e *env, cfg *config.Config, r config.Registry) (publish.Target, string, error) {
	if c.Write && e.ws.Offline() {
		return nil, "", askerr.Usage("publishing to OCI registry %s needs the network; drop --offline", r.Name)
	}
	opts := e.ws.RegistryOptions(cfg)
	w, err := registry.NewOCIWriter(workspace.RegistrySpec(r), opts)
	if err != nil {
		return nil, "", err
	}
	// The reader answers for the versions the writer's fresh index lists:
	// it revalidates its cached index instead of trusting the TTL.
	ropts := opts
	ropts.TTL = 0
	reg, err := workspace.OpenRegistry(r, ropts)
	if err != nil {
		return nil, "", err
	}
	return publish.OCITarget{Writer: w, Reader: reg, Load: workspace.LoadOptions()}, "registry " + r.Name, nil
}

// offlineGit is the target of a git registry under --offline: its cached
// clone, read only; --write, which needs a fresh clone, is refused.
func (c *publishCmd) offlineGit(e *env, cfg *config.Config, r config.Registry) (publish.Target, string, error) {
	if c.Write {
		return nil, "", &askerr.Error{Code: askerr.CodeUsage,
			Message: "--offline: publishing to git registry " + r.Name + " with --write needs a fresh clone, and --offline forbids the network",
			Detail:  []string{"Nothing was cloned or written."},
			Try:     []string{"publish again without --offline", "agent-skills publish --offline   (without --write: checks against the cached copy)"}}
	}
	reg, err := workspace.OpenRegistry(r, e.ws.RegistryOptions(cfg))
	if err != nil {
		return nil, "", err
	}
	return publish.RegistryTarget{Registry: reg}, "registry " + r.Name + " (its cached copy: --offline)", nil
}

// looksLikePath reports whether a --registry value is meant as a folder:
// it holds a path separator or starts with "." or "~".
func looksLikePath(s string) bool {
	return strings.ContainsAny(s, `/\`) || strings.HasPrefix(s, ".") || strings.HasPrefix(s, "~")
}

// isBundledCollection reports whether root is a copy of agent-skills'
// own skills/ folder: a Go module whose only code embeds the collection.
func (c *publishCmd) isBundledCollection(root string) bool {
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	return err == nil && strings.Contains(string(data), "agent-skills/skills")
}

func ensureDir(p string) string {
	os.MkdirAll(p, 0o755)
	return p
}
