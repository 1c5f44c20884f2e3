#!/usr/bin/env bash
# e2e-setup: "agent-skills setup enable --write --host claude" in a scratch HOME, then
# the real Claude Code (through ../shared/tools/agent-oracle, against its fake model API
# on loopback) starts a session: the recorded model request must carry the session index
# our SessionStart hook printed, and offer the tools of our MCP server. Then "setup
# status" and "setup disable --write", which must give back the user's files byte for
# byte. The same for OpenCode (its MCP server and the plugin file setup owns), Gemini CLI,
# Copilot CLI and Codex (whose hook setup trusts with the hash codex app-server reports).
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

# Codex: the MCP server in config.toml, the hook in hooks.json, and the hook's trust, which
# setup records with the hash the real "codex app-server" reports. Then "codex exec" against a
# fake Responses API on loopback must run the hook (its index reaches the model) and offer the
# tools, without --dangerously-bypass-hook-trust; disable must give config.toml back.
codex_pkg=$(awk '$1 == "codex" {print $2}' "$here/scripts/agent-versions")
codex_bin=$AGENT_ORACLE_CACHE/node_modules/.bin/codex
if [ ! -x "$codex_bin" ] || [ "$("$codex_bin" --version 2>/dev/null | awk '{print $NF}')" != "${codex_pkg##*@}" ]; then
  echo "e2e-setup: installing $codex_pkg into $AGENT_ORACLE_CACHE" >&2
  mkdir -p "$AGENT_ORACLE_CACHE"
  [ -f "$AGENT_ORACLE_CACHE/package.json" ] || (cd "$AGENT_ORACLE_CACHE" && npm init -y >/dev/null)
  (cd "$AGENT_ORACLE_CACHE" && HOME=$(getent passwd "$(id -u)" | cut -d: -f6) npm install --save-exact --no-audit --no-fund --loglevel=error "$codex_pkg" >&2)
fi
mkdir -p "$work/codexbin" "$work/api"
ln -sf "$codex_bin" "$work/codexbin/codex"
cat >"$work/fakeapi.js" <<'JS'
const http = require("http"), fs = require("fs"), path = require("path");
const dir = process.argv[2];
let seq = 0;
http.createServer((q, r) => {
  const chunks = [];
  q.on("data", d => chunks.push(d)).on("end", () => {
    fs.writeFileSync(path.join(dir, "req-" + String(++seq).padStart(4, "0") + ".json"), Buffer.concat(chunks).toString("utf8"));
    if (!/\/responses/.test(q.url)) { r.writeHead(404); return r.end("{}"); }
    const msg = { id: "msg_e2e", type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", text: "ok", annotations: [] }] };
    const usage = { input_tokens: 1, input_tokens_details: { cached_tokens: 0 }, output_tokens: 1, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 2 };
    const base = { id: "resp_e2e", object: "response", created_at: 0, model: "gpt-5", output: [], status: "in_progress", usage: null };
    let n = 0;
    r.writeHead(200, { "content-type": "text/event-stream", connection: "close" });
    for (const [e, d] of [["response.created", { type: "response.created", sequence_number: n++, response: base }],
      ["response.output_item.done", { type: "response.output_item.done", sequence_number: n++, output_index: 0, item: msg }],
      ["response.completed", { type: "response.completed", sequence_number: n++, response: { ...base, status: "completed", output: [msg], usage } }]])
      r.write("event: " + e + "\ndata: " + JSON.stringify(d) + "\n\n");
    r.end();
  });
}).listen(0, "127.0.0.1", function () { fs.writeFileSync(path.join(dir, "port"), String(this.address().port)); });
setTimeout(() => process.exit(0), 300 * 1000);
JS
node "$work/fakeapi.js" "$work/api" &
api_pid=$!
trap 'kill $api_pid 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do [ -s "$work/api/port" ] && break; sleep 0.1; done
export CODEX_HOME=$HOME/.codex
mkdir -p "$CODEX_HOME"
cat >"$CODEX_HOME/config.toml" <<TOML
# My Codex settings — keep these comments.
model = "gpt-5"
model_provider = "e2e"

# The fake Responses API on loopback.
[model_providers.e2e]
name = "e2e"
base_url = "http://127.0.0.1:$(cat "$work/api/port")/v1"
wire_api = "responses"
TOML
cp "$CODEX_HOME/config.toml" "$work/config.toml.orig"
agent-skills --offline install java-basics --project --agent codex >/dev/null
echo "--- setup enable --host codex --write (codex on PATH)"
PATH=$work/codexbin:$PATH agent-skills setup enable --host codex --write
echo "--- ~/.codex/config.toml"
cat "$CODEX_HOME/config.toml"
echo "--- codex exec"
(cd "$work/proj" && timeout 120 "$codex_bin" exec --skip-git-repo-check "say ok" </dev/null 2>&1 | grep -v '^\s*$' | tail -n 12) || true
cat "$work"/api/req-*.json >"$work/requests-codex.json" 2>/dev/null || true
check "codex: the trusted hook's session index reached the model" "$work/requests-codex.json" 'Agent skills available \(1\)'
check "codex: the MCP server's tools were offered" "$work/requests-codex.json" 'search_skills'
grep -o 'Agent skills available[^"]\{0,100\}' "$work/requests-codex.json" | head -1 || true
grep -o '"[a-z_-]*search_skills"' "$work/requests-codex.json" | sort -u || true
PATH=$work/codexbin:$PATH agent-skills setup status --host codex
agent-skills setup disable --host codex --write | tail -1
if cmp -s "$work/config.toml.orig" "$CODEX_HOME/config.toml" && [ ! -e "$CODEX_HOME/hooks.json" ]; then
  echo "e2e-setup: ok: codex: config.toml is back to the user's bytes, hooks.json gone"
else
  echo "e2e-setup: FAIL: codex: disable did not give config.toml back:" >&2
  diff "$work/config.toml.orig" "$CODEX_HOME/config.toml" >&2 || true; fail=1
fi

[ "$fail" = 0 ] && echo "e2e-setup: ok" || { echo "e2e-setup: FAILED" >&2; exit 1; }
