package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/crypto/ssh"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/config"
	"github.com/agent-skills/agent-skills/cli/internal/signing"
	"github.com/agent-skills/agent-skills/cli/internal/ui"

	"github.com/agent-skills/agent-skills/cli/internal/atomicfile"
	"github.com/agent-skills/agent-skills/registry"
)

type registryExportCmd struct {
	From string `arg:"" predictor:"registry" help:"A configured registry, or the path of a registry folder."`
	Dir  string `arg:"" help:"Output folder for the static HTTP registry (index.json and archives/), or an oci://host[:port]/path OCI registry to mirror into."`
	// SignKey signs the exported index.json (index.json.sig); the
	// versions keep the package signatures they have.
	SignKey string `type:"path" name:"sign-key" placeholder:"KEY" help:"Sign index.json with this OpenSSH private key (index.json.sig beside it; for an oci:// destination, a signature referrer of the index artifact); package signatures are carried over as they are."`
}

func (c *registryExportCmd) Help() string {
	return `Turns any registry into a static HTTP registry that a plain web server or bucket can
serve: every version is verified, packed into a reproducible archives/<name>-<version>.tar.gz,
and listed in index.json with its integrity. Point clients at <base-url>/index.json.

Given an oci://host[:port]/path destination instead, every version is pushed there as an
OCI artifact (repository <path>/<name>, tag <version>) and the registry's index artifact
(tag "index") is updated to list them all, merged with what it already lists.

Example:
  agent-skills registry export ./my-registry ./public
  agent-skills registry add mirror https://skills.example.com/index.json
  agent-skills registry export official oci://ghcr.io/acme/skills`
}

func (c *registryExportCmd) Run(e *env) error {
	set, cfg, err := e.ws.Configured()
	if err != nil {
		return err
	}
	reg, ok := set.Get(c.From)
	if !ok {
		fi, err := os.Stat(c.From)
		if err != nil || !fi.IsDir() {
			return &askerr.Error{Code: registry.CodeRegistryUnknown, Message: fmt.Sprintf("%q is neither a configured registry nor a folder", c.From),
				Try: []string{"agent-skills registry list"}}
		}
		abs, _ := filepath.Abs(c.From)
		reg, err = registry.Open(registry.Spec{Name: filepath.Base(abs), URL: abs, Kind: registry.KindLocal}, e.ws.RegistryOptions(cfg))
		if err != nil {
			return err
		}
	}
	var signer ssh.Signer
	if c.SignKey != "" {
		if signer, err = signing.LoadSignKey(c.SignKey, e.ws.Getenv); err != nil {
			return err
		}
	}
	idx, err := reg.Index(e.ctx)
	if err != nil {
		return err
	}
	if strings.HasPrefix(c.Dir, "oci://") {
		return c.toOCI(e, cfg, reg, idx, signer)
	}
	if abs, err := filepath.Abs(c.Dir); err == nil {
		c.Dir = abs
	}
	if err := os.MkdirAll(filepath.Join(c.Dir, "archives"), 0o755); err != nil {
		return &askerr.Error{Code: askerr.CodeIO, Message: "cannot create " + e.Rel(c.Dir), Err: err}
	}
	out := &registry.Index{SchemaVersion: idx.SchemaVersion, Name: idx.Name, UpdatedAt: idx.UpdatedAt}
	count := 0
	for _, s := range idx.Skills {
		ns := *s
		ns.Versions = nil
		for _, v := range s.Versions {
			pkg, err := reg.Package(e.ctx, s.Name, v.Version)
			if err != nil {
				return err
			}
			var buf bytes.Buffer
			if err := registry.Pack(pkg.FS, pkg.Files, &buf); err != nil {
				return &askerr.Error{Code: askerr.CodeIO, Message: fmt.Sprintf("cannot pack %s@%s", s.Name, v.Version), Err: err}
			}
			rel := "archives/" + s.Name + "-" + v.Version + ".tar.gz"
			if err := atomicfile.WriteFile(filepath.Join(c.Dir, filepath.FromSlash(rel)), buf.Bytes(), 0o644); err != nil {
				return &askerr.Error{Code: askerr.CodeIO, Message: "cannot write " + rel, Err: err}
			}
			nv := *v
			nv.Path, nv.Tarball = "", rel
			ns.Versions = append(ns.Versions, &nv)
			count++
		}
		out.Skills = append(out.Skills, &ns)
	}
	data := out.EncodeJSON()
	if _, err := registry.DecodeIndex(data, "index.json"); err != nil {
		return err
	}
	var sig []byte
	if signer != nil {
		if sig, err = signing.SignIndex(signer, data); err != nil {
			return &askerr.Error{Code: signing.CodeSignKeyInvalid, Message: "cannot sign index.json with " + e.Rel(c.SignKey), Err: err}
		}
	}
	if err := atomicfile.WriteFile(filepath.Join(c.Dir, "index.json"), data, 0o644); err != nil {
		return &askerr.Error{Code: askerr.CodeIO, Message: "cannot write index.json", Err: err}
	}
	if _, err := os.Stat(filepath.Join(c.Dir, "index.json"+registry.SignatureSuffix)); err == nil && sig == nil {
		e.Warn("index.json%s no longer matches index.json: clients that trust this registry's signers will refuse it until it is exported with --sign-key", registry.SignatureSuffix)
	}
	if sig != nil {
		if err := atomicfile.WriteFile(filepath.Join(c.Dir, "index.json"+registry.SignatureSuffix), sig, 0o644); err != nil {
			return &askerr.Error{Code: askerr.CodeIO, Message: "cannot write index.json" + registry.SignatureSuffix, Err: err}
		}
		e.Done("signed index.json (index.json%s) with %s", registry.SignatureSuffix, ssh.FingerprintSHA256(signer.PublicKey()))
	}
	e.Done("exported %d %s of %d %s to %s", count, ui.Plural(count, "version", "versions"),
		len(out.Skills), ui.Plural(len(out.Skills), "skill", "skills"), strings.TrimSuffix(e.Rel(c.Dir), "/")+"/index.json")
	return nil
}

// toOCI mirrors every version of reg into the OCI registry c.Dir, then
// lists them all in its index with one optimistic update.
func (c *registryExportCmd) toOCI(e *env, cfg *config.Config, reg registry.Registry, idx *registry.Index, signer ssh.Signer) error {
	if e.ws.Offline() {
		return askerr.Usage("exporting to an OCI registry needs the network; drop --offline")
	}
	w, err := registry.NewOCIWriter(registry.Spec{Name: "export", URL: c.Dir, Kind: registry.KindOCI}, e.ws.RegistryOptions(cfg))
	if err != nil {
		return err
	}
	if signer != nil {
		// Every index the update writes is signed; the signature is a
		// referrer of the index manifest, pushed before the tag moves.
		w.SignIndex = func(b []byte) ([]byte, error) {
			sig, err := signing.SignIndex(signer, b)
			if err != nil {
				return nil, &askerr.Error{Code: signing.CodeSignKeyInvalid, Message: "cannot sign the index with " + e.Rel(c.SignKey), Err: err}
			}
			return sig, nil
		}
	}
	type entry struct {
		s *registry.Skill
		v registry.Version
	}
	var entries []entry
	for _, s := range idx.Skills {
		for _, v := range s.Versions {
			pkg, err := reg.Package(e.ctx, s.Name, v.Version)
			if err != nil {
				return err
			}
			var buf bytes.Buffer
			if err := registry.Pack(pkg.FS, pkg.Files, &buf); err != nil {
				return &askerr.Error{Code: askerr.CodeIO, Message: fmt.Sprintf("cannot pack %s@%s", s.Name, v.Version), Err: err}
			}
			ocfg := registry.OCIPackageConfig{Name: s.Name, Version: v.Version, Description: s.Description, Integrity: v.Integrity}
			if pkg.Manifest != nil {
				ocfg.Kind = string(pkg.Manifest.Kind)
			}
			manifest, err := w.PushPackage(e.ctx, ocfg, buf.Bytes())
			if err != nil {
				return err
			}
			nv := *v
			nv.Path, nv.Tarball, nv.Manifest = "", "", manifest
			entries = append(entries, entry{s, nv})
		}
	}
	upd, err := w.UpdateIndex(e.ctx, func(out *registry.Index) error {
		for _, en := range entries {
			if err := registry.MergeVersion(out, en.s, &en.v); err != nil {
				return err
			}
		}
		for _, s := range idx.Skills {
			if o, ok := out.Skill(s.Name); ok && s.Latest != "" {
				o.Latest = s.Latest
			}
		}
		return nil
	}, func(out *registry.Index) bool {
		for _, en := range entries {
			if !registry.HasVersion(out, en.s.Name, en.v.Version, en.v.Manifest) {
				return false
			}
		}
		return true
	})
	if err != nil {
		return err
	}
	e.Done("exported %d %s of %d %s to %s (index %s)", len(entries), ui.Plural(len(entries), "version", "versions"),
		len(idx.Skills), ui.Plural(len(idx.Skills), "skill", "skills"), w.Loc.URL(), upd.Digest)
	if upd.Signature != "" {
		e.Done("signed the index (referrer %s@%s) with %s", w.Loc.URL(), upd.Signature, ssh.FingerprintSHA256(signer.PublicKey()))
	}
	return nil
}
