package complete

import (
	"fmt"
	"strings"
)

// Shells are the shells Script writes for.
var shells = []string{"bash", "fish", "zsh"}

// Shells returns the shells Script writes for, sorted.
func Shells() []string { return append([]string(nil), shells...) }

// Script returns the completion script for shell that completes the
// command name by running name itself with COMP_LINE (and COMP_POINT)
// set. Every script falls back to file names when agent-skills offers
// nothing (a path argument), and none prints what the binary writes to
// stderr.
func Script(shell, name string) (string, error) {
	var s string
	switch shell {
	case "bash":
		s = bashScript
	case "zsh":
		s = zshScript
	case "fish":
		s = fishScript
	default:
		return "", fmt.Errorf("no completion for shell %q (one of %s)", shell, strings.Join(shells, ", "))
	}
	fn := strings.NewReplacer("-", "_", ".", "_").Replace(name)
	return strings.NewReplacer("@NAME@", name, "@FN@", fn).Replace(s), nil
}

// bashScript uses bash's own protocol: `complete -C` runs the command
// with COMP_LINE and COMP_POINT in its environment and takes each line it
// prints as a candidate; -o default completes file names when it prints
// none.
const bashScript = `# bash completion for @NAME@
# Load it from ~/.bashrc:
#   source <(@NAME@ completion bash)
# or save it where bash-completion finds it:
#   @NAME@ completion bash > ~/.local/share/bash-completion/completions/@NAME@
complete -o default -C '@NAME@ 2>/dev/null' @NAME@
`

// zshScript is a native completion function: it hands the words up to
// the cursor to the binary as COMP_LINE, moves a "--flag=" prefix out of
// the word being matched, and completes file names when nothing comes
// back. Saved as _@NAME@ in $fpath it is autoloaded; sourced, it
// registers itself with compdef.
const zshScript = `#compdef @NAME@
# zsh completion for @NAME@
# Save it in a folder of $fpath, before compinit runs:
#   @NAME@ completion zsh > "${fpath[1]}/_@NAME@"
# or load it from ~/.zshrc, after compinit:
#   source <(@NAME@ completion zsh)

_@FN@() {
  local line="${(j: :)words[1,CURRENT-1]} ${PREFIX}"
  local -a candidates
  candidates=("${(@f)$(COMP_LINE="$line" COMP_POINT=${#line} @NAME@ 2>/dev/null)}")
  candidates=(${candidates:#})
  if [[ $PREFIX == -*=* ]]; then
    compset -P '*='
  fi
  if (( ${#candidates} )); then
    compadd -- "${candidates[@]}"
  else
    _files
  fi
}

if [[ $funcstack[1] == _@NAME@ ]]; then
  _@FN@ "$@"
else
  compdef _@FN@ @NAME@
fi
`

// fishScript passes the command line up to the cursor as COMP_LINE (with
// the space fish leaves off when a new word begins), puts a "--flag="
// prefix back on each candidate, since fish matches the whole token, and
// completes paths when nothing comes back.
const fishScript = `# fish completion for @NAME@
# Save it where fish finds it:
#   @NAME@ completion fish > ~/.config/fish/completions/@NAME@.fish
# or load it for this session:
#   @NAME@ completion fish | source

function __@FN@_complete
    set -l token (commandline -ct)
    set -lx COMP_LINE (commandline -cp)
    if test -z "$token"; and not string match -qr -- '\s$' "$COMP_LINE"
        set COMP_LINE "$COMP_LINE "
    end
    set -e COMP_POINT
    set -l prefix (string match -r -- '^-[^=]*=' "$token")
    set -l candidates (@NAME@ 2>/dev/null)
    if test (count $candidates) -eq 0
        __fish_complete_path "$token"
        return
    end
    for c in $candidates
        printf '%s%s\n' "$prefix" "$c"
    end
end

complete -c @NAME@ -f -a '(__@FN@_complete)'
`
