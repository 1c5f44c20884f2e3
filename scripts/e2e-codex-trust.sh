#!/usr/bin/env bash
# e2e-codex-trust: prove against the real Codex (the version the agent oracle
# pins) that a hook trusted the way setup trusts it runs in `codex exec`.
#
#   1. A scratch CODEX_HOME holds a hooks.json with two SessionStart hooks (a
#      marker script, and the built `agent-skills hook session-index --host
#      codex` with one skill installed for Codex in the project) and a
#      config.toml (with the user's comments) whose model provider is a fake
#      Responses API on 127.0.0.1 that records every request.
#   2. `codex exec` runs: the hooks are untrusted, so neither may run.
#   3. The Go half (TestE2ECodexTrust in cli/internal/codexapp) asks
#      `codex app-server` for each hook's key and currentHash (codexapp) and
#      writes [hooks.state."<key>"] trusted_hash = "<hash>" with tomledit;
#      the app-server then reports the hooks trusted.
#   4. `codex exec` runs again, without --dangerously-bypass-hook-trust: both
#      hooks must run and their additionalContext must reach the model.
#
# Codex is the version scripts/agent-versions pins (CODEX_PKG overrides it),
# taken from the agent oracle's package cache (AGENT_ORACLE_CACHE, default
# /tmp/agent-oracle-cache); when it is not there it is installed into that
# cache from npm, as the oracle does.
# Needs node, npm and go. Not run by CI. Traffic: npm (once) and loopback.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
pkg=${CODEX_PKG:-$(awk '$1 == "codex" {print $2}' "$here/scripts/agent-versions")}
cache=${AGENT_ORACLE_CACHE:-/tmp/agent-oracle-cache}
codex=$cache/node_modules/.bin/codex
want=${pkg##*@}
have=$(node -e 'try{console.log(require(process.argv[1]+"/node_modules/@openai/codex/package.json").version)}catch(e){}' "$cache")
if [ "$have" != "$want" ] || [ ! -x "$codex" ]; then
  echo "e2e-codex-trust: installing $pkg into $cache" >&2
  mkdir -p "$cache"
  [ -f "$cache/package.json" ] || (cd "$cache" && npm init -y >/dev/null)
  (cd "$cache" && npm install --save-exact --no-audit --no-fund --loglevel=error "$pkg" >&2)
fi
echo "e2e-codex-trust: $("$codex" --version 2>/dev/null) ($pkg)"

work=$(mktemp -d)
api_pid=
cleanup() {
  if [ -n "$api_pid" ]; then kill "$api_pid" 2>/dev/null || true; wait "$api_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
# go keeps using the real caches (the module is not fetched again); Codex and
# the hook see only the scratch HOME and CODEX_HOME.
GOMODCACHE=$(cd "$here/cli" && go env GOMODCACHE) GOCACHE=$(cd "$here/cli" && go env GOCACHE) GOPATH=$(cd "$here/cli" && go env GOPATH)
export GOMODCACHE GOCACHE GOPATH GOFLAGS=-mod=readonly
export HOME=$work/home CODEX_HOME=$work/codex-home
unset OPENAI_API_KEY OPENAI_BASE_URL CODEX_API_KEY
mkdir -p "$HOME" "$CODEX_HOME" "$work/proj" "$work/api" "$work/bin"
bin=$work/bin/agent-skills
(cd "$here/cli" && go build -o "$bin" ./cmd/agent-skills)
git -C "$work/proj" init -q
(cd "$work/proj" && AGENT_SKILLS_HOME=$HOME/.agent-skills AGENT_SKILLS_NO_UPDATE_NOTIFIER=1 \
  "$bin" --offline install java-basics --project --agent codex >/dev/null)

# The fake Responses API: answers "ok" to every turn and records the request.
cat >"$work/fakeapi.js" <<'JS'
const http = require("http"), fs = require("fs"), path = require("path");
const dir = process.argv[2];
let seq = 0;
const srv = http.createServer((q, r) => {
  const chunks = [];
  q.on("data", d => chunks.push(d)).on("end", () => {
    const raw = Buffer.concat(chunks).toString("utf8");
    fs.writeFileSync(path.join(dir, "req-" + String(++seq).padStart(4, "0") + ".json"), JSON.stringify({ method: q.method, url: q.url, body: raw }));
    if (q.method === "GET" && /\/models/.test(q.url)) {
      r.writeHead(200, { "content-type": "application/json" });
      return r.end(JSON.stringify({ object: "list", data: [{ id: "gpt-5", object: "model", created: 0, owned_by: "e2e" }] }));
    }
    if (!/\/responses/.test(q.url)) { r.writeHead(404); return r.end("{}"); }
    const msg = { id: "msg_e2e", type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", text: "ok", annotations: [] }] };
    const usage = { input_tokens: 1, input_tokens_details: { cached_tokens: 0 }, output_tokens: 1, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 2 };
    const base = { id: "resp_e2e", object: "response", created_at: 0, model: "gpt-5", output: [], status: "in_progress", usage: null };
    const done = { ...base, status: "completed", output: [msg], usage };
    let n = 0;
    const ev = [
      ["response.created", { type: "response.created", sequence_number: n++, response: base }],
      ["response.output_item.added", { type: "response.output_item.added", sequence_number: n++, output_index: 0, item: { ...msg, status: "in_progress", content: [] } }],
      ["response.output_text.delta", { type: "response.output_text.delta", sequence_number: n++, item_id: msg.id, output_index: 0, content_index: 0, delta: "ok" }],
      ["response.output_item.done", { type: "response.output_item.done", sequence_number: n++, output_index: 0, item: msg }],
      ["response.completed", { type: "response.completed", sequence_number: n++, response: done }]];
    r.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "close" });
    for (const [e, d] of ev) r.write("event: " + e + "\ndata: " + JSON.stringify(d) + "\n\n");
    r.end();
  });
});
srv.listen(0, "127.0.0.1", () => fs.writeFileSync(path.join(dir, "port"), String(srv.address().port)));
setTimeout(() => process.exit(0), 600 * 1000);
JS
node "$work/fakeapi.js" "$work/api" &
api_pid=$!
for _ in $(seq 100); do [ -s "$work/api/port" ] && break; sleep 0.1; done
port=$(cat "$work/api/port")

marker="H35TRUSTMARKER-$$"
cat >"$work/hook.sh" <<EOF
#!/bin/sh
cat >"$work/hook-ran.json"
printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"$marker"}}'
EOF
chmod +x "$work/hook.sh"
cat >"$CODEX_HOME/hooks.json" <<EOF
{"hooks":{"SessionStart":[{"hooks":[
  {"type":"command","command":"$work/hook.sh","timeout":10},
  {"type":"command","command":"AGENT_SKILLS_HOME=$HOME/.agent-skills AGENT_SKILLS_NO_UPDATE_NOTIFIER=1 $bin hook session-index --host codex","timeout":10}
]}]}}
EOF
cat >"$CODEX_HOME/config.toml" <<EOF
# My Codex settings — keep these comments.
model = "gpt-5"            # the fake API answers any model
model_provider = "e2e"

# The fake Responses API on loopback.
[model_providers.e2e]
name = "e2e"
base_url = "http://127.0.0.1:$port/v1"
wire_api = "responses"
EOF
cp "$CODEX_HOME/config.toml" "$work/config.before"

fail=0
run_exec() { # label
  echo "--- codex exec ($1)"
  rm -f "$work/hook-ran.json"
  local out rc=0
  out=$(cd "$work/proj" && timeout 120 "$codex" exec --skip-git-repo-check "say ok" 2>&1 </dev/null) || rc=$?
  printf '%s\n' "$out" | grep -v '^\s*$' | tail -n 15
  echo "(exit $rc)"
}
seen() { grep -l "$marker" "$work"/api/req-*.json 2>/dev/null | head -1; }
index='Agent skills available (1)'
seen_index() { grep -lF "$index" "$work"/api/req-*.json 2>/dev/null | head -1; }

run_exec "hook not trusted yet"
if [ -e "$work/hook-ran.json" ] || [ -n "$(seen)" ] || [ -n "$(seen_index)" ]; then
  echo "e2e-codex-trust: FAIL: an untrusted hook ran" >&2; fail=1
else
  echo "untrusted hooks: did not run; neither the marker nor the skill index was sent to the model (as expected)"
fi
rm -f "$work"/api/req-*.json

echo "--- trust through codex app-server + tomledit (TestE2ECodexTrust)"
(cd "$here/cli" && CODEXAPP_E2E_CODEX=$codex CODEXAPP_E2E_CWD=$work/proj CODEXAPP_E2E_HOOKS=2 \
  go test -count=1 -run '^TestE2ECodexTrust$' -v ./internal/codexapp/) || fail=1
echo "--- config.toml: diff before/after"
diff -u "$work/config.before" "$CODEX_HOME/config.toml" || true

run_exec "hook trusted"
if [ -e "$work/hook-ran.json" ]; then
  echo "trusted hook: ran; its stdin: $(head -c 400 "$work/hook-ran.json")"
else
  echo "e2e-codex-trust: FAIL: the trusted hook did not run" >&2; fail=1
fi
if req=$(seen) && [ -n "$req" ]; then
  echo "trusted hook: marker reached the model in $(basename "$req"): $(grep -o ".\{90\}$marker.\{0,20\}" "$req" | head -1)"
else
  echo "e2e-codex-trust: FAIL: the marker did not reach the model" >&2; fail=1
fi

if req=$(seen_index) && [ -n "$req" ]; then
  echo "trusted session-index: reached the model in $(basename "$req"): $(grep -oF "$index" "$req" | head -1)$(grep -o 'java-basics (installed:project)' "$req" | head -1 | sed 's/^/ … /')"
else
  echo "e2e-codex-trust: FAIL: agent-skills hook session-index --host codex did not reach the model" >&2; fail=1
fi

[ "$fail" = 0 ] && echo "e2e-codex-trust: ok" || { echo "e2e-codex-trust: FAILED" >&2; exit 1; }
