#!/usr/bin/env bash
# bench-coldstart: issue 18's cold start measurement, base vs work tree,
# side by side. Builds agent-skills from BASE_REF (default 47a1101, the last
# commit before the version, notifier and completion work) and from the work
# tree, the same way (CGO_ENABLED=0, -trimpath), then runs each command of
# the series as a whole process, alternating base and new within each pair:
#
#   --version                   exits before any command is parsed further
#   list (notifier opted out)   AGENT_SKILLS_NO_UPDATE_NOTIFIER=1
#   list (piped)                the notifier on, but stdout is not a terminal
#
# Every run gets its own AGENT_SKILLS_HOME, made beforehand and kept until
# the series ends (deleting folders between runs slows file creation on ext4
# without a journal). Prints the medians in ms, the per-pair new/base ratios'
# median, and the binaries' sizes. Not run by CI.
#
#   ROUNDS=101 BASE_REF=47a1101 scripts/bench-coldstart.sh
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
rounds=${ROUNDS:-101}
base_ref=${BASE_REF:-47a1101}
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-coldstart.XXXXXX")
trap 'rm -rf "$work"' EXIT

git -C "$here" worktree add -q --detach "$work/base-src" "$base_ref"
(cd "$work/base-src/cli" && GOWORK=off CGO_ENABLED=0 go build -trimpath -o "$work/base" ./cmd/agent-skills)
git -C "$here" worktree remove --force "$work/base-src"
(cd "$here/cli" && GOWORK=off CGO_ENABLED=0 go build -trimpath -o "$work/new" ./cmd/agent-skills)

export HOME=$work/home XDG_CONFIG_HOME=$work/home/.config XDG_CACHE_HOME=$work/home/.cache
export NO_COLOR=1 GIT_ALLOW_PROTOCOL=file
# The releases document at a closed port: a lookup the notifier made by
# mistake would show up as time, not as a request to the internet.
export AGENT_SKILLS_RELEASES_URL=http://127.0.0.1:9/releases.json
unset CI AGENT_SKILLS_OFFLINE
mkdir -p "$HOME"
for i in $(seq "$rounds"); do
  for b in base new; do for c in version list piped; do mkdir -p "$work/homes/$b-$c-$i"; done; done
done

# run KIND BIN HOME: one process; prints its wall time in microseconds.
run() {
  local t0 t1
  t0=$(date +%s%N)
  case $1 in
  version) AGENT_SKILLS_HOME=$3 AGENT_SKILLS_NO_UPDATE_NOTIFIER=1 "$2" --version >/dev/null ;;
  list) AGENT_SKILLS_HOME=$3 AGENT_SKILLS_NO_UPDATE_NOTIFIER=1 "$2" list >/dev/null 2>&1 ;;
  piped) AGENT_SKILLS_HOME=$3 AGENT_SKILLS_NO_UPDATE_NOTIFIER= "$2" list </dev/null 2>/dev/null | cat >/dev/null ;;
  esac
  t1=$(date +%s%N)
  echo $(((t1 - t0) / 1000))
}

: >"$work/results"
for i in $(seq "$rounds"); do
  for c in version list piped; do
    # Alternate which binary runs first, so neither always follows the other.
    if ((i % 2)); then order="base new"; else order="new base"; fi
    for b in $order; do echo "$c $b $i $(run "$c" "$work/$b" "$work/homes/$b-$c-$i")" >>"$work/results"; done
  done
done

echo "cold start, $rounds pairs per command (ms; ratio = new/base per pair)"
echo "base $base_ref: $(stat -c %s "$work/base") bytes; new $(git -C "$here" rev-parse --short HEAD)+tree: $(stat -c %s "$work/new") bytes"
awk '
  { t[$1, $2, $3] = $4; n[$1] = $3 > n[$1] ? $3 : n[$1] }
  function median(v, m,   i, j, x) {
    for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] < v[i]) { x = v[i]; v[i] = v[j]; v[j] = x }
    return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
  }
  END {
    split("version list piped", cs, " ")
    printf "  %-8s %9s %9s %12s\n", "command", "base ms", "new ms", "new/base"
    for (k = 1; k <= 3; k++) {
      c = cs[k]; m = n[c]
      for (i = 1; i <= m; i++) { b[i] = t[c, "base", i]; w[i] = t[c, "new", i]; r[i] = w[i] / b[i] }
      printf "  %-8s %9.2f %9.2f %12.3f\n", c, median(b, m) / 1000, median(w, m) / 1000, median(r, m)
    }
  }' "$work/results"
