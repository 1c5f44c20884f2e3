#!/usr/bin/env bash
# bench-peers: agent-skills side by side with vercel's skills CLI and the
# physical floor (cp -r, with and without one sync -f). Installs the pinned
# peer from the npm registry into .cache/ beside this script (and a Node 22
# there when the machine's node is older than the peer needs), builds
# agent-skills from this repository, then runs the Go harness in this folder.
# See README.md. Not run by CI or make test.
#
# Knobs (environment):
#   BENCH_PEERS_ROUNDS   rounds per operation            (default 7)
#   BENCH_PEERS_SIZES    numbers of skills               (default "50 500")
#   BENCH_PEERS_OPS      operations, comma-separated     (default all: start,install,list,restore,remove)
#   BENCH_PEERS_TIMEOUT  a run is killed after this      (default 10m)
#   BENCH_PEERS_DIR      where the series folder is made (default $TMPDIR or /tmp)
#   BENCH_PEERS_KEEP=1   keep the series folder (default: deleted when everything is measured)
#   BENCH_PEERS_NETNS=0  do not run the tools in a network namespace of their own
#   SKILLS_VERSION       vercel skills to install        (default 1.7.4, the version issue 15 measured)
#   NODE22_VERSION       Node to install when needed     (default 22.23.5)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=$here/.cache
skills_version=${SKILLS_VERSION:-1.7.4}
node22_version=${NODE22_VERSION:-22.23.5}
need_node=22.20.0

say() { echo "bench-peers: $*" >&2; }
# version_ge A B: A >= B for dotted versions (a leading v is ignored).
version_ge() { [ "$(printf '%s\n%s\n' "${2#v}" "${1#v}" | sort -V | head -1)" = "${2#v}" ]; }

command -v npm >/dev/null || { say "npm is needed to install vercel skills from the npm registry"; exit 2; }
command -v go >/dev/null || { say "go is needed to build agent-skills"; exit 2; }
mkdir -p "$cache"

# A Node new enough for vercel skills: the machine's, or one from the npm
# registry's node-linux-<arch> package (a plain binary; no install scripts run).
node=$(command -v node || true)
have=$([ -n "$node" ] && "$node" --version || echo none)
if [ "$have" = none ] || ! version_ge "$have" "$need_node"; then
  case $(uname -m) in
    x86_64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) say "no node-linux package for $(uname -m); install Node >= $need_node"; exit 2 ;;
  esac
  node=$cache/node-$node22_version/node_modules/node-linux-$arch/bin/node
  if [ ! -x "$node" ]; then
    say "the machine's node is $have, vercel skills needs >= $need_node: installing node-linux-$arch@$node22_version into $cache"
    npm install --prefix "$cache/node-$node22_version" --no-save --no-package-lock --no-audit --no-fund \
      --ignore-scripts --loglevel=error "node-linux-$arch@$node22_version" >&2
  fi
fi
version_ge "$("$node" --version)" "$need_node" || { say "$node is $("$node" --version), need >= $need_node"; exit 2; }

# vercel skills at the pinned version. Its engines field names Node 22, which
# npm (run by the machine's older node) only warns about; we run it with $node.
theirs=$cache/skills-$skills_version/node_modules/skills/bin/cli.mjs
if [ ! -f "$theirs" ]; then
  say "installing skills@$skills_version into $cache"
  npm install --prefix "$cache/skills-$skills_version" --no-save --no-package-lock --no-audit --no-fund \
    --ignore-scripts --loglevel=error --engine-strict=false "skills@$skills_version" >&2
fi
got=$("$node" "$theirs" --version)
[ "$got" = "$skills_version" ] || { say "$theirs reports version $got, want $skills_version"; exit 2; }

parent=${BENCH_PEERS_DIR:-${TMPDIR:-/tmp}}
mkdir -p "$parent"
work=$(mktemp -d "$parent/bench-peers.XXXXXX")
if [ "${BENCH_PEERS_KEEP:-0}" = 1 ]; then
  say "keeping $work"
else
  trap 'say "deleting $work"; rm -rf "$work"' EXIT
fi

# Our CLI, built from whatever this repository holds now, and the harness.
(cd "$repo/cli" && GOWORK=off CGO_ENABLED=0 go build -o "$work/agent-skills" ./cmd/agent-skills)
(cd "$here" && GOWORK=off go build -o "$work/bench-peers" .)

rev=$(git -C "$repo" describe --always --dirty 2>/dev/null || echo "an unknown commit")
args=(-ours "$work/agent-skills" -rev "$rev" -node "$node" -theirs "$theirs" -work "$work/series"
  -rounds "${BENCH_PEERS_ROUNDS:-7}" -sizes "$(echo "${BENCH_PEERS_SIZES:-50 500}" | tr ' ' ',')"
  -timeout "${BENCH_PEERS_TIMEOUT:-10m}")
[ -z "${BENCH_PEERS_OPS:-}" ] || args+=(-ops "$BENCH_PEERS_OPS")

# Neither tool needs the network for a local source (vercel's telemetry is
# switched off in the harness); a network namespace with nothing in it makes
# sure no run reaches out, whatever a future version does.
if [ "${BENCH_PEERS_NETNS:-1}" = 1 ] && unshare --net true 2>/dev/null; then
  unshare --net "$work/bench-peers" "${args[@]}"
else
  [ "${BENCH_PEERS_NETNS:-1}" = 0 ] || say "unshare --net is not available here: running with the machine's network"
  "$work/bench-peers" "${args[@]}"
fi
