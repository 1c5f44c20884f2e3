#!/usr/bin/env bash
# bench-registry: issue 15's registry install measurement, old vs new side
# by side. Builds agent-skills from BASE_REF (default origin/main) and from
# the work tree, generates registries of N small skills (~17 KiB each; see
# cli/internal/benchreg) as a local folder registry and as an HTTP registry
# served on loopback, then installs all of them into Claude Code and Codex
# (project scope, fresh HOME and project per run), alternating base and new
# within each pair. Prints wall time, CPU (user + system) and peak RSS
# (/usr/bin/time) per run,
# the per-pair ratios new/base and their medians. Scratch folders are kept
# until the whole series ends (on ext4 without a journal, deleting a run's
# folder right before the next run slows file creation many times over).
# Not run by CI.
#
#   SIZES="50 500 10000" RUNS=5 RUNS_LARGE=3 KINDS="local http" BASE_REF=origin/main
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
sizes=${SIZES:-50 500 10000}
runs=${RUNS:-5}
runs_large=${RUNS_LARGE:-3}
kinds=${KINDS:-local http}
base_ref=${BASE_REF:-origin/main}
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-registry.XXXXXX")
srv=()
cleanup() { for p in "${srv[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

git -C "$here" worktree add -q --detach "$work/base-src" "$base_ref"
(cd "$work/base-src/cli" && GOWORK=off CGO_ENABLED=0 go build -o "$work/base" ./cmd/agent-skills)
git -C "$here" worktree remove --force "$work/base-src"
(cd "$here/cli" && GOWORK=off CGO_ENABLED=0 go build -o "$work/new" ./cmd/agent-skills && GOWORK=off go build -o "$work/genreg" ./internal/benchreg/genreg)

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

for n in $sizes; do
  reg=$work/reg-$n
  "$work/genreg" "$reg" "$n"
  mapfile -t names <"$reg/names"
  "$work/genreg" serve "$reg" >"$reg/url" & srv+=($!)
  for _ in $(seq 50); do [ -s "$reg/url" ] && break; sleep 0.1; done
  url=$(head -1 "$reg/url")
  r=$runs; [ "$n" -ge 5000 ] && r=$runs_large
  for kind in $kinds; do
    case $kind in
      local) cfg=$(printf '{"registries":[{"name":"bench","url":"%s","kind":"local","trusted":true}]}' "$reg/local") ;;
      http) cfg=$(printf '{"registries":[{"name":"bench","url":"%s","kind":"http","trusted":true}]}' "$url") ;;
    esac
    wr=(); rr=(); cr=(); wb=(); wn=(); mb=(); mn=(); cb=(); cn=()
    for i in $(seq 1 "$r"); do
      order="base new"; [ $((i % 2)) = 0 ] && order="new base"
      declare -A w m c
      for bin in $order; do
        h=$work/run-$n-$kind-$i-$bin; mkdir -p "$h/home/.agent-skills" "$h/proj/.git"
        printf '%s\n' "$cfg" >"$h/home/.agent-skills/config.json"
        out=$( { cd "$h/proj" && HOME=$h/home AGENT_SKILLS_HOME=$h/home/.agent-skills \
            /usr/bin/time -f '%e %M %U %S' "$work/$bin" -q install "${names[@]}" --project --agent claude --agent codex >/dev/null; } 2>&1 ) \
          || { echo "$bin install of $n ($kind) failed: $out" >&2; exit 1; }
        got=$(find "$h/proj/.claude/skills" -name SKILL.md | wc -l)
        [ "$got" = "$n" ] || { echo "$bin run $i installed $got skills for Claude, want $n" >&2; exit 1; }
        w[$bin]=$(tail -1 <<<"$out" | cut -d' ' -f1); m[$bin]=$(tail -1 <<<"$out" | cut -d' ' -f2)
        c[$bin]=$(tail -1 <<<"$out" | awk '{printf "%.2f", $3 + $4}')
      done
      wb+=("${w[base]}"); wn+=("${w[new]}"); mb+=("${m[base]}"); mn+=("${m[new]}"); cb+=("${c[base]}"); cn+=("${c[new]}")
      cr+=("$(awk -v a="${c[new]}" -v b="${c[base]}" 'BEGIN{printf "%.3f", (b > 0 ? a/b : 1)}')")
      wr+=("$(awk -v a="${w[new]}" -v b="${w[base]}" 'BEGIN{printf "%.3f", a/b}')")
      rr+=("$(awk -v a="${m[new]}" -v b="${m[base]}" 'BEGIN{printf "%.3f", a/b}')")
      printf '%6d %-5s pair %d: base %6.2fs %6.2fs cpu %5d MiB | new %6.2fs %6.2fs cpu %5d MiB | new/base wall %s cpu %s rss %s\n' \
        "$n" "$kind" "$i" "${w[base]}" "${c[base]}" $((m[base] / 1024)) "${w[new]}" "${c[new]}" $((m[new] / 1024)) "${wr[-1]}" "${cr[-1]}" "${rr[-1]}"
      unset w m c
    done
    printf '%6d %-5s MEDIAN over %d pairs: base %ss %ss cpu %d MiB | new %ss %ss cpu %d MiB | new/base wall %s cpu %s rss %s\n' "$n" "$kind" "$r" \
      "$(median "${wb[@]}")" "$(median "${cb[@]}")" $(( $(median "${mb[@]}") / 1024 )) "$(median "${wn[@]}")" "$(median "${cn[@]}")" $(( $(median "${mn[@]}") / 1024 )) \
      "$(median "${wr[@]}")" "$(median "${cr[@]}")" "$(median "${rr[@]}")"
  done
done
