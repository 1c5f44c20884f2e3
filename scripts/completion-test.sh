#!/usr/bin/env bash
# completion-test: prove that the scripts `agent-skills completion bash|zsh|fish`
# print complete agent-skills in the real shells, in a temporary HOME that has
# two skills installed (java-basics disabled):
#
#   1. bash, without a terminal: source the script, take the command that
#      `complete -p agent-skills` registered and run it as bash's programmable
#      completion runs a -C command — as a command string with the command,
#      the word and the word before as arguments, COMP_LINE and COMP_POINT
#      exported (compgen -C cannot: it sets neither outside a completion);
#   2. on a real terminal under tmux (when tmux is installed), for bash and,
#      when installed, zsh and fish: type "agent-skills ins", press TAB, and
#      read the screen (capture-pane); then "agent-skills uninstall " TAB TAB
#      and "agent-skills enable " TAB; "--agent clau" and "--registry=off" TAB.
#
# BIN names an agent-skills binary to test (default: one built from this tree).
# Prints every screen it checks; exits 1 on the first failure. Not run by CI.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
sock=$work/tmux.sock
cleanup() {
  tmux -S "$sock" kill-server 2>/dev/null || true
  sleep 0.2 # the shells' last writes to HOME
  rm -rf "$work" 2>/dev/null || { sleep 1; rm -rf "$work"; }
}
trap cleanup EXIT
mkdir -p "$work/bin"
if [ -n "${BIN:-}" ]; then
  cp "$BIN" "$work/bin/agent-skills"
else
  (cd "$here/cli" && CGO_ENABLED=0 go build -o "$work/bin/agent-skills" ./cmd/agent-skills)
fi
export HOME=$work/home AGENT_SKILLS_HOME=$work/home/.agent-skills AGENT_SKILLS_NO_UPDATE_NOTIFIER=1
export PATH=$work/bin:/usr/local/bin:/usr/bin:/bin
unset CODEX_HOME CLAUDE_CONFIG_DIR COMP_LINE COMP_POINT
mkdir -p "$HOME" "$work/src"
cd "$work"
for name in go-review java-basics; do
  mkdir -p "src/$name"
  printf -- '---\nname: %s\ndescription: Review code. Use on every pull request.\n---\nBody.\n' "$name" >"src/$name/SKILL.md"
done
agent-skills -q install ./src/go-review ./src/java-basics --global --agent claude
agent-skills -q disable java-basics --global
for shell in bash zsh fish; do agent-skills completion "$shell" >"$work/completion.$shell"; done

fail() { echo "FAIL: $*" >&2; exit 1; }

echo "=== bash, the registered completion command"
# shellcheck disable=SC2016
bash --norc --noprofile -c '
  source "$1"
  spec=$(complete -p agent-skills)
  echo "registered: $spec"
  cmd=$(eval "set -- $spec"; while [ $# -gt 0 ]; do [ "$1" = -C ] && { echo "$2"; break; }; shift; done)
  ask() { # the line typed; prints what bash would offer for its last word
    local line=$1 word=${1##* } prev
    prev=${line% *}; prev=${prev##* }
    (export COMP_LINE=$line COMP_POINT=${#line}; eval "$cmd agent-skills \"\$word\" \"\$prev\"")
  }
  for line in "agent-skills ins" "agent-skills uninstall " "agent-skills uninstall go" "agent-skills enable " "agent-skills install --agent clau"; do
    printf "%-36s -> %s\n" "$line" "$(ask "$line" | tr "\n" " ")"
  done
  [ "$(ask "agent-skills ins")" = install ] || exit 1
  [ "$(ask "agent-skills uninstall " | tr "\n" " ")" = "go-review java-basics " ] || exit 1
  [ "$(ask "agent-skills enable ")" = java-basics ] || exit 1
' _ "$work/completion.bash" || fail "bash compgen"

if ! command -v tmux >/dev/null; then
  echo "tmux not installed: no terminal test"
  exit 0
fi

# screen waits until the pane shows text matching the extended regexp $1
# (up to 5 s), prints the pane, and fails when it never does.
screen() {
  local i
  for i in $(seq 50); do
    if tmux -S "$sock" capture-pane -p -N -t "$sess" | grep -Eq -- "$1"; then
      tmux -S "$sock" capture-pane -p -N -t "$sess" | sed '/^$/d'
      return 0
    fi
    sleep 0.1
  done
  tmux -S "$sock" capture-pane -p -N -t "$sess" | sed '/^$/d'
  fail "$2: the screen never showed /$1/"
}
keys() { tmux -S "$sock" send-keys -t "$sess" "$@"; }

terminal() { # shell, the command that starts it, what loads the script
  local shell=$1 start=$2 load=$3
  echo "=== $shell on a terminal (tmux)"
  sess=$shell
  tmux -S "$sock" -f /dev/null new-session -d -s "$sess" -x 120 -y 30 "$start"
  sleep 0.5
  keys "$load" Enter
  keys C-l
  sleep 0.3
  keys "agent-skills ins" Tab
  screen 'agent-skills install $' "$shell: ins<TAB>"
  keys C-u C-l
  sleep 0.3
  keys "agent-skills uninstall " Tab Tab
  screen 'go-review' "$shell: uninstall <TAB>" >/dev/null
  screen 'java-basics' "$shell: uninstall <TAB>"
  keys C-u C-l
  sleep 0.3
  keys "agent-skills enable " Tab
  screen 'agent-skills enable java-basics $' "$shell: enable <TAB>"
  keys C-u C-l
  sleep 0.3
  keys "agent-skills install --agent clau" Tab
  screen 'claude( |$)' "$shell: --agent clau<TAB>"
  keys C-u C-l
  sleep 0.3
  keys "agent-skills search --registry=off" Tab
  screen 'search --registry=official $' "$shell: --registry=off<TAB>"
  tmux -S "$sock" kill-session -t "$sess"
}

terminal bash "env PS1='$ ' bash --norc --noprofile -i" "source $work/completion.bash"
if command -v zsh >/dev/null; then
  terminal zsh "env PS1='%% ' zsh -f -i" "autoload -U compinit && compinit -u && source $work/completion.zsh"
fi
if command -v fish >/dev/null; then
  terminal fish "fish --no-config -i" "function fish_prompt; echo '> '; end; source $work/completion.fish"
fi
echo "ok: completion works in $(for s in bash zsh fish; do command -v "$s" >/dev/null && printf '%s ' "$s"; done)"
