package source

import (
	"strings"
)

// networkURL returns the URL reading r contacts and true when that needs
// the network: a git source whose clone URL is not file://, or an archive
// fetched over http(s). Folders, local archives and file:// repositories
// are read without it.
func networkURL(r Ref, opts *Options) (string, bool) {
	switch r.Kind {
	case KindLocal:
		return "", false
	case KindMCP:
		// A command on this machine is run whatever it reaches itself; an
		// endpoint is the network.
		return mcpShown(r), r.URL != ""
	case KindArchive:
		low := strings.ToLower(r.URL)
		return r.URL, strings.HasPrefix(low, "https://") || strings.HasPrefix(low, "http://")
	}
	u := cloneURL(r, opts)
	return u, !strings.HasPrefix(strings.ToLower(u), "file://")
}

// offlineRefusal returns ASK_SOURCE_UNAVAILABLE when opts.Offline forbids
// the network and reading r needs it, and nil otherwise. Nothing is
// contacted. name is the locked skill Restore looked for in the cache of
// verified packages, "" for a fresh fetch.
func offlineRefusal(r Ref, name string, opts *Options) error {
	where, net := networkURL(r, opts)
	if !opts.Offline || !net {
		return nil
	}
	shown := scrub(where, secretsOf(opts.getenv))
	what := "reading " + scrub(r.Input, nil)
	if name != "" {
		what = "restoring " + name + " from " + shown
	} else if shown != scrub(r.Input, nil) {
		what += " (" + shown + ")"
	}
	e := &Error{Code: CodeSourceUnavailable,
		Message: "offline: " + what + " needs the network",
		Detail:  []string{"--offline (or AGENT_SKILLS_OFFLINE=1) forbids every network call; nothing was fetched or installed."},
		Try:     []string{"run the command again without --offline (and with AGENT_SKILLS_OFFLINE unset)"}}
	switch {
	case name != "":
		e.Detail = append(e.Detail, "No verified copy of "+name+" as skills.lock pins it is cached: none was kept when it was installed, or the copy no longer matches.")
	case r.Kind == KindArchive:
		e.Detail = append(e.Detail, "A skill is read from a source afresh each time; only the exact versions skills.lock pins are kept for offline use.")
		e.Try = append(e.Try, "or download the archive, then: agent-skills install ./<file>")
	default:
		e.Detail = append(e.Detail, "Which commit a branch or tag names cannot be known offline; only the exact versions skills.lock pins are kept for offline use.")
		e.Try = append(e.Try, "or install from a clone on disk: git clone "+shown+" <folder>, then agent-skills install ./<folder>")
	}
	return e
}
