package codexapp

import (
	"fmt"

	"github.com/agent-skills/agent-skills/cli/internal/tomledit"
)

// Find returns the hooks of dirs that run command exactly, each key once,
// in the order Codex listed them.
func Find(dirs []Dir, command string) []Hook {
	var out []Hook
	seen := map[string]bool{}
	for _, d := range dirs {
		for _, h := range d.Hooks {
			if h.Command == command && !seen[h.Key] {
				seen[h.Key] = true
				out = append(out, h)
			}
		}
	}
	return out
}

// RecordTrust returns config (the bytes of the user's config.toml, empty
// when there is none) with [hooks.state."<key>"] trusted_hash =
// "<currentHash>" set for each hook, every other byte kept (see
// cli/internal/tomledit). A table already there for a key is replaced, so
// trusting a changed hook again updates its hash. An error is a
// *tomledit.ParseError for a config.toml that does not parse, or a
// *tomledit.EditError for one whose hooks.state is written in a form that
// cannot be edited by tables (dotted keys, inline tables).
func RecordTrust(config []byte, hooks ...Hook) ([]byte, error) {
	out := config
	for _, h := range hooks {
		if err := checkHook(h); err != nil {
			return nil, err
		}
		doc, err := tomledit.Parse(out)
		if err != nil {
			return nil, err
		}
		if out, err = doc.Set(TrustPath(h.Key), tomledit.Body{{Key: "trusted_hash", Value: h.CurrentHash}}); err != nil {
			return nil, fmt.Errorf("recording the trust of hook %q: %w", h.Key, err)
		}
	}
	return out, nil
}
