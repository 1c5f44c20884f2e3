// Package releases reads the releases document: the list of the CLI's
// own releases that update checks and self-update consult. It is a small
// static JSON file published with every release (docs/release.md):
//
//	{"schemaVersion": 1, "name": "agent-skills",
//	 "releases": [{"version": "0.2.0", "date": "2026-12-01",
//	               "url": "https://github.com/…/releases/tag/v0.2.0",
//	               "notes": "one line"}]}
//
// The document comes from the network and is untrusted: it is read with a
// size bound, every version must be semver, and text fields are bounded;
// callers escape them before they reach a terminal.
package releases

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/Masterminds/semver/v3"

	"github.com/agent-skills/agent-skills/cli/internal/config"
	"github.com/agent-skills/agent-skills/registry"
)

// SchemaVersion is the document format this build reads.
const SchemaVersion = 1

// DefaultURL is where the project's releases are listed: the asset of
// the newest GitHub release, which GitHub redirects to.
const DefaultURL = "https://github.com/agent-skills/agent-skills/releases/latest/download/releases.json"

// URLEnv names the variable that points the lookups elsewhere (a mirror,
// or a loopback server in tests); it wins over config.json.
const URLEnv = "AGENT_SKILLS_RELEASES_URL"

// MaxBytes bounds the document read from the network.
const MaxBytes = 1 << 20

// maxText bounds each text field of a release.
const maxText = 2048

// Document is the releases document.
type Document struct {
	SchemaVersion int       `json:"schemaVersion"`
	Name          string    `json:"name"`
	Releases      []Release `json:"releases"`
}

// Release is one published version of the CLI.
type Release struct {
	// Version is a semantic version without a leading "v".
	Version string `json:"version"`
	// Date is the release day, YYYY-MM-DD, when given.
	Date string `json:"date,omitempty"`
	// URL is the release's page.
	URL string `json:"url,omitempty"`
	// Notes is a short summary of the release.
	Notes string `json:"notes,omitempty"`
	// Yanked marks a release that must not be offered any more.
	Yanked bool `json:"yanked,omitempty"`
}

// Parse decodes and checks a releases document: a known schemaVersion,
// every version semver (a leading "v" is dropped), no version twice, text
// fields within bounds, release URLs absolute https.
func Parse(data []byte) (*Document, error) {
	var d Document
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("the releases document is not valid JSON: %w", err)
	}
	if dec.More() {
		return nil, errors.New("the releases document has data after its JSON value")
	}
	if d.SchemaVersion != SchemaVersion {
		return nil, fmt.Errorf("the releases document has schemaVersion %d; this agent-skills reads %d", d.SchemaVersion, SchemaVersion)
	}
	seen := make(map[string]bool, len(d.Releases))
	for i := range d.Releases {
		r := &d.Releases[i]
		v, err := semver.StrictNewVersion(strings.TrimPrefix(r.Version, "v"))
		if err != nil {
			return nil, fmt.Errorf("releases[%d]: version %q is not a semantic version", i, r.Version)
		}
		r.Version = v.String()
		if seen[r.Version] {
			return nil, fmt.Errorf("releases[%d]: version %s is listed twice", i, r.Version)
		}
		seen[r.Version] = true
		for _, f := range []struct{ name, v string }{{"date", r.Date}, {"url", r.URL}, {"notes", r.Notes}} {
			if len(f.v) > maxText {
				return nil, fmt.Errorf("releases[%d]: %s is longer than %d bytes", i, f.name, maxText)
			}
		}
		if r.URL != "" {
			if u, err := url.Parse(r.URL); err != nil || u.Scheme != "https" || u.Host == "" {
				return nil, fmt.Errorf("releases[%d]: url %q is not an https:// URL", i, r.URL)
			}
		}
	}
	return &d, nil
}

// Fetch gets and parses the document at rawURL through c, whose policy
// refuses plain http:// except to loopback hosts. The caller bounds the
// time with ctx.
func Fetch(ctx context.Context, c *registry.HTTPClient, rawURL string) (*Document, error) {
	if why := config.CheckReleasesURL(rawURL); why != "" {
		return nil, fmt.Errorf("cannot look releases up at %s: %s", rawURL, why)
	}
	u, _ := url.Parse(rawURL)
	resp, err := c.Get(ctx, u, http.Header{"Accept": {"application/json"}})
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s answered %s", u.Redacted(), resp.Status)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxBytes {
		return nil, fmt.Errorf("the releases document at %s is larger than %d bytes", u.Redacted(), MaxBytes)
	}
	return Parse(data)
}

// Newest returns the newest release that is newer than current and may be
// offered: not yanked, and not a prerelease unless current is one itself
// (someone testing a prerelease is told of the next one). A current that
// is not semver — a build without a version — is older than every release.
func (d *Document) Newest(current string) (Release, bool) {
	cur, _ := semver.StrictNewVersion(strings.TrimPrefix(current, "v"))
	var best *semver.Version
	var found Release
	for _, r := range d.Releases {
		v, err := semver.StrictNewVersion(r.Version)
		if err != nil || r.Yanked {
			continue
		}
		if v.Prerelease() != "" && (cur == nil || cur.Prerelease() == "") {
			continue
		}
		if cur != nil && !v.GreaterThan(cur) {
			continue
		}
		if best == nil || v.GreaterThan(best) {
			best, found = v, r
		}
	}
	return found, best != nil
}

// URL returns where the releases are looked up: the environment's
// AGENT_SKILLS_RELEASES_URL, else config.json's updates.releasesURL, else
// DefaultURL. cfg may be nil.
func URL(getenv func(string) string, cfg *config.Config) string {
	if v := strings.TrimSpace(getenv(URLEnv)); v != "" {
		return v
	}
	if cfg != nil && cfg.Updates != nil && cfg.Updates.ReleasesURL != "" {
		return cfg.Updates.ReleasesURL
	}
	return DefaultURL
}
