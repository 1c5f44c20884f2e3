#!/usr/bin/env bash
# e2e-plugin: build the bundled collection as host plugins and check them with
# the real agents, which nobody here wrote:
#   1. `plugin build --with-mcp --with-hooks` → `claude plugin validate --strict`
#      on the marketplace and on the plugin;
#   2. `plugin submission --zip` twice → identical ZIP bytes, and
#      `claude plugin validate --strict --profile directory` on the folder;
#   3. the Codex and Copilot manifests against the shapes those hosts accepted
#      (docs/hosts.md: neither host has a validator);
#   4. Claude Code: `claude plugin marketplace add` + `plugin install P@M` in a
#      scratch HOME, then a real `claude -p` run by ../shared/tools/agent-oracle
#      against its fake model API: the recorded request must list every skill as
#      "P:skill", offer the plugin's MCP tools and carry the context of the
#      plugin's session-start hook;
#   5. Codex: `codex plugin marketplace add` + `plugin add`; its model-visible
#      prompt (`codex debug prompt-input`, through the oracle) must list every
#      skill and the MCP server, and its app-server's hooks/list must show the
#      plugin's hooks/codex.json (Codex runs a plugin hook only once the user
#      trusts it, so the hook is not run here);
#   6. Copilot CLI: `copilot plugin marketplace add` + `plugin install`; a real
#      `copilot -p` (through the oracle) must list every skill and carry the
#      context of the plugin's copilot hook.
# A logging wrapper around agent-skills records which hook each host ran. The
# oracle's parser prints the plugin name for "P:skill" lines (Claude, Codex), so
# the script reads the recorded requests (AGENT_ORACLE_KEEP) itself.
#
# Needs node and npm. The agents come from the oracle's package cache
# (AGENT_ORACLE_CACHE, default /tmp/agent-oracle-cache) at the versions the
# oracle pins, installed there once when missing. No account, no traffic beyond
# the npm registry and loopback. E2E_PLUGIN_KEEP=1 keeps the work folder. Not
# run by CI.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
oracle=${AGENT_ORACLE:-$here/../shared/tools/agent-oracle}
[ -x "$oracle" ] || { echo "e2e-plugin: no agent-oracle at $oracle (set AGENT_ORACLE)" >&2; exit 2; }
cache=${AGENT_ORACLE_CACHE:-/tmp/agent-oracle-cache}
export AGENT_ORACLE_CACHE=$cache
ensure() { # $1 = the oracle's variable (CLAUDE_PKG), $2 = the npm package
  local spec have
  spec=$(sed -n "s/^$1=\"\(.*\)\"\$/\1/p" "$oracle")
  [ -n "$spec" ] || { echo "e2e-plugin: cannot read $1 from $oracle" >&2; exit 2; }
  have=$(node -e 'try{console.log(require(process.argv[1]+"/node_modules/"+process.argv[2]+"/package.json").version)}catch(e){}' "$cache" "$2")
  if [ "$have" != "${spec##*@}" ]; then
    echo "e2e-plugin: installing $spec into $cache" >&2
    mkdir -p "$cache"
    [ -f "$cache/package.json" ] || (cd "$cache" && npm init -y >/dev/null)
    (cd "$cache" && npm install --save-exact --no-audit --no-fund --loglevel=error "$spec" >&2)
  fi
}
ensure CLAUDE_PKG @anthropic-ai/claude-code
ensure CODEX_PKG @openai/codex
ensure COPILOT_PKG @github/copilot
claude=$cache/node_modules/.bin/claude
codex=$cache/node_modules/.bin/codex
copilot=$cache/node_modules/.bin/copilot

work=$(mktemp -d)
[ -n "${E2E_PLUGIN_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/real" "$work/proj"
(cd "$here/cli" && go build -o "$work/real/agent-skills" ./cmd/agent-skills)
# The hosts run agent-skills from PATH: this wrapper logs every call.
calls=$work/calls.log
printf '#!/bin/sh\necho "$*" >>"%s"\nexec "%s" "$@"\n' "$calls" "$work/real/agent-skills" >"$work/bin/agent-skills"
chmod +x "$work/bin/agent-skills"
export PATH=$work/bin:$PATH AGENT_SKILLS_NO_UPDATE_NOTIFIER=1 DISABLE_AUTOUPDATER=1
unset CLAUDE_CONFIG_DIR CODEX_HOME COPILOT_HOME
name=agent-skills-samples
keep=$work/keep
fail=0
bad() { echo "e2e-plugin: FAIL: $*" >&2; fail=1; }
step() { echo; echo "--- $*"; }
# fresh HOST: a scratch HOME of its own, holding one globally installed skill
# that is not in the plugin, for the session hook to report (the plugin's
# skills are the host's to list, not the hook's).
mkdir -p "$work/extra/e2e-hook-probe"
printf -- '---\nname: e2e-hook-probe\ndescription: A probe the session hook reports. Use when testing plugins.\n---\n# Probe\n' \
  >"$work/extra/e2e-hook-probe/SKILL.md"
fresh() {
  export HOME=$work/home-$1 AGENT_SKILLS_HOME=$work/home-$1/.agent-skills
  mkdir -p "$HOME"
  agent-skills --offline install "$work/extra/e2e-hook-probe" --global --agent codex >/dev/null
  : >"$calls"
}
fresh build

echo "claude $("$claude" --version); codex $("$codex" --version 2>/dev/null); copilot $("$copilot" --version 2>/dev/null | head -1)"
step "plugin build skills/ --with-mcp --with-hooks"
agent-skills plugin build "$here/skills" --out "$work/mkt" --name "$name" --with-mcp --with-hooks
step "claude plugin validate --strict (marketplace)"
"$claude" plugin validate --strict "$work/mkt" || bad "the marketplace did not validate"
step "claude plugin validate --strict (plugin)"
"$claude" plugin validate --strict "$work/mkt/plugins/$name" || bad "the plugin did not validate"

step "plugin submission --zip, twice"
agent-skills plugin submission "$here/skills" --out "$work/sub1" --name "$name" --zip
agent-skills plugin submission "$here/skills" --out "$work/sub2" --name "$name" --zip
if cmp "$work/sub1.zip" "$work/sub2.zip"; then echo "the two ZIPs are identical ($(wc -c <"$work/sub1.zip") bytes)"; else bad "two submissions gave different ZIPs"; fi
step "claude plugin validate --strict --profile directory (submission)"
"$claude" plugin validate --strict --profile directory "$work/sub1" || bad "the submission did not validate"

step "Codex and Copilot manifests against the shapes the hosts accepted"
node - "$work/mkt" "$name" <<'EOF' || fail=1
const fs = require("fs"), path = require("path");
const [dir, name] = process.argv.slice(2), root = path.join(dir, "plugins", name);
let bad = 0;
const read = (p) => JSON.parse(fs.readFileSync(path.join(dir, p), "utf8"));
const want = (ok, what) => { console.log((ok ? "ok   " : "FAIL ") + what); if (!ok) bad++; };
const inside = (p) => typeof p === "string" && fs.existsSync(path.join(root, p)) && !path.relative(root, path.join(root, p)).startsWith("..");
const cm = read(".agents/plugins/marketplace.json"), e = cm.plugins && cm.plugins[0];
want(cm.name === name && e && e.name === name, "codex marketplace: name and one plugin entry");
want(e && e.source && e.source.source === "local" && e.source.path === "./plugins/" + name, "codex marketplace: source {source: local, path: ./plugins/NAME}");
want(e && e.policy && e.policy.installation === "AVAILABLE" && typeof e.category === "string", "codex marketplace: policy.installation and category");
const cx = read(`plugins/${name}/.codex-plugin/plugin.json`);
want(cx.name === name && cx.version && cx.description && cx.author && cx.author.name, "codex plugin.json: name, version, description, author");
for (const k of ["skills", "mcpServers", "hooks"]) want(typeof cx[k] === "string" && cx[k].startsWith("./") && inside(cx[k]), `codex plugin.json: ${k} is ./… inside the plugin`);
want(cx.interface && cx.interface.displayName, "codex plugin.json: interface.displayName");
const ch = JSON.parse(fs.readFileSync(path.join(root, cx.hooks), "utf8"));
const cmd = ch.hooks && ch.hooks.SessionStart && ch.hooks.SessionStart[0].hooks[0];
want(Object.keys(ch).join() === "hooks" && cmd && cmd.type === "command" && /--host codex$/.test(cmd.command), "codex hooks: only `hooks`, SessionStart command --host codex");
const cp = read(`plugins/${name}/plugin.json`);
want(cp.name === name && cp.version && cp.description && cp.author, "copilot plugin.json: name, version, description, author");
for (const k of ["skills", "mcpServers", "hooks"]) want(inside(cp[k]), `copilot plugin.json: ${k} inside the plugin`);
const ph = JSON.parse(fs.readFileSync(path.join(root, cp.hooks), "utf8")), ps = ph.hooks && ph.hooks.sessionStart && ph.hooks.sessionStart[0];
want(ph.version === 1 && ps && ps.type === "command" && /--host copilot$/.test(ps.bash), "copilot hooks: version 1, sessionStart bash … --host copilot");
const mcp = JSON.parse(fs.readFileSync(path.join(root, ".mcp.json"), "utf8")).mcpServers["agent-skills"];
want(mcp && mcp.command === "agent-skills" && mcp.args.join(" ") === "mcp serve", ".mcp.json: agent-skills mcp serve");
process.exit(bad ? 1 : 0);
EOF

# listed KIND FILE: every skill of the plugin must appear as "- P:skill:" in
# the strings of the recorded JSON FILE; KIND=claude also wants the MCP tools
# and the hook context, KIND=codex the MCP server line.
listed() {
  node - "$1" "$2" "$name" "$work/mkt/plugins/$name/skills" <<'JS'
const fs = require("fs");
const [kind, file, name, skills] = process.argv.slice(2);
const text = fs.readFileSync(file, "utf8");
const strings = []; (function walk(v) { if (typeof v === "string") strings.push(v); else if (v && typeof v === "object") Object.values(v).forEach(walk); })(JSON.parse(text));
const all = strings.join("\n");
const got = new Set([...all.matchAll(new RegExp("^- " + name + ":([a-z0-9-]+):", "gm"))].map((m) => m[1]));
let bad = 0;
const need = (ok, line) => { console.log(line); if (!ok) bad++; };
for (const s of fs.readdirSync(skills).sort()) need(got.has(s), (got.has(s) ? "listed   " : "MISSING  ") + name + ":" + s);
if (kind === "claude") {
  const tools = [...new Set([...text.matchAll(/mcp__plugin_[A-Za-z0-9_-]+/g)].map((m) => m[0]))].sort();
  need(tools.some((t) => t.endsWith("__read_skill")), "MCP tools offered: " + (tools.join(", ") || "none"));
  const hook = all.match(/SessionStart hook additional context: [^]*?e2e-hook-probe[^\n]*/);
  need(hook, hook ? hook[0].replace(/\n/g, " | ").slice(0, 400) : "no context from the plugin's SessionStart hook naming e2e-hook-probe");
} else {
  const mcp = all.match(/^- mcp__agent_skills: .{0,60}/m);
  need(mcp, mcp ? mcp[0] + "…" : "the plugin's MCP server is not in the prompt");
}
process.exit(bad ? 1 : 0);
JS
}

step "Claude Code: claude plugin marketplace add + plugin install in a scratch HOME"
fresh claude
"$claude" plugin marketplace add "$work/mkt" || bad "marketplace add failed"
"$claude" plugin install "$name@$name" || bad "plugin install failed"
step "agent-oracle --agent claude (real claude -p, fake model API), the request parsed here"
AGENT_ORACLE_KEEP=$keep "$oracle" --agent claude --project "$work/proj" >"$work/oracle-claude.txt" || bad "the oracle failed for claude"
listed claude "$(ls "$keep"/claude/req-*.json | head -1)" || fail=1
echo "agent-skills calls: $(tr '\n' ';' <"$calls")"
grep -qx 'hook session-index --host claude' "$calls" || bad "Claude did not run the plugin's claude hook"

step "Codex: codex plugin marketplace add + plugin add in a scratch HOME"
fresh codex
"$codex" plugin marketplace add "$work/mkt" 2>/dev/null || bad "codex marketplace add failed"
"$codex" plugin add "$name@$name" 2>/dev/null || bad "codex plugin add failed"
step "agent-oracle --agent codex (codex debug prompt-input), the prompt parsed here"
AGENT_ORACLE_KEEP=$keep "$oracle" --agent codex --project "$work/proj" >"$work/oracle-codex.txt" 2>/dev/null || bad "the oracle failed for codex"
listed codex "$keep/codex/prompt.json" || fail=1
step "codex app-server hooks/list: the plugin hook Codex loaded"
hooks=$( (printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"e2e","version":"0"}}}' \
  '{"jsonrpc":"2.0","method":"initialized"}' \
  "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"hooks/list\",\"params\":{\"cwds\":[\"$work/proj\"]}}"; sleep 5) \
  | (cd "$work/proj" && timeout 60 "$codex" app-server 2>/dev/null) | grep '"id":2' || true)
node -e '
const r = (JSON.parse(process.argv[1] || "{}").result) || {data: []};
const hs = r.data.flatMap((d) => d.hooks).filter((h) => h.source === "plugin");
for (const h of hs) console.log(`${h.key}  command=${JSON.stringify(h.command)}  trustStatus=${h.trustStatus}`);
process.exit(hs.length === 1 && / --host codex$/.test(hs[0].command) && /:hooks\/codex\.json:/.test(hs[0].key) ? 0 : 1);
' "$hooks" || bad "Codex did not load exactly the plugin's hooks/codex.json"

step "Copilot CLI: copilot plugin marketplace add + plugin install in a scratch HOME"
fresh copilot
export COPILOT_OFFLINE=true COPILOT_AUTO_UPDATE=false COPILOT_PKG_CACHE_HOME=$cache/copilot-pkg
"$copilot" plugin marketplace add "$work/mkt" || bad "copilot marketplace add failed"
"$copilot" plugin install "$name@$name" || bad "copilot plugin install failed"
step "agent-oracle --agent copilot (real copilot -p, fake model API)"
AGENT_ORACLE_KEEP=$keep "$oracle" --agent copilot --project "$work/proj" >"$work/oracle-copilot.txt" || bad "the oracle failed for copilot"
for s in $(ls "$work/mkt/plugins/$name/skills"); do
  if cut -f2 "$work/oracle-copilot.txt" | grep -qx "$s"; then echo "listed   $s"; else echo "MISSING  $s"; fail=1; fi
done
ctx=$(grep -o 'Agent skills available ([0-9]*)[^"]*e2e-hook-probe[^\\]*' "$keep"/copilot/req-*.json | head -1 || true)
echo "hook context in the request: ${ctx:-none}"
[ -n "$ctx" ] || bad "the context of the plugin's copilot hook did not reach the model"
echo "agent-skills calls: $(tr '\n' ';' <"$calls")"
grep -qx 'hook session-index --host copilot' "$calls" || bad "Copilot did not run the plugin's copilot hook"
if grep -q -- '--host claude' "$calls"; then bad "Copilot also ran the claude hook"; fi

if [ "$fail" = 0 ]; then echo; echo "e2e-plugin: ok"; else echo "e2e-plugin: FAILED" >&2; exit 1; fi
