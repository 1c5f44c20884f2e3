package cli

import (
	"fmt"
	"strings"

	"golang.org/x/crypto/ssh"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
	"github.com/agent-skills/agent-skills/cli/internal/publish"
	"github.com/agent-skills/agent-skills/cli/internal/signing"
	"github.com/agent-skills/agent-skills/cli/internal/ui"
	"github.com/agent-skills/agent-skills/registry"
)

// registryTrustCmd replaces (or clears) the trusted signers of a
// configured registry: the way to rotate a key, since registry add copies
// the allowed_signers file rather than following its path.
type registryTrustCmd struct {
	Name     string `arg:"" predictor:"registry" help:"The registry whose trusted signers change."`
	TrustKey string `type:"path" name:"trust-key" placeholder:"FILE" xor:"trust" help:"An allowed_signers file; its content replaces the registry's trusted signers."`
	Clear    bool   `xor:"trust" help:"Remove the registry's trusted signers: its index and packages are then used without signatures."`
}

func (c *registryTrustCmd) Help() string {
	return `The keys are copied into your configuration, so a later edit of the file changes
nothing until you run this command again. To rotate a key: edit allowed_signers
(add the new key, remove the old one), have the registry re-signed with the new
key, and run registry trust NAME --trust-key allowed_signers.

Examples:
  agent-skills registry trust team --trust-key ./allowed_signers
  agent-skills registry trust team --clear`
}

func (c *registryTrustCmd) Run(e *env) error {
	if c.TrustKey == "" && !c.Clear {
		return &askerr.Error{Code: askerr.CodeUsage, Message: "registry trust needs --trust-key FILE or --clear",
			Try: []string{"agent-skills registry trust " + c.Name + " --trust-key ./allowed_signers"}}
	}
	cfg, err := e.ws.LoadConfig()
	if err != nil {
		return err
	}
	i := -1
	var names []string
	for j, r := range cfg.Registries {
		names = append(names, r.Name)
		if r.Name == c.Name {
			i = j
		}
	}
	if i < 0 {
		return &askerr.Error{Code: askerr.CodeUsage, Message: fmt.Sprintf("no registry named %q in your configuration", c.Name),
			Detail: []string{"configured: " + strings.Join(names, ", ")},
			Try:    []string{"agent-skills registry list"}}
	}
	if cfg.Registries[i].Kind == registry.KindBundled {
		return askerr.Usage("the bundled registry is part of agent-skills itself; it takes no trusted signers")
	}
	text, t := "", (*registry.Trust)(nil)
	if !c.Clear {
		if text, t, err = signing.LoadTrust(c.TrustKey); err != nil {
			return err
		}
	}
	cfg.Registries[i].TrustedSigners = text
	if err := cfg.Save(e.ws.ConfigPath()); err != nil {
		return saveError(e, err)
	}
	if c.Clear {
		e.Warn("registry %s: trusted signers removed; its index and packages are no longer checked for signatures", c.Name)
		return nil
	}
	e.Done("registry %s trusts %s", c.Name, ui.Field(signing.Describe(t)))
	return nil
}

// registrySignCmd signs a registry folder again with one key: every
// version and the index.
type registrySignCmd struct {
	Dir     string `arg:"" type:"path" help:"The registry folder (its root, holding registry/skills.yaml)."`
	SignKey string `type:"path" name:"sign-key" placeholder:"KEY" required:"" help:"The OpenSSH private key to sign with (an encrypted one reads its passphrase from AGENT_SKILLS_SIGN_KEY_PASSPHRASE)."`
	JSON    bool   `name:"json" help:"Print what was signed as JSON."`
}

func (c *registrySignCmd) Help() string {
	return `Verifies every version of the registry folder against its integrity, then replaces
each version's package signatures with one by this key and signs the index
(registry/skills.yaml.sig). It is how a registry moves to a new key after a rotation;
publish --sign-key signs only what it publishes. On any failure nothing is written.
For a git registry, run it in a checkout and commit the result.

Example:
  agent-skills registry sign ./my-registry --sign-key ~/.ssh/skills-release`
}

func (c *registrySignCmd) Run(e *env) error {
	signer, err := signing.LoadSignKey(c.SignKey, e.ws.Getenv)
	if err != nil {
		return err
	}
	res, err := publish.FolderTarget{Root: c.Dir}.Resign(e.ctx, registry.Options{CacheDir: e.ws.CacheDir()},
		func(name, version, integrity string) (string, error) {
			return signing.SignPackage(signer, name, version, integrity)
		},
		func(b []byte) ([]byte, error) { return signing.SignIndex(signer, b) })
	if err != nil {
		return err
	}
	if c.JSON {
		return e.JSON(res)
	}
	e.Done("signed %d %s and the index (%s) with %s", len(res.Versions), ui.Plural(len(res.Versions), "version", "versions"),
		e.Rel(res.Signature), ssh.FingerprintSHA256(signer.PublicKey()))
	return nil
}
