#!/usr/bin/env python3
"""A fake model API on loopback for scripts/e2e-evidence.sh.

It speaks just enough of four wire protocols for the real agents to run one tool call:
Anthropic Messages (Claude Code), OpenAI Responses (Codex), OpenAI chat/completions
(Copilot CLI in BYOK mode) and the Gemini API (Gemini CLI). The first request that offers
the wanted tool and carries no tool result yet is answered with one call of that tool; every
other request is answered with the text "done". So the run is deterministic: one tool call,
then text.

Usage: fakeapi.py DIR SCENARIO.json
SCENARIO.json: {"tools": {"<tool name>": {<arguments>}, ...}} -- the first tool name that
the request offers is the one called (Codex's shell tool has had several names).
Every request is saved as DIR/req-NNNN.json; the port is written to DIR/port. The server
listens on 127.0.0.1 only and exits after LIFE seconds (env FAKEAPI_LIFE, default 300).
"""
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DIR, SCENARIO = sys.argv[1], sys.argv[2]
with open(SCENARIO, encoding="utf-8") as f:
    WANT = json.load(f)["tools"]
LOCK = threading.Lock()
SEQ = [0]


def offered(names):
    """The first wanted tool that is among names, with its arguments, or (None, None)."""
    for name, args in WANT.items():
        if name in names:
            return name, args
    return None, None


def walk(v):
    if isinstance(v, dict):
        yield v
        for x in v.values():
            yield from walk(x)
    elif isinstance(v, list):
        for x in v:
            yield from walk(x)


def has_key_value(body, key, values):
    return any(d.get(key) in values for d in walk(body))


class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def send_json(self, code, obj):
        data = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.send_header("connection", "close")
        self.end_headers()
        self.wfile.write(data)

    def send_sse(self, events):
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.send_header("connection", "close")
        self.end_headers()
        for ev, data in events:
            s = ("event: %s\n" % ev if ev else "") + "data: " + (data if isinstance(data, str) else json.dumps(data)) + "\n\n"
            self.wfile.write(s.encode())
        self.wfile.flush()
        self.close_connection = True

    def record(self, body, raw):
        with LOCK:
            SEQ[0] += 1
            n = SEQ[0]
        hdr = {k: ("<redacted>" if any(w in k.lower() for w in ("auth", "key", "token", "cookie")) else v)
               for k, v in self.headers.items()}
        with open(os.path.join(DIR, "req-%04d.json" % n), "w", encoding="utf-8") as f:
            json.dump({"method": self.command, "url": self.path, "headers": hdr,
                       "body": body if body is not None else raw}, f)

    def do_GET(self):
        self.record(None, "")
        if "/models" in self.path:
            if "v1beta" in self.path or "v1alpha" in self.path:
                return self.send_json(200, {"models": []})
            return self.send_json(200, {"object": "list", "data": [{"id": "fake-model", "object": "model", "created": 0, "owned_by": "fake"}]})
        self.send_json(404, {"error": {"message": "not found"}})

    def do_POST(self):
        n = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(n).decode("utf-8", "replace")
        try:
            body = json.loads(raw) if raw else {}
        except ValueError:
            body = None
        self.record(body, raw)
        body = body if isinstance(body, dict) else {}
        u = self.path
        if "/messages/count_tokens" in u:
            return self.send_json(200, {"input_tokens": 1})
        if u.split("?")[0].endswith("/messages"):
            return self.anthropic(body)
        if "/chat/completions" in u:
            return self.chat(body)
        if u.split("?")[0].endswith("/responses"):
            return self.openai_responses(body)
        if "/models/" in u and ":" in u.rsplit("/", 1)[-1]:
            return self.gemini(body, u)
        self.send_json(404, {"error": {"message": "not found"}})

    # ---- Anthropic Messages ----
    def anthropic(self, b):
        model = b.get("model", "claude-sonnet-4-5")
        usage = {"input_tokens": 1, "output_tokens": 1}
        names = [t.get("name") for t in b.get("tools") or [] if isinstance(t, dict)]
        name, args = offered(names)
        if name and not has_key_value(b.get("messages"), "type", ("tool_result",)):
            block, stop = {"type": "tool_use", "id": "toolu_e2e", "name": name, "input": args}, "tool_use"
        else:
            block, stop = {"type": "text", "text": "done"}, "end_turn"
        msg = {"id": "msg_e2e", "type": "message", "role": "assistant", "model": model,
               "content": [block], "stop_reason": stop, "stop_sequence": None, "usage": usage}
        if not b.get("stream"):
            return self.send_json(200, msg)
        start = dict(block, input={}) if block["type"] == "tool_use" else dict(block, text="")
        delta = ({"type": "input_json_delta", "partial_json": json.dumps(args)} if block["type"] == "tool_use"
                 else {"type": "text_delta", "text": "done"})
        self.send_sse([
            ("message_start", {"type": "message_start", "message": dict(msg, content=[], stop_reason=None)}),
            ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": start}),
            ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            ("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None}, "usage": {"output_tokens": 1}}),
            ("message_stop", {"type": "message_stop"})])

    # ---- OpenAI chat/completions ----
    def chat(self, b):
        model, created = b.get("model", "gpt-4.1"), int(time.time())
        usage = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
        names = [(t.get("function") or {}).get("name") for t in b.get("tools") or [] if isinstance(t, dict)]
        name, args = offered(names)
        if name and not has_key_value(b.get("messages"), "role", ("tool",)):
            call = {"index": 0, "id": "call_e2e", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
            message, finish = {"role": "assistant", "content": None, "tool_calls": [call]}, "tool_calls"
        else:
            message, finish = {"role": "assistant", "content": "done"}, "stop"
        base = {"id": "chatcmpl-e2e", "created": created, "model": model}
        if not b.get("stream"):
            return self.send_json(200, dict(base, object="chat.completion", usage=usage,
                                            choices=[{"index": 0, "message": message, "finish_reason": finish}]))
        chunk = lambda delta, fin, **kw: dict(base, object="chat.completion.chunk", choices=[{"index": 0, "delta": delta, "finish_reason": fin}], **kw)
        self.send_sse([(None, chunk(message, None)), (None, chunk({}, finish, usage=usage)), (None, "[DONE]")])

    # ---- OpenAI Responses ----
    def openai_responses(self, b):
        model = b.get("model", "gpt-5")
        names = [t.get("name") for t in b.get("tools") or [] if isinstance(t, dict)]
        name, args = offered(names)
        if name and not has_key_value(b.get("input"), "type", ("function_call_output", "custom_tool_call_output")):
            item = {"id": "fc_e2e", "type": "function_call", "status": "completed", "call_id": "call_e2e",
                    "name": name, "arguments": json.dumps(args)}
        else:
            item = {"id": "msg_e2e", "type": "message", "status": "completed", "role": "assistant",
                    "content": [{"type": "output_text", "text": "done", "annotations": []}]}
        usage = {"input_tokens": 1, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 1,
                 "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 2}
        base = {"id": "resp_e2e", "object": "response", "created_at": int(time.time()), "model": model,
                "output": [], "status": "in_progress", "usage": None}
        done = dict(base, status="completed", output=[item], usage=usage)
        if not b.get("stream"):
            return self.send_json(200, done)
        self.send_sse([
            ("response.created", {"type": "response.created", "sequence_number": 0, "response": base}),
            ("response.output_item.added", {"type": "response.output_item.added", "sequence_number": 1, "output_index": 0, "item": item}),
            ("response.output_item.done", {"type": "response.output_item.done", "sequence_number": 2, "output_index": 0, "item": item}),
            ("response.completed", {"type": "response.completed", "sequence_number": 3, "response": done})])

    # ---- Gemini API ----
    def gemini(self, b, u):
        if ":countTokens" in u:
            return self.send_json(200, {"totalTokens": 1})
        if "mbedContent" in u:
            return self.send_json(200, {"embedding": {"values": [0]}, "embeddings": [{"values": [0]}]})
        gc = b.get("generationConfig") or {}
        wants_json = "json" in str(gc.get("responseMimeType", "")) or gc.get("responseSchema") or gc.get("responseJsonSchema")
        names = [d.get("name") for t in b.get("tools") or [] for d in (t.get("functionDeclarations") or [])]
        name, args = offered(names)
        if wants_json:
            part = {"text": "{}"}
        elif name and not any("functionResponse" in d for d in walk(b.get("contents"))):
            part = {"functionCall": {"name": name, "args": args}}
        else:
            part = {"text": "done"}
        resp = {"candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}],
                "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
                "modelVersion": "gemini-fake"}
        if ":streamGenerateContent" in u:
            if "alt=sse" in u:
                return self.send_sse([(None, resp)])
            return self.send_json(200, [resp])
        self.send_json(200, resp)


srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
with open(os.path.join(DIR, "port.tmp"), "w") as f:
    f.write(str(srv.server_address[1]))
os.replace(os.path.join(DIR, "port.tmp"), os.path.join(DIR, "port"))
threading.Timer(float(os.environ.get("FAKEAPI_LIFE", "300")), lambda: os._exit(0)).start()
srv.serve_forever()
