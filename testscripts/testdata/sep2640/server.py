#!/usr/bin/env python3
"""A small SEP-2640 (MCP Skills Extension) server for agent-skills' tests.

It is an implementation independent of agent-skills: standard library
only, newline-delimited JSON-RPC 2.0 on stdin/stdout (the MCP stdio
transport). It serves two fixed skills:

  skill://acme/billing/refunds/SKILL.md   (three files, one binary)
  skill://greeting/SKILL.md               (SKILL.md only)

With --http it serves the same over streamable HTTP on 127.0.0.1 instead
(JSON responses, no sessions) and prints "PORT <n>" once listening.

SEP_FIXTURE selects a misbehaviour (default, or "none": none):

  tamper-bytes     resources/read returns one changed byte of
                   refunds/references/policy.md; the listing keeps the
                   digest of the real bytes
  tamper-digest    the listing gives policy.md a wrong digest
  tamper-size      the listing gives policy.md a wrong size
  frontmatter      the listing's frontmatter of refunds has another
                   description than its SKILL.md
  changed          policy.md has other bytes, and the listing their
                   true digest and size (a consistent change: a fresh
                   install takes it, a restore of the lock refuses it)
  no-capability    the server does not declare io.modelcontextprotocol/skills
  null-capability  it declares the extension as null, not as an object
  dynamic          refunds lists its resources as "dynamic"
  hang             the server reads requests and never answers
  escape           refunds lists a resource outside its skill root
  unlisted         skills/list leaves refunds out; skills/get still serves it
  paged            skills/list gives one skill a page, with nextCursor
  cursor-loop      skills/list returns the same nextCursor again and again

Every request line it reads is appended to $SEP_FIXTURE_LOG when set;
its process id is written to $SEP_FIXTURE_PIDFILE when set.
"""
import base64
import hashlib
import json
import os
import sys
import time

MODE = os.environ.get("SEP_FIXTURE", "")
LOG = os.environ.get("SEP_FIXTURE_LOG", "")

REFUNDS_MD = """---
name: refunds
description: Decide refunds by the acme billing policy.
metadata:
  owner: acme-billing
---
# Refunds

Read references/policy.md, then run scripts/check.sh.
"""

POLICY = "Refunds within 30 days are granted.\n"
if MODE == "changed":
    POLICY = "Refunds within 14 days are granted.\n"

CHECK_SH = b"#!/bin/sh\necho ok\n\x00\x01\x02binary-tail\xff\n"

GREETING_MD = """---
name: greeting
description: "Say hello \\e[31min red\\e[0m (an escape the CLI must neutralise)."
---
# Greeting

Say hello.
"""

SKILLS = [
    {
        "root": "skill://acme/billing/refunds",
        "frontmatter": {
            "name": "refunds",
            "description": "Decide refunds by the acme billing policy.",
            "metadata": {"owner": "acme-billing"},
        },
        "files": {
            "SKILL.md": REFUNDS_MD.encode(),
            "references/policy.md": POLICY.encode(),
            "scripts/check.sh": CHECK_SH,
        },
    },
    {
        "root": "skill://greeting",
        "frontmatter": {
            "name": "greeting",
            "description": "Say hello \x1b[31min red\x1b[0m (an escape the CLI must neutralise).",
        },
        "files": {"SKILL.md": GREETING_MD.encode()},
    },
]


def digest(b):
    return "sha256:" + hashlib.sha256(b).hexdigest()


def entry(skill):
    res = []
    for rel, data in skill["files"].items():
        r = {"uri": skill["root"] + "/" + rel, "digest": digest(data), "size": len(data)}
        if skill["root"].endswith("/refunds") and rel == "references/policy.md":
            if MODE == "tamper-digest":
                r["digest"] = "sha256:" + "0" * 64
            if MODE == "tamper-size":
                r["size"] = len(data) + 1
        res.append(r)
    fm = dict(skill["frontmatter"])
    is_refunds = skill["root"].endswith("/refunds")
    if is_refunds and MODE == "frontmatter":
        fm["description"] = "Something else entirely."
    if is_refunds and MODE == "escape":
        res.append({"uri": "skill://acme/billing/evil.md", "digest": digest(b"x"), "size": 1})
    out = {"uri": skill["root"] + "/SKILL.md", "frontmatter": fm, "resources": res}
    if is_refunds and MODE == "dynamic":
        out["resources"] = "dynamic"
    return out


def read(uri):
    for s in SKILLS:
        for rel, data in s["files"].items():
            if s["root"] + "/" + rel == uri:
                if MODE == "tamper-bytes" and rel == "references/policy.md":
                    data = data.replace(b"30", b"31")
                try:
                    return {"uri": uri, "mimeType": "text/markdown" if rel.endswith(".md") else "text/plain",
                            "text": data.decode("utf-8")}
                except UnicodeDecodeError:
                    return {"uri": uri, "mimeType": "application/octet-stream",
                            "blob": base64.b64encode(data).decode()}
    return None


def send_stdio(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


SEND = send_stdio


def reply(id_, result=None, error=None):
    msg = {"jsonrpc": "2.0", "id": id_}
    if error is not None:
        msg["error"] = error
    else:
        msg["result"] = result
    SEND(msg)


def handle(req):
    method = req.get("method")
    params = req.get("params") or {}
    if "id" not in req:
        return  # a notification
    id_ = req["id"]
    if method == "initialize":
        caps = {"resources": {}}
        if MODE == "null-capability":
            caps["extensions"] = {"io.modelcontextprotocol/skills": None}
        elif MODE != "no-capability":
            caps["extensions"] = {"io.modelcontextprotocol/skills": {}}
        reply(id_, {"protocolVersion": params.get("protocolVersion", "2025-11-25"),
                    "capabilities": caps,
                    "serverInfo": {"name": "sep2640-fixture", "version": "1.0.0"}})
    elif method == "ping":
        reply(id_, {})
    elif method == "skills/list" and MODE != "no-capability":
        listed = [s for s in SKILLS if not (MODE == "unlisted" and s["root"].endswith("/refunds"))]
        result = {"resultType": "complete", "skills": [entry(s) for s in listed],
                  "ttlMs": 60000, "cacheScope": "public"}
        if MODE in ("paged", "cursor-loop"):
            # One skill a page; cursor-loop hands out the same cursor forever.
            page = int(params.get("cursor") or "0")
            result["skills"] = [entry(listed[page])] if page < len(listed) else []
            if MODE == "cursor-loop":
                result["nextCursor"] = "1"
            elif page + 1 < len(listed):
                result["nextCursor"] = str(page + 1)
        reply(id_, result)
    elif method == "skills/get" and MODE != "no-capability":
        for s in SKILLS:
            if s["root"] + "/SKILL.md" == params.get("uri"):
                reply(id_, {"resultType": "complete", "skill": entry(s), "ttlMs": 60000, "cacheScope": "public"})
                return
        reply(id_, error={"code": -32602, "message": "unknown skill"})
    elif method == "resources/read":
        c = read(params.get("uri"))
        if c is None:
            reply(id_, error={"code": -32602, "message": "unknown resource"})
        else:
            reply(id_, {"contents": [c]})
    else:
        reply(id_, error={"code": -32601, "message": "method not found: %s" % method})


def serve_http():
    """Streamable HTTP on 127.0.0.1: each POST carries one JSON-RPC
    message and is answered with application/json (202 for a
    notification). Prints "PORT <n>" on stdout once listening."""
    import http.server

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            self.send_response(405)
            self.end_headers()

        def do_POST(self):
            global SEND
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            if LOG:
                with open(LOG, "a") as f:
                    f.write(body.decode() + " version=%s\n" % self.headers.get("Mcp-Protocol-Version"))
            req = json.loads(body)
            out = []
            SEND = out.append
            handle(req)
            if not out:
                self.send_response(202)
                self.end_headers()
                return
            data = json.dumps(out[0]).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    sys.stdout.write("PORT %d\n" % srv.server_address[1])
    sys.stdout.flush()
    srv.serve_forever()


def main():
    if "--http" in sys.argv[1:]:
        serve_http()
        return
    if os.environ.get("SEP_FIXTURE_PIDFILE"):
        with open(os.environ["SEP_FIXTURE_PIDFILE"], "w") as f:
            f.write("%d\n" % os.getpid())
    sys.stderr.write("sep2640-fixture: serving (mode %r)\n" % MODE)
    sys.stderr.flush()
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        if LOG:
            with open(LOG, "a") as f:
                f.write(line + "\n")
        if MODE == "hang":
            time.sleep(3600)
            continue
        handle(json.loads(line))


if __name__ == "__main__":
    main()
