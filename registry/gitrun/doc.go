// Package gitrun is the one way agent-skills runs the system git on a
// repository it does not control: the checkouts of git sources, the clones
// of git registries and the work tree of a git publish target all go
// through a Runner, so they share one set of protections.
//
// # What a repository or a server cannot do
//
// A Runner starts every command with the same -c options (ConfigArgs),
// which outrank the system, global and repository configuration: hooks
// point at /dev/null, the file-system monitor is off, symbolic links are
// checked out as plain files, submodules are never fetched or pushed,
// NTFS and HFS aliases of .git are refused, line endings are never
// converted, automatic gc is off, and only the protocols a skill can come
// from (https, ssh, and git, http or file when the remote itself is one)
// may be used — never ext:: or fd::.
//
// Init creates repositories without templates and writes
// $GIT_DIR/info/attributes (Protect), which outranks every .gitattributes
// in the tree: no filter, smudge, clean or process driver, no text or eol
// conversion, no ident expansion, no working-tree-encoding, no diff or
// merge driver. A repository's .gitattributes therefore cannot make git run
// a driver the user configured (git-lfs, for instance), and the checked-out
// bytes are exactly the committed ones, so digests match on every machine.
//
// The environment is scrubbed (Environ): nothing inherited can point git
// at another repository, inject configuration or trace traffic; prompts
// are off and ssh runs in batch mode. Configuration that carries a secret
// (an HTTPS token header) is passed through GIT_CONFIG_COUNT, never on the
// command line, and every error is scrubbed of URL user information and
// of the secrets the caller names.
//
// # Untrusted names
//
// Refs and URLs that end up on git's command line are checked first: a
// ref given by a user, recorded in a lock file or advertised by a server
// must pass CheckRef (git check-ref-format's rules, and no leading '-' or
// '+', no shell metacharacters, no control or invisible characters); a
// remote must pass CheckURL (a known scheme or an scp-like or absolute
// path, no leading '-', no transport::address form, no control
// characters). Callers also end option parsing before every ref, path and
// remote (--end-of-options, or -- after a revision), so that even a name
// that slipped through could never be read as an option such as
// --upload-pack.
//
// # Limits
//
// Each command has a timeout (DefaultTimeout unless the context has a
// deadline), its standard output is capped (DefaultMaxOutput) and its
// standard error kept to its first DefaultMaxStderr bytes; the working
// folder may be capped in size while a command runs (Options.MaxBytes).
//
// Errors are plain Go values (CommandError, RefError, URLError,
// ErrNotInstalled, ErrTooLarge, ErrOutputTooLarge); each caller turns them
// into its own ASK_* codes. Nothing here reads the process environment:
// the caller passes it in Options.Env.
package gitrun
