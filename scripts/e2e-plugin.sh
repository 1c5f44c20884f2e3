#!/usr/bin/env bash
# e2e-plugin: build the bundled collection as host plugins and check them with
# the real Claude Code, which nobody here wrote:
#   1. `plugin build --with-mcp --with-hooks` → `claude plugin validate --strict`
#      on the marketplace and on the plugin;
#   2. `plugin submission --zip` twice → identical ZIP bytes, and
#      `claude plugin validate --strict --profile directory` on the folder;
#   3. the Codex and Copilot manifests against the shapes those hosts accepted
#      (docs/hosts.md: neither host has a validator);
#   4. `claude plugin marketplace add` + `claude plugin install P@M` in a scratch
#      HOME, then a real `claude -p` run by ../shared/tools/agent-oracle against
#      its fake model API: the recorded request must list every skill of the
#      plugin as "P:skill", offer the plugin's MCP tools, and carry the context of
#      the plugin's session-start hook.
# The oracle's parser prints the plugin name for "P:skill" lines, so step 4 reads
# the recorded request (AGENT_ORACLE_KEEP) itself.
#
# Needs node and npm. Claude Code comes from the oracle's package cache
# (AGENT_ORACLE_CACHE, default /tmp/agent-oracle-cache) at the version the oracle
# pins, installed there once when missing. No account, no traffic beyond the npm
# registry and loopback. Not run by CI.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
oracle=${AGENT_ORACLE:-$here/../shared/tools/agent-oracle}
[ -x "$oracle" ] || { echo "e2e-plugin: no agent-oracle at $oracle (set AGENT_ORACLE)" >&2; exit 2; }
cache=${AGENT_ORACLE_CACHE:-/tmp/agent-oracle-cache}
export AGENT_ORACLE_CACHE=$cache
pkg=$(sed -n 's/^CLAUDE_PKG="\(.*\)"$/\1/p' "$oracle")
[ -n "$pkg" ] || { echo "e2e-plugin: cannot read CLAUDE_PKG from $oracle" >&2; exit 2; }
claude=$cache/node_modules/.bin/claude
have=$(node -e 'try{console.log(require(process.argv[1]+"/node_modules/@anthropic-ai/claude-code/package.json").version)}catch(e){}' "$cache")
if [ "$have" != "${pkg##*@}" ] || [ ! -x "$claude" ]; then
  echo "e2e-plugin: installing $pkg into $cache" >&2
  mkdir -p "$cache"
  [ -f "$cache/package.json" ] || (cd "$cache" && npm init -y >/dev/null)
  (cd "$cache" && npm install --save-exact --no-audit --no-fund --loglevel=error "$pkg" >&2)
fi

work=$(mktemp -d)
[ -n "${E2E_PLUGIN_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/home" "$work/proj"
(cd "$here/cli" && go build -o "$work/bin/agent-skills" ./cmd/agent-skills)
export PATH=$work/bin:$PATH HOME=$work/home AGENT_SKILLS_HOME=$work/home/.agent-skills
export AGENT_SKILLS_NO_UPDATE_NOTIFIER=1 DISABLE_AUTOUPDATER=1
unset CLAUDE_CONFIG_DIR CODEX_HOME COPILOT_HOME
name=agent-skills-samples
fail=0
bad() { echo "e2e-plugin: FAIL: $*" >&2; fail=1; }
step() { echo; echo "--- $*"; }

echo "claude: $("$claude" --version)"
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

step "claude plugin marketplace add + plugin install in a scratch HOME"
"$claude" plugin marketplace add "$work/mkt" || bad "marketplace add failed"
"$claude" plugin install "$name@$name" || bad "plugin install failed"
# A skill installed for the session hook to report (the plugin's own skills
# are the host's to list, not the hook's).
agent-skills --offline install git-commit-messages --global --agent codex >/dev/null

step "agent-oracle --agent claude (real claude -p, fake model API)"
keep=$work/keep
AGENT_ORACLE_KEEP=$keep "$oracle" --agent claude --project "$work/proj" | grep -F "$name" | cut -c1-110 || true
req=$(ls "$keep"/claude/req-*.json 2>/dev/null | head -1)
[ -n "$req" ] || { bad "the oracle kept no request"; req=/dev/null; }
step "the recorded request, parsed here"
node - "$req" "$name" "$work/mkt/plugins/$name/skills" <<'EOF' || fail=1
const fs = require("fs");
const [req, name, skills] = process.argv.slice(2);
const text = fs.readFileSync(req, "utf8"), body = JSON.stringify(JSON.parse(text));
const strings = []; (function walk(v) { if (typeof v === "string") strings.push(v); else if (v && typeof v === "object") Object.values(v).forEach(walk); })(JSON.parse(text));
const all = strings.join("\n");
const listed = new Set([...all.matchAll(new RegExp("^- " + name + ":([a-z0-9-]+):", "gm"))].map((m) => m[1]));
const want = fs.readdirSync(skills).sort();
let bad = 0;
for (const s of want) { const ok = listed.has(s); console.log((ok ? "listed   " : "MISSING  ") + name + ":" + s); if (!ok) bad++; }
const tools = [...new Set([...body.matchAll(/mcp__plugin_[A-Za-z0-9_-]+/g)].map((m) => m[0]))].sort();
console.log("MCP tools offered: " + (tools.join(", ") || "none"));
if (!tools.some((t) => t.endsWith("__read_skill"))) { console.log("FAIL: the plugin's MCP server's read_skill was not offered"); bad++; }
const hook = all.match(/SessionStart hook additional context: [^\n]*/);
console.log(hook ? hook[0].slice(0, 160) : "FAIL: no context from the plugin's SessionStart hook");
if (!hook) bad++;
process.exit(bad ? 1 : 0);
EOF

[ "$fail" = 0 ] && echo && echo "e2e-plugin: ok" || { echo "e2e-plugin: FAILED" >&2; exit 1; }
