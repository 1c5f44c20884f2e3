package publish

import (
	"context"

	"github.com/agent-skills/agent-skills/format"

	"github.com/agent-skills/agent-skills/registry"
	"github.com/agent-skills/agent-skills/resolve"
)

// Target is the registry a package is published to: the port of DESIGN §9.
// FolderTarget (a registry folder) and GitTarget (a pull-request branch of a
// git registry) implement it; a hosted registry would be another
// implementation, not a redesign.
type Target interface {
	// Index returns the target's current index; an empty index when the
	// registry has none yet.
	Index(ctx context.Context) (*registry.Index, error)
	// Locate returns the registry-relative, slash-separated folder the
	// package at pkgDir will be published to, given the current index.
	Locate(idx *registry.Index, name, pkgDir string) (string, error)
	// Requirements returns the edges of the published version v of name,
	// read from its verified payload, so that Prepare can resolve the
	// whole dependency graph against the target.
	Requirements(ctx context.Context, name string, v *registry.Version) (resolve.Requirements, error)
	// Published hands use the verified payload of the published version v
	// of name (valid only during the call): publish compares the package
	// with the latest version for its bump report.
	Published(ctx context.Context, name string, v *registry.Version, use func(*format.Package) error) error
	// Write publishes the prepared package at pkgDir into the registry.
	Write(ctx context.Context, plan *Plan, pkgDir string) (*WriteResult, error)
}

// WriteResult says what Write changed.
type WriteResult struct {
	// Path is the registry-relative folder the package now lives in.
	Path string `json:"path"`
	// Copied reports whether the package files were copied there; false
	// when the package already lived at Path (the bundled collection).
	Copied bool `json:"copied"`
	// Index is the path of the patched index file.
	Index string `json:"index"`
	// Signature is the path of the index's detached signature, written
	// when the plan was signed.
	Signature string `json:"signature,omitempty"`
	// Archived lists the older versions whose folder was replaced and
	// which were packed into archive/ tarballs, as "name@version".
	Archived []string `json:"archived,omitempty"`
	// Dropped lists the older versions whose bytes were already gone and
	// whose entries were removed, as "name@version".
	Dropped []string `json:"dropped,omitempty"`
	// Warnings are notices for the user, such as a dropped version.
	Warnings []string `json:"warnings,omitempty"`
	// Branch is the git branch the change was committed on (GitTarget).
	Branch string `json:"branch,omitempty"`
	// Commit is the SHA of that commit (GitTarget).
	Commit string `json:"commit,omitempty"`
	// Pushed reports whether the branch was pushed to the remote.
	Pushed bool `json:"pushed,omitempty"`
	// Next says what the user does next, such as opening a pull request.
	Next string `json:"next,omitempty"`
}
