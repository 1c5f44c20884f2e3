#!/usr/bin/env bash
# e2e-agents: install sample skills with agent-skills for Claude Code and Codex,
# in both scopes, then ask the REAL agents (../shared/tools/agent-oracle) which
# skills they discover, and check that each installed skill is listed exactly
# once per agent, with the description of its SKILL.md. Then disable a project
# skill, a global one and a command, check that neither agent lists them, enable
# them again and check that both list them as before.
#
# Needs node and npm (the oracle installs the pinned agents from the npm
# registry into its cache once). Not run by CI.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
oracle=${AGENT_ORACLE:-$here/../shared/tools/agent-oracle}
[ -x "$oracle" ] || { echo "e2e-agents: $oracle not found" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=$work/agent-skills
(cd "$here/cli" && go build -o "$bin" ./cmd/agent-skills)

export HOME=$work/home AGENT_SKILLS_HOME=$work/home/.agent-skills
unset CODEX_HOME CLAUDE_CONFIG_DIR
mkdir -p "$HOME" "$work/proj"
git -C "$work/proj" init -q
offline=--offline

global=(git-commit-messages code-review-checklist)
project=(java-performance skill-authoring)   # java-performance brings java-basics and jvm-gc-tuning
"$bin" $offline install "${global[@]}" --global --agent claude --agent codex
(cd "$work/proj" && "$bin" $offline install "${project[@]}" --project --agent claude --agent codex)
(cd "$work/proj" && "$bin" $offline install review-diff --project --agent claude --agent codex)

expected=(git-commit-messages code-review-checklist java-performance java-basics jvm-gc-tuning skill-authoring)
out=$work/oracle.tsv
(cd "$work/proj" && "$oracle" --project "$work/proj") >"$out"
echo "--- what the real agents discovered (sample skills only) ---"
fail=0
for agent in codex claude; do
  for name in "${expected[@]}"; do
    n=$(awk -F'\t' -v a="$agent" -v s="$name" '$1==a && $2==s' "$out" | wc -l)
    want=$(sed -n '/^---$/,/^---$/p' "$here/skills/$name/SKILL.md" | awk '/^description:/{f=1; sub(/^description: *>?-? */,""); if ($0!="") print; next} f && /^[a-z-]+:/{f=0} f{sub(/^ +/,""); print}' | tr '\n' ' ' | sed 's/ *$//')
    got=$(awk -F'\t' -v a="$agent" -v s="$name" '$1==a && $2==s {print $3}' "$out" | head -1)
    awk -F'\t' -v a="$agent" -v s="$name" '$1==a && $2==s {printf "%s\t%s\t%.70s…\t%s\n", $1, $2, $3, $4}' "$out"
    if [ "$n" != 1 ]; then echo "FAIL: $agent lists $name $n times, want 1"; fail=1; continue; fi
    if [ "${want:0:60}" != "${got:0:60}" ]; then echo "FAIL: $agent shows $name with another description:"; echo "  want: ${want:0:100}"; echo "  got:  ${got:0:100}"; fail=1; fi
  done
done
n=$(awk -F'\t' '$1=="claude" && $2=="review-diff"' "$out" | wc -l)
awk -F'\t' '$1=="claude" && $2=="review-diff" {printf "%s\t%s\t%.70s…\t%s\n", $1, $2, $3, $4}' "$out"
[ "$n" = 1 ] || { echo "FAIL: claude lists the review-diff command $n times, want 1"; fail=1; }
if awk -F'\t' '$1=="codex" && $2=="review-diff"' "$out" | grep -q .; then echo "FAIL: codex lists a command"; fail=1; fi
[ $fail = 0 ] && echo "e2e-agents: every installed skill is listed exactly once by each agent, with its description"

# count AGENT NAME FILE: how many times the agent lists the skill in FILE.
count() { awk -F'\t' -v a="$1" -v s="$2" '$1==a && $2==s' "$3" | wc -l | tr -d ' '; }
off=(skill-authoring git-commit-messages review-diff)   # a project skill, a global one, a command
(cd "$work/proj" && "$bin" $offline disable skill-authoring review-diff)
(cd "$work/proj" && "$bin" $offline disable git-commit-messages --global)
(cd "$work/proj" && "$oracle" --project "$work/proj") >"$work/disabled.tsv"
echo "--- after agent-skills disable ${off[*]} ---"
for agent in codex claude; do
  for name in "${off[@]}"; do
    n=$(count "$agent" "$name" "$work/disabled.tsv")
    echo "$agent	$name	listed $n times"
    [ "$n" = 0 ] || { echo "FAIL: $agent still lists the disabled $name"; fail=1; }
  done
  n=$(count "$agent" java-performance "$work/disabled.tsv")
  [ "$n" = 1 ] || { echo "FAIL: $agent lists java-performance, which stayed enabled, $n times"; fail=1; }
done
(cd "$work/proj" && "$bin" $offline enable skill-authoring review-diff)
(cd "$work/proj" && "$bin" $offline enable git-commit-messages --global)
(cd "$work/proj" && "$oracle" --project "$work/proj") >"$work/enabled.tsv"
echo "--- after agent-skills enable ${off[*]} ---"
for agent in codex claude; do
  for name in "${off[@]}"; do
    want=1
    [ "$agent/$name" = codex/review-diff ] && want=0   # Codex reads no commands
    n=$(count "$agent" "$name" "$work/enabled.tsv")
    echo "$agent	$name	listed $n times"
    [ "$n" = "$want" ] || { echo "FAIL: $agent lists the enabled $name $n times, want $want"; fail=1; }
  done
done
[ $fail = 0 ] && echo "e2e-agents: disabled skills are listed by neither agent, and again once each after enable"
exit $fail
