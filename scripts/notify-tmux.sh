#!/usr/bin/env bash
# notify-tmux: prove the update notifier's menus on a real terminal. The
# unit tests and the ptyrun testscripts feed the menus from a pipe or a
# pseudo terminal; this script types into a shell on a tmux pane, as a
# user does, and reads the screen back (capture-pane):
#
#   1. a CLI release: a releases.json served on loopback announces 9.9.9;
#      "agent-skills list" shows the menu, "d" dismisses it and the
#      listing follows; the next "list" shows no menu and makes no new
#      request (the lookup is kept for a day);
#   2. a skill release: java-basics installed at 1.2.0 from a local
#      folder registry that then publishes 2.1.0; "list" offers it, "i"
#      prints the details and asks again, "u" asks about the new major
#      version and then to apply the previewed update, "y" twice, and the
#      listing (and the next "list", which offers nothing) shows 2.1.0.
#
# Every screen it checks is printed between "----- screen" markers and
# written to $NOTIFY_TMUX_OUT (default: the temporary folder, removed at
# the end). Nothing leaves the machine: HOME and AGENT_SKILLS_HOME are
# private, the only server is on 127.0.0.1 and git may use only local
# files. BIN names an agent-skills binary to test (default: one built
# from this tree). Exits 1 on the first failed check. Needs tmux and
# python3; run by "make e2e-notify", not by CI.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)

fail() { echo "FAIL: $*" >&2; exit 1; }
for tool in tmux python3; do
  command -v "$tool" >/dev/null || fail "$tool is not installed"
done

work=$(mktemp -d)
out=${NOTIFY_TMUX_OUT:-$work/screens}
sock=$work/tmux.sock
server=
cleanup() {
  tmux -S "$sock" kill-server 2>/dev/null || true
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi
  sleep 0.2 # the shell's last writes to HOME
  rm -rf "$work" 2>/dev/null || { sleep 1; rm -rf "$work"; }
}
trap cleanup EXIT
mkdir -p "$work/bin" "$out"

if [ -n "${BIN:-}" ]; then
  cp "$BIN" "$work/bin/agent-skills"
else
  (cd "$here/cli" && CGO_ENABLED=0 go build -o "$work/bin/agent-skills" ./cmd/agent-skills)
fi

# The machine the commands see, outside the terminal (setup, with the
# notifier off) and on it (the same, with the notifier on).
home=$work/home
vars=(
  HOME="$home" AGENT_SKILLS_HOME="$home/.agent-skills"
  CLAUDE_CONFIG_DIR="$home/.claude" CODEX_HOME="$home/.codex"
  XDG_CONFIG_HOME="$home/.config" XDG_CACHE_HOME="$home/.cache"
  XDG_DATA_HOME="$home/.local/share" XDG_STATE_HOME="$home/.local/state"
  PATH="$work/bin:/usr/local/bin:/usr/bin:/bin"
  GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL="$home/.gitconfig" GIT_ALLOW_PROTOCOL=file GIT_TERMINAL_PROMPT=0
)
ask() { env -i "${vars[@]}" AGENT_SKILLS_NO_UPDATE_NOTIFIER=1 agent-skills "$@"; }
mkdir -p "$home" "$work/www" "$work/src" "$work/reg/registry"

# The releases document, served on loopback; every request is logged.
cat >"$work/www/releases.json" <<'EOF'
{"schemaVersion": 1, "name": "agent-skills", "releases": [
  {"version": "9.9.9", "date": "2026-12-01", "url": "https://github.com/agent-skills/agent-skills/releases/tag/v9.9.9", "notes": "a test release"}
]}
EOF
: >"$work/http.out" # before the server's own redirection: the port is read at once
: >"$work/http-requests.log"
python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$work/www" >"$work/http.out" 2>"$work/http-requests.log" &
server=$!
port=
for _ in $(seq 100); do
  port=$(sed -n 's/.* port \([0-9][0-9]*\).*/\1/p' "$work/http.out" | head -1)
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || fail "the releases server did not start: $(cat "$work/http.out" "$work/http-requests.log")"
vars+=(AGENT_SKILLS_RELEASES_URL="http://127.0.0.1:$port/releases.json")
requests() { grep -c 'GET /releases.json' "$work/http-requests.log" || true; }

# A skill installed from a folder, not a registry: the listing has a row
# before the registry skill exists, and no registry lookup is made (it
# would be kept for the cache TTL and hide 2.1.0 from step 2).
mkdir -p "$work/src/go-review"
printf -- '---\nname: go-review\ndescription: Review Go code. Use on every pull request.\n---\nBody.\n' >"$work/src/go-review/SKILL.md"
ask -q install "$work/src/go-review" --global --agent claude

# The terminal: a clean bash on a 120x30 pane, whose prompt shows the
# last exit code, with the notifier on.
sess=notify
tmux -S "$sock" -f /dev/null new-session -d -s "$sess" -x 120 -y 30 \
  "env -i $(printf '%q ' "${vars[@]}") TERM=screen PS1='[\$?] \$ ' bash --norc --noprofile -i"
keys() { tmux -S "$sock" send-keys -t "$sess" "$@"; }
# pane prints the pane since the last clear: scrollback and screen, wrapped
# lines joined, trailing blanks dropped.
pane() {
  tmux -S "$sock" capture-pane -p -J -S - -t "$sess" | sed 's/[[:space:]]*$//' |
    sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}
# wait_for waits (up to 20 s) until the pane matches the extended regexp $1.
wait_for() {
  local i
  for i in $(seq 200); do
    pane | grep -Eq -- "$1" && return 0
    sleep 0.1
  done
  pane
  fail "$2: the screen never showed /$1/"
}
# wait_count waits (up to 20 s) until $2 lines of the pane match $1.
wait_count() {
  local i
  for i in $(seq 200); do
    [ "$(pane | grep -Ec -- "$1")" -ge "$2" ] && return 0
    sleep 0.1
  done
  pane
  fail "$3: the screen never showed /$1/ $2 times"
}
# wait_prompt waits until the command typed has ended: the last line is a
# new prompt, after the line with the command.
wait_prompt() {
  local i
  for i in $(seq 200); do
    if [ "$(pane | grep -Ec '^\[[0-9]+\] \$')" -ge 2 ] && pane | tail -1 | grep -Eq '^\[[0-9]+\] \$$'; then
      return 0
    fi
    sleep 0.1
  done
  pane
  fail "$1: the command did not end"
}
# fresh clears the pane and its scrollback (where tmux keeps what a clear
# wiped), leaving one prompt.
fresh() {
  local i
  keys clear Enter
  for i in $(seq 200); do
    if [ "$(tmux -S "$sock" capture-pane -p -t "$sess" | grep -c .)" = 1 ]; then
      tmux -S "$sock" clear-history -t "$sess"
      pane | grep -Eq '^\[[0-9]+\] \$$' && [ "$(pane | grep -c .)" = 1 ] && return 0
    fi
    sleep 0.1
  done
  pane
  fail "clear: the pane still shows more than a prompt"
}
n=0
# shot prints the pane between markers and keeps it as $out/NN-name.txt.
shot() {
  n=$((n + 1))
  local file
  file=$out/$(printf '%02d' "$n")-$1.txt
  pane >"$file"
  echo "----- screen $n: $2 -----"
  cat "$file"
  echo "----- end of screen $n -----"
}
has() { pane | grep -Eq -- "$1" || fail "$2: no /$1/ on the screen"; }
hasnt() { ! pane | grep -Eq -- "$1" || fail "$2: /$1/ is on the screen"; }
# before: the first line matching $1 comes before the first matching $2.
before() {
  local a b
  a=$(pane | grep -En -- "$1" | head -1 | cut -d: -f1)
  b=$(pane | grep -En -- "$2" | head -1 | cut -d: -f1)
  [ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ] || fail "$3: /$1/ (line ${a:-none}) is not before /$2/ (line ${b:-none})"
}

wait_for '^\[0\] \$$' "the shell did not start"

echo "=== 1. the CLI release"
fresh
keys "agent-skills list" Enter
wait_for 'Choice \(Enter to continue\):' "CLI menu"
shot cli-menu "agent-skills list: the CLI release menu"
has '^agent-skills 9\.9\.9 is available \(this is .*\), released 2026-12-01$' "CLI menu"
has '^  a test release$' "CLI menu"
has '^  \[u\]pdate  \[r\]emind me tomorrow  \[d\]ismiss 9\.9\.9$' "CLI menu"
hasnt '^NAME ' "CLI menu (the listing waits for the answer)"
keys d Enter
wait_prompt "CLI dismissal"
shot cli-dismissed "d Enter: dismissed, then the listing"
has '^agent-skills 9\.9\.9 dismissed; you will be told of the next release$' "CLI dismissal"
before 'dismissed; you will be told' '^NAME +VERSION' "CLI dismissal"
before '^NAME +VERSION' '^go-review +' "CLI dismissal"
pane | tail -1 | grep -q '^\[0\] \$$' || fail "CLI dismissal: list did not exit 0"
[ "$(requests)" = 1 ] || fail "CLI dismissal: $(requests) requests for releases.json, want 1"

fresh
keys "agent-skills list" Enter
wait_prompt "CLI again"
shot cli-again "agent-skills list again: no menu"
hasnt 'is available|Choice' "CLI again"
has '^go-review +' "CLI again"
pane | tail -1 | grep -q '^\[0\] \$$' || fail "CLI again: list did not exit 0"
[ "$(requests)" = 1 ] || fail "CLI again: $(requests) requests for releases.json, want 1 (the lookup is kept)"

echo "=== 2. a skill release"
printf 'schemaVersion: 1\nname: team\nskills: []\n' >"$work/reg/registry/skills.yaml"
cp -r "$here/skills/java-basics" "$work/src/java-basics"
chmod -R u+w "$work/src/java-basics"
ask -q publish "$work/src/java-basics" --registry "$work/reg" --write >/dev/null
ask -q registry add team "$work/reg"
ask -q install team:java-basics --global --agent claude
sed -i 's/^version: 1\.2\.0$/version: 2.1.0/' "$work/src/java-basics/skill.yaml" "$work/src/java-basics/SKILL.md"
ask -q publish "$work/src/java-basics" --registry "$work/reg" --write >/dev/null
ask list | grep -Eq '^java-basics +1\.2\.0 ' || fail "setup: java-basics 1.2.0 is not installed"

fresh
keys "agent-skills list" Enter
wait_for 'Choice \(Enter to continue\):' "skill menu"
shot skill-menu "agent-skills list: the skill release menu"
has '^java-basics 2\.1\.0 is available \(installed 1\.2\.0; global for claude-code; registry team\)$' "skill menu"
has '^  2\.1\.0 is outside \^1\.2\.0: a new major version' "skill menu"
has '^  \[u\]pdate  \[i\] details  \[r\]emind me tomorrow  \[d\]ismiss 2\.1\.0$' "skill menu"
hasnt 'agent-skills 9\.9\.9' "skill menu (the CLI release stays dismissed)"

keys i Enter
wait_for 'newer releases: 2\.1\.0' "skill details"
wait_count 'Choice \(Enter to continue\):' 2 "skill details"
shot skill-details "i Enter: the details, and the menu again"
has '^  java-basics from registry team \(.*/reg\)$' "skill details"
has '^  installed 1\.2\.0: global for claude-code$' "skill details"
has '^  the update previews every change and asks before it writes' "skill details"
[ "$(pane | grep -c '\[u\]pdate  \[i\] details')" = 2 ] || fail "skill details: the menu is not asked again"

keys u Enter
wait_for 'Update to it anyway\? \[y/N\]$' "skill update, major"
shot skill-major "u Enter: the new major version asks first"
has '^java-basics 2\.1\.0 is outside \^1\.2\.0\. Update to it anyway\? \[y/N\]$' "skill update, major"

keys y Enter
wait_for '^Apply this update\? \[y/N\]$' "skill update, preview"
shot skill-preview "y Enter: the preview, and the confirmation"
before 'Update to it anyway' '^Apply this update' "skill update, preview"
has '^would upgrade java-basics 1\.2\.0 → 2\.1\.0 → .*/\.claude/skills/java-basics \(claude-code\)$' "skill update, preview"
grep -q '^version: 1\.2\.0$' "$home/.claude/skills/java-basics/skill.yaml" || fail "skill update, preview: the preview wrote the skill"
hasnt '^NAME +VERSION' "skill update, preview (the listing waits)"

keys y Enter
wait_prompt "skill update"
shot skill-updated "y Enter: updated, then the listing"
has '^upgraded java-basics 1\.2\.0 → 2\.1\.0 → .*/\.claude/skills/java-basics \(claude-code\)$' "skill update"
before '^upgraded java-basics' '^NAME +VERSION' "skill update"
grep -q '^version: 2\.1\.0$' "$home/.claude/skills/java-basics/skill.yaml" || fail "skill update: the installed skill.yaml is not 2.1.0"
pane | sed -n '/^NAME  *VERSION/,$p' | grep -Eq '^java-basics +2\.1\.0 +global' ||
  fail "skill update: the listing does not show java-basics 2.1.0"
pane | tail -1 | grep -q '^\[0\] \$$' || fail "skill update: list did not exit 0"

fresh
keys "agent-skills list" Enter
wait_prompt "skill again"
shot skill-again "agent-skills list again: 2.1.0, no menu"
hasnt 'is available|Choice' "skill again"
has '^java-basics +2\.1\.0 +global' "skill again"
ask list | grep -Eq '^java-basics +2\.1\.0 ' || fail "after: java-basics 2.1.0 is not installed"
[ "$(requests)" = 1 ] || fail "after: $(requests) requests for releases.json, want 1"

echo "ok: the CLI and skill release menus work on a tmux terminal (screens in ${NOTIFY_TMUX_OUT:-a removed temporary folder})"
