#!/usr/bin/env python3
"""Trusts every untrusted hook Codex lists, the way `setup enable --host codex` does.

Usage: codex_trust.py CODEX_BIN CWD
It asks `codex app-server` (stdio JSON-RPC: initialize, initialized, hooks/list) for each
hook's key and currentHash, appends `[hooks.state."<key>"] trusted_hash = "<hash>"` to
$CODEX_HOME/config.toml (a scratch file the e2e script wrote itself) and prints the keys.
Used only by scripts/e2e-evidence.sh while `setup enable --reads` is not in the build.
"""
import json
import os
import subprocess
import sys
import threading

codex, cwd = sys.argv[1], sys.argv[2]
p = subprocess.Popen([codex, "app-server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=subprocess.DEVNULL, cwd=cwd, text=True)
threading.Timer(60, p.kill).start()


def send(obj):
    p.stdin.write(json.dumps(obj) + "\n")
    p.stdin.flush()


send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"clientInfo": {"name": "e2e-evidence", "version": "0"}}})
send({"jsonrpc": "2.0", "method": "initialized"})
send({"jsonrpc": "2.0", "id": 2, "method": "hooks/list", "params": {"cwds": [cwd]}})
result = None
for line in p.stdout:
    try:
        msg = json.loads(line)
    except ValueError:
        continue
    if msg.get("id") == 2:
        result = msg.get("result")
        break
p.kill()
if result is None:
    sys.exit("codex_trust: no answer to hooks/list")
hooks = [h for d in result.get("data", result.get("entries", [])) for h in d.get("hooks", [])] if isinstance(result, dict) else []
if not hooks:
    sys.exit("codex_trust: hooks/list returned no hooks: " + json.dumps(result)[:400])
cfg = os.path.join(os.environ["CODEX_HOME"], "config.toml")
with open(cfg, "a", encoding="utf-8") as f:
    for h in hooks:
        print("codex_trust: %s %s %s" % (h.get("key"), h.get("eventName"), h.get("trustStatus")))
        if h.get("trustStatus") != "trusted":
            f.write('\n[hooks.state."%s"]\ntrusted_hash = "%s"\n' % (h["key"], h["currentHash"]))
