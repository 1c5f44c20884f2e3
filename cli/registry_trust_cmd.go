package cli

import (
	"fmt"
	"strings"

	"github.com/agent-skills/agent-skills/cli/internal/askerr"
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
