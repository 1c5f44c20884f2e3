#!/usr/bin/env bash
# e2e-agents: prove the five verified rows of the agents table against the REAL
# agents — Claude Code, Codex, GitHub Copilot CLI, Gemini CLI and OpenCode — driven
# offline by ../shared/tools/agent-oracle. See docs/agents-e2e.md.
#
# For every non-empty subset of the five (31) and both scopes it makes one small
# skill (e2e-g-<subset> global, e2e-p-<subset> project; cl cx cp gm oc name the
# agents) and installs it from its folder with --agent <that subset>, next to
# sample skills and a Claude command installed for all five. One oracle run then
# lists everything, and each skill is checked against exactly its subset:
#   - every selected agent lists it exactly once, with its description;
#   - an agent not selected that lists it anyway (a shared root) lists it once
#     and was named in the install report (install --json, results[].alsoReadBy),
#     and none of the five that the report names there fails to list it;
#   - the same for a Claude command installed for Claude Code (Copilot lists
#     Claude Code's project commands too).
# Then it disables a skill (and, in the project, the command), checks that no
# agent lists them, enables them again and checks that every agent lists them as
# before. Each scope runs in a scratch home and project of its own (Copilot's
# prompt holds only so many skills). It prints a summary and exits 1 on any
# failure; E2E_AGENTS_KEEP=DIR keeps each scope's folder (installs, install
# reports, oracle output) under DIR.
#
# The agent versions are the pins in scripts/agent-versions, put into a copy of
# the oracle. AGENTS_LATEST=1 asks the npm registry for each package's newest
# version instead (npm view) and uses a separate oracle cache
# (AGENT_ORACLE_CACHE, default /tmp/agent-oracle-cache-latest), so the pinned
# cache stays warm. Needs node and npm; everything runs under a scratch HOME.
# Not run by CI.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
oracle_src=${AGENT_ORACLE:-$here/../shared/tools/agent-oracle}
pins=${AGENT_VERSIONS:-$here/scripts/agent-versions}
[ -x "$oracle_src" ] || { echo "e2e-agents: $oracle_src not found" >&2; exit 2; }
[ -r "$pins" ] || { echo "e2e-agents: $pins not found" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/e2e-agents.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The five agents: the oracle's name, the table's id, a short tag for skill names.
names=(claude codex copilot gemini opencode)
ids=(claude-code codex github-copilot gemini-cli opencode)
tags=(cl cx cp gm oc)

# ---- versions: the pins, or the registry's newest ----
declare -A spec
while read -r a p _; do
  case "$a" in ''|'#'*) continue;; esac
  spec[$a]=$p
done <"$pins"
for a in "${names[@]}"; do
  [ -n "${spec[$a]:-}" ] || { echo "e2e-agents: $pins has no line for $a" >&2; exit 2; }
done
if [ "${AGENTS_LATEST:-}" = 1 ]; then
  export AGENT_ORACLE_CACHE=${AGENT_ORACLE_CACHE:-/tmp/agent-oracle-cache-latest}
  for a in "${names[@]}"; do
    pkg=${spec[$a]%@*}
    v=$(npm view "$pkg" version 2>/dev/null) && [ -n "$v" ] \
      || { echo "e2e-agents: npm view $pkg version failed" >&2; exit 2; }
    spec[$a]=$pkg@$v
  done
fi
oracle=$work/agent-oracle
cp "$oracle_src" "$oracle"
for a in "${names[@]}"; do
  var=$(echo "$a" | tr '[:lower:]' '[:upper:]')_PKG
  grep -q "^$var=" "$oracle" || { echo "e2e-agents: the oracle has no $var= line to pin" >&2; exit 2; }
  sed -i "s|^$var=.*|$var=\"${spec[$a]}\"|" "$oracle"
done
echo "=== e2e-agents: versions $([ "${AGENTS_LATEST:-}" = 1 ] && echo "(newest on npm, AGENTS_LATEST=1)" || echo "(pinned in scripts/agent-versions)") ==="
for a in "${names[@]}"; do printf '  %-9s %s\n' "$a" "${spec[$a]}"; done
echo "  oracle cache: ${AGENT_ORACLE_CACHE:-/tmp/agent-oracle-cache}"

bin=$work/agent-skills
(cd "$here/cli" && go build -o "$bin" ./cmd/agent-skills)
unset CODEX_HOME CLAUDE_CONFIG_DIR COPILOT_HOME GEMINI_CLI_HOME OPENCODE_CONFIG_DIR \
  XDG_CONFIG_HOME XDG_DATA_HOME XDG_STATE_HOME XDG_CACHE_HOME
offline=--offline
all=$(IFS=,; echo "${names[*]}")
allids=$(IFS=,; echo "${ids[*]}")
fail=0 checks=0

# description NAME: the description in skills/NAME/SKILL.md's front matter, on one line.
description() {
  sed -n '/^---$/,/^---$/p' "$here/skills/$1/SKILL.md" | awk '/^description:/{f=1; sub(/^description: *>?-? */,""); if ($0!="") print; next} f && /^[a-z-]+:/{f=0} f{sub(/^ +/,""); print}' | tr '\n' ' ' | sed 's/ *$//'
}
# count AGENT NAME FILE: how many times the agent lists the skill in FILE.
count() { awk -F'\t' -v a="$1" -v s="$2" '$1==a && $2==s' "$3" | wc -l | tr -d ' '; }
ask() { # ask OUT: one oracle run over everything installed; its stderr goes to OUT.err
  local rc=0
  (cd "$proj" && "$oracle" --project "$proj") >"$1" 2>"$1.err" || rc=$?
  if [ "$rc" != 0 ]; then
    echo "FAIL: agent-oracle exited $rc:"; sed 's/^/  /' "$1.err" | tail -20; fail=$((fail + 1))
  fi
}
flush() { # count and print the failures collected in $dir/fails
  if [ -s "$dir/fails" ]; then
    cat "$dir/fails"; fail=$((fail + $(grep -c '^FAIL' "$dir/fails"))); : >"$dir/fails"; return 1
  fi
}
inst() { # inst ARGS...: agent-skills install ARGS --json in the scope's folder, report (and its notes) kept in $dir/install
  local n=$((${n_inst:-0} + 1)); n_inst=$n
  if [ "$scope" = global ]; then
    "$bin" $offline install "$@" --global --json >"$dir/install/$n.json" 2>"$dir/install/$n.err" ||
      { cat "$dir/install/$n.err" >&2; return 1; }
  else
    (cd "$proj" && "$bin" $offline install "$@" --project --json) >"$dir/install/$n.json" 2>"$dir/install/$n.err" ||
      { cat "$dir/install/$n.err" >&2; return 1; }
  fi
}

# Each scope runs in a home and a project of its own: the real Copilot CLI puts
# only about 15,000 characters of skills into its prompt (57 of 63 with both
# scopes in one run), and the skills past that are invisible to it.
for scope in global project; do
  dir=$work/$scope
  export HOME=$dir/home AGENT_SKILLS_HOME=$dir/home/.agent-skills
  proj=$dir/proj
  mkdir -p "$HOME" "$proj" "$dir/src" "$dir/install"; : >"$dir/fails"
  git -C "$proj" init -q
  # expect.tsv: name, selected agents (oracle names, comma-separated), kind, description
  expect=$dir/expect.tsv; : >"$expect"

  # ---- one skill per subset ----
  for mask in $(seq 1 31); do
    sel=() selids=() tag=()
    for i in 0 1 2 3 4; do
      if (( mask & (1 << i) )); then sel+=("${names[$i]}"); selids+=("${ids[$i]}"); tag+=("${tags[$i]}"); fi
    done
    t=$(IFS=-; echo "${tag[*]}"); csv=$(IFS=,; echo "${sel[*]}"); idcsv=$(IFS=,; echo "${selids[*]}")
    n=e2e-${scope:0:1}-$t
    d="End-to-end probe, $scope scope, installed for $idcsv only. Use only in the agent-skills e2e test."
    mkdir -p "$dir/src/$n"
    printf -- '---\nname: %s\ndescription: %s\n---\n# %s\n\nNothing to do: this skill only proves where it is seen.\n' "$n" "$d" "$n" >"$dir/src/$n/SKILL.md"
    inst "$dir/src/$n" --agent "$idcsv"
    printf '%s\t%s\tskill\t%s\n' "$n" "$csv" "$d" >>"$expect"
  done

  # ---- sample skills from the catalog (and a Claude command), for all five ----
  if [ "$scope" = global ]; then
    samples=(git-commit-messages code-review-checklist)
    off=(git-commit-messages) kept=code-review-checklist
  else
    samples=(java-performance java-basics jvm-gc-tuning skill-authoring)   # java-performance brings the next two
    off=(skill-authoring review-diff) kept=java-performance
  fi
  if [ "$scope" = global ]; then inst "${samples[@]}" --agent "$allids"; else inst java-performance skill-authoring --agent "$allids"; fi
  for s in "${samples[@]}"; do printf '%s\t%s\tskill\t%s\n' "$s" "$all" "$(description "$s")" >>"$expect"; done
  if [ "$scope" = project ]; then
    inst review-diff --agent claude-code
    printf 'review-diff\tclaude\tcommand\t\n' >>"$expect"
  fi

  # also.tsv: "<skill>\t<agent id>" for every agent an install report named in
  # results[].alsoReadBy; also.has says whether any result carried the field at all.
  node -e '
    const fs = require("fs"), dir = process.argv[1]; let has = false;
    for (const f of fs.readdirSync(dir + "/install").filter((f) => f.endsWith(".json"))) {
      const r = JSON.parse(fs.readFileSync(dir + "/install/" + f, "utf8"));
      for (const x of r.results || []) {
        if ("alsoReadBy" in x) has = true;
        for (const a of x.alsoReadBy || []) console.log(x.name + "\t" + a);
      }
    }
    fs.writeFileSync(dir + "/also.has", has ? "yes\n" : "no\n");' "$dir" | sort -u >"$dir/also.tsv"

  out=$dir/oracle.tsv
  ask "$out"
  echo
  echo "=== $scope scope: what the real agents listed (e2e and sample skills; source below the scratch folder) ==="
  awk -F'\t' -v w="$dir/" 'NR==FNR {want[$1]=1; next} ($2 in want) {s=$4; sub(w, "", s); printf "%s\t%s\t%s\n", $1, $2, s}' "$expect" "$out" | sort -k2,2 -k1,1
  echo
  echo "=== $scope scope: each skill against its subset ==="
  echo "    1 = listed once by a selected agent; 1* = listed once by an agent not selected, named in alsoReadBy;"
  echo "    - = not listed, not selected, not named; anything with ! is a failure"
  printf '%-26s %-8s %-8s %-8s %-8s %-8s  %s\n' skill claude codex copilot gemini opencode selected
  while IFS=$'\t' read -r name sel kind desc; do
    row=()
    for i in 0 1 2 3 4; do
      a=${names[$i]} id=${ids[$i]}
      n=$(count "$a" "$name" "$out")
      checks=$((checks + 1))
      if [[ ",$sel," == *",$a,"* ]]; then
        if [ "$n" != 1 ]; then
          row+=("$n!"); echo "FAIL: $a lists $name ($scope) $n times, want 1" >>"$dir/fails"; continue
        fi
        if [ "$kind" = skill ]; then
          got=$(awk -F'\t' -v a="$a" -v s="$name" '$1==a && $2==s {print $3; exit}' "$out")
          if [ "${desc:0:60}" != "${got:0:60}" ]; then
            row+=("1!d"); printf 'FAIL: %s shows %s with another description:\n  want: %s\n  got:  %s\n' "$a" "$name" "${desc:0:100}" "${got:0:100}" >>"$dir/fails"; continue
          fi
        fi
        row+=(1)
      else
        if [ "$n" = 0 ]; then
          if grep -qx "$name	$id" "$dir/also.tsv"; then   # the table says it reads the root; the agent does not
            row+=("0!n"); echo "FAIL: the install report named $id in alsoReadBy of $name ($scope), but $a does not list it" >>"$dir/fails"
          else row+=(-); fi
          continue
        fi
        if [ "$n" != 1 ]; then
          row+=("$n!"); echo "FAIL: $a, not selected, lists $name ($scope) $n times" >>"$dir/fails"; continue
        fi
        if grep -qx "$name	$id" "$dir/also.tsv"; then row+=("1*"); else
          row+=("1!a"); echo "FAIL: $a, not selected, lists $name ($scope), but the install report did not name $id in alsoReadBy" >>"$dir/fails"
        fi
      fi
    done
    printf '%-26s %-8s %-8s %-8s %-8s %-8s  %s\n' "$name" "${row[@]}" "$sel"
  done <"$expect"
  echo
  if flush; then
    echo "e2e-agents: $scope scope: every installed skill is listed exactly once by each selected agent, with its description; every other lister was named"
  elif [ "$(cat "$dir/also.has")" = no ]; then
    echo "note: no install --json result carried alsoReadBy: this build does not name the agents that see a skill without being selected"
  fi

  # ---- disable and enable ----
  if [ "$scope" = global ]; then
    (cd "$proj" && "$bin" $offline disable "${off[@]}" --global) >/dev/null
  else
    (cd "$proj" && "$bin" $offline disable "${off[@]}") >/dev/null
  fi
  ask "$dir/disabled.tsv"
  echo
  echo "=== $scope scope: after agent-skills disable ${off[*]} (times listed by claude codex copilot gemini opencode) ==="
  for name in "${off[@]}" "$kept"; do
    want=0; [ "$name" = "$kept" ] && want=1   # stayed enabled
    line=$name
    for a in "${names[@]}"; do
      n=$(count "$a" "$name" "$dir/disabled.tsv"); line+=" $n"; checks=$((checks + 1))
      [ "$n" = "$want" ] || echo "FAIL: after disable, $a lists $name $n times, want $want" >>"$dir/fails"
    done
    echo "  $line"
  done
  if [ "$scope" = global ]; then
    (cd "$proj" && "$bin" $offline enable "${off[@]}" --global) >/dev/null
  else
    (cd "$proj" && "$bin" $offline enable "${off[@]}") >/dev/null
  fi
  ask "$dir/enabled.tsv"
  echo "=== $scope scope: after agent-skills enable ${off[*]} ==="
  for name in "${off[@]}"; do
    line=$name
    for a in "${names[@]}"; do
      want=1   # Claude Code's command: Claude Code lists it, and Copilot (it reads .claude/commands)
      [ "$name" = review-diff ] && [ "$a" != claude ] && [ "$a" != copilot ] && want=0
      n=$(count "$a" "$name" "$dir/enabled.tsv"); line+=" $n"; checks=$((checks + 1))
      [ "$n" = "$want" ] || echo "FAIL: after enable, $a lists $name $n times, want $want" >>"$dir/fails"
    done
    echo "  $line"
  done
  if flush; then echo "e2e-agents: $scope scope: disabled skills are listed by no agent, and again as before after enable"; fi
  [ -z "${E2E_AGENTS_KEEP:-}" ] || { mkdir -p "$E2E_AGENTS_KEEP"; cp -r "$dir" "$E2E_AGENTS_KEEP/"; }
done

# ---- the bundled authoring workflow: every meta-skill, for all five ----
# In a home of its own: `install skill-authoring --with-suggests` brings the
# creation workflow and the authoring kit; the maintenance skills are installed by
# name. Each must be listed exactly once by every agent, with its description.
scope=global dir=$work/bundled
export HOME=$dir/home AGENT_SKILLS_HOME=$dir/home/.agent-skills
proj=$dir/proj
mkdir -p "$HOME" "$proj" "$dir/install"; : >"$dir/fails"
git -C "$proj" init -q
meta=(skill-authoring skill-discovery skill-domain-research skills-synthesis skill-design
  skill-naming skill-descriptions skill-validation skill-evaluation skill-publishing
  skill-evolution skill-optimization skills-maintenance-scheduling skill-lifecycle)
inst skill-authoring --with-suggests --agent "$allids"
inst skill-evolution skill-optimization skills-maintenance-scheduling skill-lifecycle --agent "$allids"
ask "$dir/oracle.tsv"
echo
echo "=== bundled meta-skills (global, all five agents): times listed by claude codex copilot gemini opencode ==="
for name in "${meta[@]}"; do
  line=$(printf '%-30s' "$name")
  want=$(description "$name")
  for a in "${names[@]}"; do
    n=$(count "$a" "$name" "$dir/oracle.tsv"); checks=$((checks + 1))
    got=$(awk -F'\t' -v a="$a" -v s="$name" '$1==a && $2==s {print $3; exit}' "$dir/oracle.tsv")
    if [ "$n" != 1 ]; then
      line+=" $n!"; echo "FAIL: $a lists $name $n times, want 1" >>"$dir/fails"
    elif [ "${want:0:60}" != "${got:0:60}" ]; then
      line+=" 1!d"; printf 'FAIL: %s shows %s with another description:\n  want: %s\n  got:  %s\n' "$a" "$name" "${want:0:100}" "${got:0:100}" >>"$dir/fails"
    else line+=" 1"; fi
  done
  echo "  $line"
done
if flush; then echo "e2e-agents: bundled meta-skills: each of the ${#meta[@]} is listed exactly once by every agent, with its description"; fi
[ -z "${E2E_AGENTS_KEEP:-}" ] || { mkdir -p "$E2E_AGENTS_KEEP"; cp -r "$dir" "$E2E_AGENTS_KEEP/"; }

echo
vers=$(for a in "${names[@]}"; do printf '%s ' "${spec[$a]}"; done)
if [ $fail = 0 ]; then
  echo "e2e-agents: PASS — $checks checks: 31 subsets x 2 scopes, sample skills, a Claude command, disable/enable, the bundled meta-skills; with ${vers% }"
  exit 0
fi
echo "e2e-agents: FAIL — $fail of $checks checks failed; with ${vers% }"
exit 1
