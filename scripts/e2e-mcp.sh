#!/usr/bin/env bash
# e2e-mcp: drive "agent-skills mcp serve" with a real MCP client that no one
# here wrote — the MCP Inspector's CLI from the npm registry — against the
# bundled collection, in a temporary HOME: list the tools, call search_skills
# and read_skill (SKILL.md and a reference), check a refused path and a read
# of an installed skill, and check that the read-only server wrote nothing.
#
# Needs node and npx (the Inspector is fetched from npm once). Not run by CI.
# INSPECTOR overrides the package, e.g. @modelcontextprotocol/inspector@0.17.2.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
inspector=${INSPECTOR:-@modelcontextprotocol/inspector}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=$work/bin/agent-skills
(cd "$here/cli" && go build -o "$bin" ./cmd/agent-skills)

# npx keeps its cache in the real HOME; the server sees only the temp one.
npm_cache=$(npm config get cache)
export HOME=$work/home AGENT_SKILLS_HOME=$work/home/.agent-skills npm_config_cache=$npm_cache
unset CODEX_HOME CLAUDE_CONFIG_DIR
mkdir -p "$HOME" "$work/proj"
git -C "$work/proj" init -q
cd "$work/proj"

fail=0
call() { # name, expected regexp, inspector arguments…
  local name=$1 want=$2
  shift 2
  echo "--- $name"
  local out
  out=$(npx -y "$inspector" --cli "$bin" --offline mcp serve "$@" 2>&1) || true
  printf '%s\n' "${out:0:1200}"
  [ "${#out}" -le 1200 ] || echo "… (${#out} bytes)"
  if ! grep -Eq "$want" <<<"$out"; then
    echo "e2e-mcp: FAIL: $name: no match for /$want/" >&2
    fail=1
  fi
}

call "tools/list" '"search_skills"' --method tools/list
call "search_skills query=java" '"java-basics"' --method tools/call --tool-name search_skills --tool-arg query=java --tool-arg limit=3
call "read_skill java-basics" 'name: java-basics' --method tools/call --tool-name read_skill --tool-arg skill=java-basics
call "read_skill a reference" '"digest": *"sha256-' --method tools/call --tool-name read_skill --tool-arg skill=java-performance --tool-arg resource=references/measurement.md
call "read_skill ../ is refused" 'ASK_CATALOG_READ_DENIED' --method tools/call --tool-name read_skill --tool-arg skill=java-basics --tool-arg resource=../../etc/passwd

if [ -e "$HOME/.agent-skills" ] || [ -e "$work/proj/.claude" ]; then
  echo "e2e-mcp: FAIL: the read-only server created files:" >&2
  find "$HOME" "$work/proj" -newer "$bin" -not -path '*/.git*' >&2
  fail=1
fi

"$bin" --offline install java-basics --project --agent claude >/dev/null
call "read_skill installed" '"source": *"installed:project"' --method tools/call --tool-name read_skill --tool-arg skill=java-basics

[ "$fail" = 0 ] && echo "e2e-mcp: ok" || { echo "e2e-mcp: FAILED" >&2; exit 1; }
