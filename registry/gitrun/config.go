package gitrun

import (
	"os"
	"path/filepath"
	"strings"
)

// Attributes is what Protect writes to $GIT_DIR/info/attributes. That file
// outranks every .gitattributes of the tree (and core.attributesFile), so
// for every path: no filter driver (clean, smudge or process — git-lfs
// included), no text or eol conversion (the bytes are the committed
// ones), no $Id$ expansion, no re-encoding, no diff or merge driver.
const Attributes = "* -filter -text -eol -ident -working-tree-encoding -diff -merge\n"

// ConfigArgs returns the -c options every command starts with. Options on
// the command line outrank the system, global and repository
// configuration, so neither a fetched repository nor a setting meant for
// the user's own work can change them. proto is the protocol CheckURL
// returned for the remote ("" when there is none): https and ssh are
// always allowed (a user's url.insteadOf may turn one into the other);
// git, http and file only for a remote that is one, and never otherwise,
// whatever the user's configuration allows; ext and fd never; any other
// protocol only if the user allowed it by name.
func ConfigArgs(proto string) []string {
	args := []string{
		// Nothing in a repository runs: no hooks (the directory does not
		// exist), no file-system monitor (it names a command).
		"-c", "core.hooksPath=/dev/null",
		"-c", "core.fsmonitor=false",
		// Symbolic links become plain files holding the target, so a
		// checkout never points outside its folder.
		"-c", "core.symlinks=false",
		// Paths git would write as an alias of .git on NTFS or HFS+ are
		// refused on every platform.
		"-c", "core.protectNTFS=true",
		"-c", "core.protectHFS=true",
		// Byte-exact checkouts whatever the user's line-ending settings;
		// info/attributes (Protect) turns conversion off per path too.
		"-c", "core.autocrlf=false",
		"-c", "core.eol=lf",
		// Submodules (.gitmodules) are never fetched, checked out or
		// pushed: their URLs and update commands are the repository's.
		"-c", "submodule.recurse=false",
		"-c", "fetch.recurseSubmodules=false",
		"-c", "push.recurseSubmodules=no",
		// No background gc or maintenance left running in the cache.
		"-c", "gc.auto=0",
		"-c", "maintenance.auto=false",
		// Only the remote's own upload-pack and receive-pack.
		"-c", "remote.origin.uploadpack=git-upload-pack",
		"-c", "remote.origin.receivepack=git-receive-pack",
		"-c", "advice.detachedHead=false",
		"-c", "init.defaultBranch=main",
		// No templates: no sample hooks, no info files but ours.
		"-c", "init.templateDir=",
		// ext:: runs a command and fd:: reads a descriptor.
		"-c", "protocol.allow=never",
		"-c", "protocol.ext.allow=never",
		"-c", "protocol.fd.allow=never",
		"-c", "protocol.https.allow=always",
		"-c", "protocol.ssh.allow=always",
	}
	for _, p := range []string{"git", "http", "file"} {
		policy := "never"
		if p == proto {
			policy = "always"
		}
		args = append(args, "-c", "protocol."+p+".allow="+policy)
	}
	return args
}

// Protect writes Attributes to the info/attributes file of the
// repository whose git directory is gitDir, creating info/ if needed. Init
// calls it; a caller that checks out into a repository made earlier (a
// cached clone) calls it again before the checkout, so a clone made by an
// older agent-skills is protected too.
func Protect(gitDir string) error {
	info := filepath.Join(gitDir, "info")
	if err := os.MkdirAll(info, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(info, "attributes"), []byte(Attributes), 0o644)
}

// dropped reports whether Environ removes the variable k: each one could
// point git at another repository, object store, template or attribute
// source, inject configuration, change how paths are read, or trace
// traffic (which could print credentials).
func dropped(k string) bool {
	switch k {
	case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
		"GIT_COMMON_DIR", "GIT_NAMESPACE", "GIT_SHALLOW_FILE", "GIT_REPLACE_REF_BASE", "GIT_GRAFT_FILE",
		"GIT_QUARANTINE_PATH", "GIT_PREFIX", "GIT_TEMPLATE_DIR", "GIT_ATTR_SOURCE",
		"GIT_CONFIG", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT",
		"GIT_TERMINAL_PROMPT", "GIT_CURL_VERBOSE", "GIT_EXTERNAL_DIFF", "GIT_PAGER", "GIT_EDITOR",
		"GIT_LITERAL_PATHSPECS", "GIT_GLOB_PATHSPECS", "GIT_NOGLOB_PATHSPECS", "GIT_ICASE_PATHSPECS":
		return true
	}
	return strings.HasPrefix(k, "GIT_CONFIG_KEY_") || strings.HasPrefix(k, "GIT_CONFIG_VALUE_") ||
		strings.HasPrefix(k, "GIT_TRACE")
}

// Environ returns env with the variables dropped that could redirect or
// reconfigure git (see dropped), prompts disabled (GIT_TERMINAL_PROMPT=0)
// and, unless the user configured an ssh command, ssh in batch mode, so a
// remote that wants a password fails at once instead of waiting for input.
// The user's own configuration files stay in force (GIT_CONFIG_GLOBAL,
// GIT_CONFIG_NOSYSTEM, HOME): credential helpers and url.insteadOf rules
// live there, and ConfigArgs outranks them where it matters.
func Environ(env []string) []string {
	out := make([]string, 0, len(env)+2)
	hasSSH := false
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if dropped(k) {
			continue
		}
		if k == "GIT_SSH_COMMAND" || k == "GIT_SSH" {
			hasSSH = true
		}
		out = append(out, kv)
	}
	out = append(out, "GIT_TERMINAL_PROMPT=0")
	if !hasSSH {
		out = append(out, "GIT_SSH_COMMAND=ssh -o BatchMode=yes")
	}
	return out
}
