#!/usr/bin/env bash
# bench-install: the issue's end-to-end install benchmark. Builds
# agent-skills, makes a local registry of 50 generated skills (created and
# published with agent-skills itself), then installs all 50 into Claude Code
# and Codex, project scope, with a fresh HOME and project for every run.
# Prints wall time and peak RSS per run and their medians. Not run by CI.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-10}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=$work/agent-skills
(cd "$here/cli" && CGO_ENABLED=0 go build -o "$bin" ./cmd/agent-skills)
export AGENT_SKILLS_HOME=$work/setup-home HOME=$work/setup-home
mkdir -p "$work/reg/registry" "$work/src"
printf 'schemaVersion: 1\nname: bench\nskills: []\n' >"$work/reg/registry/skills.yaml"
names=()
for i in $(seq -w 1 50); do
  n=bench-skill-$i
  names+=("$n")
  "$bin" -q create "$n" --dir "$work/src" --description "Benchmark skill number $i. Use when measuring install speed." >/dev/null
  "$bin" -q publish "$work/src/$n" --registry "$work/reg" --write >/dev/null
done
printf '{"registries":[{"name":"bench","url":"%s","kind":"local","trusted":true}]}\n' "$work/reg" >"$work/config.json"
times=(); rss=()
for r in $(seq 1 "$runs"); do
  h=$work/run-$r; mkdir -p "$h/home/.agent-skills" "$h/proj/.git"
  cp "$work/config.json" "$h/home/.agent-skills/config.json"
  out=$( { cd "$h/proj" && HOME=$h/home AGENT_SKILLS_HOME=$h/home/.agent-skills \
      /usr/bin/time -f '%e %M' "$bin" -q install "${names[@]}" --project --agent claude --agent codex >/dev/null; } 2>&1 )
  t=$(tail -1 <<<"$out" | cut -d' ' -f1); m=$(tail -1 <<<"$out" | cut -d' ' -f2)
  n=$(find "$h/proj/.claude/skills" -name SKILL.md | wc -l)
  [ "$n" = 50 ] || { echo "run $r installed $n skills for Claude, want 50" >&2; exit 1; }
  echo "run $r: ${t}s wall, $((m/1024)) MB peak RSS"
  times+=("$t"); rss+=("$m")
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "BenchmarkInstall50 (CLI, 50 skills x 2 agents, project scope, fresh HOME): median $(median "${times[@]}")s wall, $(( $(median "${rss[@]}") / 1024 )) MB peak RSS over $runs runs"
