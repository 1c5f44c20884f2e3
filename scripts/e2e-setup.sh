#!/usr/bin/env bash
# e2e-setup: "agent-skills setup enable --write --host claude" in a scratch HOME, then
# the real Claude Code (through ../shared/tools/agent-oracle, against its fake model API
# on loopback) starts a session: the recorded model request must carry the session index
# our SessionStart hook printed, and offer the tools of our MCP server. Then "setup
# status" and "setup disable --write", which must give back the user's files byte for
# byte. The same for OpenCode (its MCP server and the plugin file setup owns), Gemini CLI
# and Copilot CLI.
#
# Needs node and npm (the oracle installs the pinned Claude Code from npm once, into
# AGENT_ORACLE_CACHE). Not run by CI. ORACLE overrides the oracle's path.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
oracle=${ORACLE:-$here/../shared/tools/agent-oracle}
[ -x "$oracle" ] || { echo "e2e-setup: no agent-oracle at $oracle (set ORACLE)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin"
(cd "$here/cli" && go build -o "$work/bin/agent-skills" ./cmd/agent-skills)

export HOME=$work/home AGENT_SKILLS_HOME=$work/home/.agent-skills AGENT_SKILLS_NO_UPDATE_NOTIFIER=1
export PATH=$work/bin:$PATH AGENT_ORACLE_KEEP=$work/keep
export AGENT_ORACLE_CACHE=${AGENT_ORACLE_CACHE:-/tmp/agent-oracle-cache}
unset CLAUDE_CONFIG_DIR CODEX_HOME GEMINI_CLI_HOME COPILOT_HOME XDG_CONFIG_HOME
mkdir -p "$HOME/.claude" "$work/proj"
git -C "$work/proj" init -q
cd "$work/proj"

# The user's own settings, which setup must keep.
printf '{\n  "theme": "dark",\n  "permissions": {\n    "allow": []\n  }\n}\n' >"$HOME/.claude/settings.json"
cp "$HOME/.claude/settings.json" "$work/settings.orig"

fail=0
check() { # name, file, expected regexp
  if grep -Eq "$3" "$2"; then echo "e2e-setup: ok: $1"; else echo "e2e-setup: FAIL: $1: no match for /$3/ in $2" >&2; fail=1; fi
}

agent-skills --offline install java-basics --project --agent claude >/dev/null
echo "--- setup enable --host claude --write"
agent-skills setup enable --host claude --write
echo "--- ~/.claude/settings.json"
cat "$HOME/.claude/settings.json"
echo "--- ~/.claude.json"
cat "$HOME/.claude.json"
echo "--- setup status --host claude"
agent-skills setup status --host claude

echo "--- agent-oracle --agent claude"
"$oracle" --agent claude --project "$work/proj" | tee "$work/oracle.out"
reqs=$(ls "$work"/keep/claude/req-*.json 2>/dev/null | head -50)
[ -n "$reqs" ] || { echo "e2e-setup: FAIL: Claude sent no request to the fake API" >&2; exit 1; }
cat $reqs >"$work/requests.json"
check "the SessionStart hook's context reached the model" "$work/requests.json" 'SessionStart hook additional context'
check "the session index names the installed skill" "$work/requests.json" 'java-basics'
check "the MCP server's tools were offered" "$work/requests.json" 'mcp__agent-skills__search_skills'
echo "--- what the model received from the hook (excerpt)"
grep -o 'SessionStart hook additional context[^"]\{0,400\}' "$work/requests.json" | head -3 || true
echo "--- the agent-skills tools offered to the model"
grep -o 'mcp__agent-skills__[a-z_]*' "$work/requests.json" | sort -u || true

echo "--- setup disable --host claude --write"
agent-skills setup disable --host claude --write
if cmp -s "$work/settings.orig" "$HOME/.claude/settings.json"; then
  echo "e2e-setup: ok: settings.json is back to the user's bytes"
else
  echo "e2e-setup: FAIL: settings.json differs from the user's original:" >&2
  diff "$work/settings.orig" "$HOME/.claude/settings.json" >&2 || true
  fail=1
fi
if grep -q '"agent-skills"' "$HOME/.claude.json"; then
  echo "e2e-setup: FAIL: ~/.claude.json still names agent-skills" >&2; fail=1
else
  echo "e2e-setup: ok: ~/.claude.json no longer names agent-skills"
fi

# OpenCode: the MCP server in opencode.json and the session index through the plugin file
# setup owns; the real OpenCode must put the index into the system prompt and offer the tools.
echo "--- setup enable --host opencode --write"
mkdir -p "$HOME/.config/opencode"
agent-skills setup enable --host opencode --write >/dev/null
agent-skills setup status --host opencode
echo "--- agent-oracle --agent opencode"
"$oracle" --agent opencode --project "$work/proj" | cut -f1,2 | tee "$work/oracle-opencode.out"
cat "$work"/keep/opencode/req-*.json >"$work/requests-opencode.json" 2>/dev/null || true
check "OpenCode's system prompt carries the session index" "$work/requests-opencode.json" 'Agent skills available \(1\)'
check "OpenCode offered the MCP server's tools" "$work/requests-opencode.json" 'agent-skills_search_skills'
grep -o 'Agent skills available[^"]\{0,160\}' "$work/requests-opencode.json" | head -1 || true
grep -o 'agent-skills_[a-z_]*' "$work/requests-opencode.json" | sort -u || true
agent-skills setup disable --host opencode --write >/dev/null
# OpenCode adds "$schema" to the opencode.json setup created, so the file stays, without us.
echo "--- ~/.config/opencode/opencode.json after disable"
cat "$HOME/.config/opencode/opencode.json" 2>/dev/null || echo "(gone)"
if [ -e "$HOME/.config/opencode/plugins/agent-skills.js" ] || grep -qs '"agent-skills"' "$HOME/.config/opencode/opencode.json"; then
  echo "e2e-setup: FAIL: setup disable left what it wrote for OpenCode" >&2; fail=1
else
  echo "e2e-setup: ok: setup disable removed what it wrote for OpenCode"
fi

# Gemini CLI (with --trust-mcp, without which headless Gemini offers no MCP tool) and Copilot
# CLI: the index and the tools must reach the model; disable must take our entries out.
probe() { # host, tool name in the request, enable flags…
  local host=$1 tool=$2; shift 2
  echo "--- setup enable --host $host --write $*"
  agent-skills setup enable --host "$host" --write "$@" | tail -1
  echo "--- agent-oracle --agent $host"
  "$oracle" --agent "$host" --project "$work/proj" | cut -f1,2
  cat "$work"/keep/"$host"/req-*.json >"$work/requests-$host.json" 2>/dev/null || true
  check "$host: the session index reached the model" "$work/requests-$host.json" 'Agent skills available \(1\)'
  check "$host: the MCP server's tools were offered" "$work/requests-$host.json" "$tool"
  grep -o "[a-z_-]*search_skills" "$work/requests-$host.json" | sort -u || true
  agent-skills setup disable --host "$host" --write | tail -1
  if grep -rqs 'agent-skills' "$HOME/.gemini/settings.json" "$HOME/.copilot/mcp-config.json" "$HOME/.copilot/hooks"; then
    echo "e2e-setup: FAIL: $host: disable left an agent-skills entry" >&2; fail=1
  fi
}
mkdir -p "$HOME/.gemini" "$HOME/.copilot"
probe gemini 'mcp_agent-skills_search_skills' --trust-mcp
probe copilot 'agent-skills-search_skills'

[ "$fail" = 0 ] && echo "e2e-setup: ok" || { echo "e2e-setup: FAILED" >&2; exit 1; }
