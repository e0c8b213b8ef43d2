#!/usr/bin/env python3
"""Loopback HTTP/1.1 server for the tests (standard library only).

Started by the tests as `python3 loopback_server.py [--corpus DIR]` on
127.0.0.1 with an ephemeral port; the first line it prints is `PORT <n>`.
It stops when stdin closes (the test process ended or closed the pipe) or on
SIGTERM, so a crashed test run never leaves it behind.

What it serves is chosen by the path prefix of the base URL the test gives the
client, so one server handles tests running in parallel:

  POST /replay/<FILE>/<MODE>/v1/messages    a corpus recording, MODE is
        whole | bytes | random-<seed> | chunk-<n>; chunked transfer encoding,
        one HTTP chunk per piece, small random delays for `random-*`.
  POST /fault/<NAME>[/<FILE>]/v1/messages   an injected failure:
        429 (retry-after: 1), 529, 400-overflow, 400, 401, 403, 404, 413, 500,
        418 (an unlisted status), 401-echo (the credential echoed in the
        message), 429-then-ok / 529-then-ok (fail once per
        test id, then serve FILE), disconnect (FILE cut inside an event, then
        the socket closed without the last chunk), stall (half of FILE, then
        silence for 30 s), error-event (an `error` event after half of FILE),
        huge (one 8 MiB text delta), slow (FILE in 256-byte pieces, 100 ms apart).
      Hostile answers (FILE is a port for the redirects):
        redirect-307 / redirect-302 (to /echo on 127.0.0.1:FILE), error-event-echo
        (an `error` event quoting the credential), 401-cut-echo (a text body
        whose 200th byte falls inside the key, a `request-id` ending in a
        cut-off key), 500-huge (64 MiB of body at about 32 MB/s, faster than a
        real link but slow enough that the client closing, not URLSession's
        read-ahead on loopback, decides how much is sent; counted in /_sent),
        not-sse-html / not-sse-json (200 but not an event stream; the JSON
        is an API error quoting the key), not-sse-no-type / sse-no-type
        (200 without a content-type: an HTML page, a good stream), gzip-bomb (a gzip body, sent
        whatever accept-encoding asked, that expands to 64 MiB of one delta),
        gzip-bomb-1g[/STATUS] (1 MB of gzip that expands to 1 GiB of `data: AAAA…`,
        as an event stream with status STATUS, 200 by default).
  POST /echo/v1/messages                    a tiny stream whose text is the
        sha256 of the request body (so the client can be checked end to end).
  GET  /models/<ID>/v1/models/<ID>          a Models API answer with capabilities.
  GET  /fault/redirect-30x/<PORT>/v1/models/<ID>   a redirect to that answer on PORT.
  POST /bench/<N>/v1/messages               a synthetic stream of about N MiB
        of text deltas written in 64 KiB pieces as fast as possible.
  POST /<ROUTE>/model/<ID>/invoke-with-response-stream    Amazon Bedrock, in the
        AWS event-stream framing (application/vnd.amazon.eventstream); ROUTE is
        bedrock-echo (the echo stream's events as `chunk` frames),
        bedrock-replay/<FILE>/<MODE> (a recording from
        ../bedrock-eventstream/recorded/bedrock, pieces as for replay),
        bedrock-exception (half the echo stream, then a throttlingException
        frame) or bedrock-403-echo (a 403 JSON body repeating the credential).
  POST /<ROUTE>/v1/projects/<P>/locations/<R>/publishers/anthropic/models/<M>:streamRawPredict
        Google Vertex AI (plain SSE); ROUTE is vertex-echo.
  GET  /_requests                           every request so far as JSON
        (method, path, headers, body as text).
  GET  /_sent                               [{"path", "sent", "complete", "done"}]
        for each 500-huge answer: body bytes written before the client closed.

An optional `t-<id>/` segment first in the path is ignored for routing but
scopes the *-then-ok faults.

Scripts: a test says what each request gets back, then reads what was sent.
Each test uses its own script id:

  PUT  /s/<id>                 the script: a JSON array of answers, served in
                               order to the POSTs under /s/<id>/ (one each).
  POST /s/<id>/v1/messages     (or .../count_tokens, or any path) takes the
                               next answer; an exhausted script answers 500.
  GET  /s/<id>/requests        the path, body, headers and arrival time (the
                               server's monotonic clock, in seconds) of every
                               POST so far.

An answer is an object:
  status        HTTP status (200 default)
  body          the body text, or
  file          a file whose bytes are the body
  content_type  (text/event-stream for 200, else application/json)
  headers       extra headers, {"name": "value"}
  drop_after    send only this many body bytes, then close the socket
  pieces        send the body in pieces of this many bytes
  hold          seconds to wait after the first piece (a slow stream)
  interval      seconds to wait between pieces (a trickle)
  reset         true: read the request, then reset the connection (RST)
                without a byte of answer
"""

import gzip
import hashlib
import json
import os
import random
import signal
import socket
import struct
import sys
import threading
import time
import zlib
import base64
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CORPUS = None
REQUESTS = []
REQUESTS_LOCK = threading.Lock()
FAILED_ONCE = set()
SENT = []
SCRIPTS = {}
SCRIPT_REQUESTS = {}


GIGABYTE_BOMB = None
GIGABYTE_BOMB_LOCK = threading.Lock()


def gigabyte_gzip_bomb():
    """1 MB of gzip inflating to 1 GiB: one compressed MiB of `A` after a
    full flush is the same bytes every time, so it is built once and
    repeated (0.25 s, where compressing the whole GiB takes 3 s)."""
    global GIGABYTE_BOMB
    with GIGABYTE_BOMB_LOCK:
        if GIGABYTE_BOMB is None:
            piece = b"A" * (1 << 20)
            pieces = 1024
            c = zlib.compressobj(9, zlib.DEFLATED, -15)
            head = c.compress(b"data: ") + c.compress(piece) + c.flush(zlib.Z_FULL_FLUSH)
            repeat = c.compress(piece) + c.flush(zlib.Z_FULL_FLUSH)
            tail = c.compress(b"\n\n") + c.flush(zlib.Z_FINISH)
            crc = zlib.crc32(b"data: ")
            for _ in range(pieces):
                crc = zlib.crc32(piece, crc)
            crc = zlib.crc32(b"\n\n", crc)
            size = 6 + pieces * len(piece) + 2
            GIGABYTE_BOMB = (b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff" + head + repeat * (pieces - 1) + tail
                             + struct.pack("<II", crc & 0xFFFFFFFF, size & 0xFFFFFFFF))
        return GIGABYTE_BOMB


def sse(event, payload):
    return ("event: %s\ndata: %s\n\n" % (event, json.dumps(payload, separators=(",", ":")))).encode()


def text_stream(text, model="claude-loopback"):
    """A complete, well-formed stream whose single text block is `text`."""
    out = [
        sse("message_start", {"type": "message_start", "message": {
            "id": "msg_loopback", "type": "message", "role": "assistant", "content": [],
            "model": model, "stop_reason": None, "stop_sequence": None,
            "usage": {"input_tokens": 3, "output_tokens": 1}}}),
        sse("content_block_start", {"type": "content_block_start", "index": 0,
                                    "content_block": {"type": "text", "text": ""}}),
        sse("content_block_delta", {"type": "content_block_delta", "index": 0,
                                    "delta": {"type": "text_delta", "text": text}}),
        sse("content_block_stop", {"type": "content_block_stop", "index": 0}),
        sse("message_delta", {"type": "message_delta",
                              "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                              "usage": {"output_tokens": 7}}),
        sse("message_stop", {"type": "message_stop"}),
    ]
    return b"".join(out)


def bench_stream(mebibytes):
    """About `mebibytes` MiB of small text deltas, like a long real answer."""
    head = sse("message_start", {"type": "message_start", "message": {
        "id": "msg_bench", "type": "message", "role": "assistant", "content": [],
        "model": "claude-bench", "stop_reason": None, "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1}}})
    head += sse("content_block_start", {"type": "content_block_start", "index": 0,
                                        "content_block": {"type": "text", "text": ""}})
    delta = sse("content_block_delta", {"type": "content_block_delta", "index": 0,
                                        "delta": {"type": "text_delta", "text": "lorem ipsum dolor sit amet, " * 3}})
    count = max(1, (mebibytes << 20) // len(delta))
    tail = sse("content_block_stop", {"type": "content_block_stop", "index": 0})
    tail += sse("message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn"},
                                  "usage": {"output_tokens": count}})
    tail += sse("message_stop", {"type": "message_stop"})
    return head + delta * count + tail


def event_stream_message(headers, payload):
    """One AWS event-stream message: prelude, string headers, payload, CRCs."""
    block = b""
    for name, value in headers:
        n, v = name.encode(), value.encode()
        block += bytes([len(n)]) + n + b"\x07" + struct.pack(">H", len(v)) + v
    total = 16 + len(block) + len(payload)
    prelude = struct.pack(">II", total, len(block))
    prelude += struct.pack(">I", zlib.crc32(prelude))
    message = prelude + block + payload
    return message + struct.pack(">I", zlib.crc32(message))


def bedrock_frames(sse_bytes):
    """The events of an SSE body as Bedrock `chunk` frames (with `p` padding)."""
    out = b""
    for block in sse_bytes.split(b"\n\n"):
        data = [line[6:] for line in block.split(b"\n") if line.startswith(b"data: ")]
        if not data:
            continue
        event = b"\n".join(data)
        payload = json.dumps({"bytes": base64.b64encode(event).decode(), "p": "abcdefghij"[:len(event) % 10]}).encode()
        out += event_stream_message([(":event-type", "chunk"), (":content-type", "application/json"),
                                     (":message-type", "event")], payload)
    return out


def error_body(kind, message):
    return json.dumps({"type": "error", "error": {"type": kind, "message": message},
                       "request_id": "req_loopback_body"}).encode()


HTTP_FAULTS = {
    "429": (429, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit"),
    "529": (529, "overloaded_error", "Overloaded"),
    "400": (400, "invalid_request_error", "max_tokens: Field required"),
    "400-overflow": (400, "invalid_request_error",
                     "prompt is too long: 210000 tokens > 200000 maximum"),
    "401": (401, "authentication_error", "invalid x-api-key"),
    "403": (403, "permission_error", "Your API key does not have permission to use the specified resource."),
    "404": (404, "not_found_error", "model: claude-nonexistent"),
    "413": (413, "request_too_large", "Request exceeds the maximum allowed number of bytes."),
    "500": (500, "api_error", "Internal server error"),
    "418": (418, "teapot_error", "I'm a teapot"),
}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    # -- plumbing -----------------------------------------------------------
    def _record(self, body):
        with REQUESTS_LOCK:
            REQUESTS.append({
                "method": self.command, "path": self.path,
                "headers": [[k.lower(), v] for k, v in self.headers.items()],
                "body": body.decode("utf-8", "replace"),
            })

    def _plain(self, status, body, headers=()):
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.send_header("request-id", "req_loopback_%d" % status)
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()

    def _start_stream(self):
        self._start_chunked("text/event-stream; charset=utf-8", ("request-id", "req_loopback_stream"))

    def _start_event_stream(self):
        self._start_chunked("application/vnd.amazon.eventstream", ("x-amzn-requestid", "req_loopback_bedrock"))

    def _start_chunked(self, content_type, request_id):
        """A 200 whose body follows in chunks, then the connection closes;
        `request_id` is the (header, value) the cloud names requests by."""
        self.send_response(200)
        self.send_header("content-type", content_type)
        self.send_header("transfer-encoding", "chunked")
        self.send_header(*request_id)
        self.send_header("connection", "close")
        self.end_headers()
        self.close_connection = True

    def _bedrock(self, route, body):
        if route == ["bedrock-echo"]:
            self._start_event_stream()
            self._serve_pieces(bedrock_frames(text_stream(hashlib.sha256(body).hexdigest())), "chunk-50")
            return self._end()
        if route == ["bedrock-exception"]:
            # message_start, content_block_start and one delta, then the exception.
            events = text_stream("y" * 40).split(b"\n\n")[:3]
            self._start_event_stream()
            self._chunk(bedrock_frames(b"\n\n".join(events) + b"\n\n"))
            self._chunk(event_stream_message(
                [(":exception-type", "throttlingException"), (":content-type", "application/json"),
                 (":message-type", "exception")], b'{"message":"Too many requests, please wait before trying again."}'))
            return self._end()
        if route == ["bedrock-403-echo"]:
            echoed = "not authorized: %s" % self.headers.get("authorization")
            return self._plain(403, json.dumps({"message": echoed}).encode(),
                               [("x-amzn-errortype", "AccessDeniedException:http://internal.amazon.com/coral/")])
        if len(route) == 3 and route[0] == "bedrock-replay" and CORPUS is not None:
            name = route[1]
            path = os.path.join(CORPUS, "..", "bedrock-eventstream", "recorded", "bedrock", name)
            if "/" in name or name.startswith(".") or not os.path.isfile(path):
                return self._plain(404, error_body("not_found_error", "no recording"))
            with open(path, "rb") as f:
                data = f.read()
            self._start_event_stream()
            self._serve_pieces(data, route[2])
            return self._end()
        return self._plain(404, json.dumps({"message": "no bedrock route"}).encode())

    def _chunk(self, data):
        if data:
            self.wfile.write(b"%x\r\n" % len(data) + data + b"\r\n")
            self.wfile.flush()

    def _end(self):
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def _abort(self):
        """Close the socket without the terminating chunk: a dropped connection."""
        self.wfile.flush()
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.close_connection = True

    def _recording(self, name):
        if CORPUS is None or "/" in name or name.startswith("."):
            return None
        path = os.path.join(CORPUS, name)
        if not os.path.isfile(path):
            return None
        with open(path, "rb") as f:
            return f.read()

    def _serve_pieces(self, data, mode):
        if mode == "whole":
            self._chunk(data)
        elif mode == "bytes":
            for i in range(len(data)):
                self._chunk(data[i:i + 1])
        elif mode.startswith("chunk-"):
            n = max(1, int(mode[6:]))
            for i in range(0, len(data), n):
                self._chunk(data[i:i + n])
        elif mode.startswith("random-"):
            rng = random.Random(int(mode[7:]))
            i = 0
            while i < len(data):
                n = rng.choice((1, 2, 3, 7, 64, 500, 4096, rng.randint(1, 20000)))
                self._chunk(data[i:i + n])
                i += n
                if rng.random() < 0.05:
                    time.sleep(rng.random() * 0.002)
        else:
            raise ValueError("unknown mode " + mode)

    # -- scripts ------------------------------------------------------------
    def _script_id(self):
        parts = self.path.split("/")
        return parts[2] if len(parts) > 2 and parts[1] == "s" else None

    def do_PUT(self):
        sid = self._script_id()
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length) if length else b""
        if sid is None:
            return self._plain(404, error_body("not_found_error", "no route"))
        with REQUESTS_LOCK:
            SCRIPTS[sid] = json.loads(body)
            SCRIPT_REQUESTS[sid] = []
        return self._plain(200, b"{}")

    def _script_requests(self, sid):
        with REQUESTS_LOCK:
            recorded = list(SCRIPT_REQUESTS.get(sid, []))
        return self._plain(200, json.dumps(recorded).encode())

    def _script_answer(self, sid, body):
        with REQUESTS_LOCK:
            SCRIPT_REQUESTS.setdefault(sid, []).append({
                "path": self.path, "body": body.decode("utf-8", "replace"), "time": time.monotonic(),
                "headers": {k.lower(): v for k, v in self.headers.items()}})
            script = SCRIPTS.get(sid) or []
            answer = script.pop(0) if script else {
                "status": 500, "body": '{"type":"error","error":{"type":"api_error","message":"script exhausted"}}'}
            count = len(SCRIPT_REQUESTS[sid])
        if answer.get("reset"):
            # SO_LINGER with a zero timeout makes close() send RST: the
            # client sees the connection reset before any answer.
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.close_connection = True
            self.connection.close()
            return
        status = answer.get("status", 200)
        if "file" in answer:
            with open(answer["file"], "rb") as f:
                data = f.read()
        else:
            data = answer.get("body", "").encode()
        headers = [("request-id", "req_script_%d" % count)] + list(answer.get("headers", {}).items())
        if status != 200:
            self.send_response(status)
            self.send_header("content-type", answer.get("content_type", "application/json"))
            self.send_header("content-length", str(len(data)))
            for k, v in headers:
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)
            self.wfile.flush()
            return
        self.send_response(200)
        self.send_header("content-type", answer.get("content_type", "text/event-stream"))
        self.send_header("transfer-encoding", "chunked")
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("connection", "close")
        self.end_headers()
        self.close_connection = True
        drop = answer.get("drop_after")
        if drop is not None:
            data = data[:drop]
        size = answer.get("pieces") or len(data) or 1
        try:
            for i in range(0, len(data), size):
                self._chunk(data[i:i + size])
                if i == 0 and answer.get("hold"):
                    time.sleep(answer["hold"])
                if answer.get("interval"):
                    time.sleep(answer["interval"])
            if drop is not None:
                return self._abort()
            self._end()
        except OSError:
            pass

    # -- routing ------------------------------------------------------------
    def do_GET(self):
        sid = self._script_id()
        if sid is not None:
            return self._script_requests(sid)
        self._record(b"")
        parts = [p for p in self.path.split("?")[0].split("/") if p]
        if parts == ["_requests"]:
            with REQUESTS_LOCK:
                body = json.dumps(REQUESTS).encode()
            return self._plain(200, body)
        if parts == ["_sent"]:
            with REQUESTS_LOCK:
                body = json.dumps(SENT).encode()
            return self._plain(200, body)
        if parts and parts[0].startswith("t-"):
            parts = parts[1:]
        if len(parts) >= 4 and parts[0] == "models" and parts[-3:-1] == ["v1", "models"]:
            model = parts[-1]
            level = {"supported": True}
            no = {"supported": False}
            body = json.dumps({
                "type": "model", "id": model, "display_name": "Loopback " + model,
                "created_at": "2026-01-01T00:00:00Z", "max_input_tokens": 200000, "max_tokens": 64000,
                "capabilities": {
                    "effort": {"supported": True, "low": level, "medium": level, "high": level,
                               "xhigh": no, "max": level},
                    "image_input": level, "structured_outputs": level, "pdf_input": level,
                    "thinking": {"supported": True, "types": {"adaptive": level, "enabled": no}},
                    "code_execution": level, "citations": level, "batch": level,
                },
            }).encode()
            return self._plain(200, body)
        if len(parts) >= 3 and parts[0] == "fault" and parts[1] in ("redirect-307", "redirect-302"):
            location = "http://127.0.0.1:%s/models/%s/v1/models/%s" % (parts[2], parts[-1], parts[-1])
            return self._plain(int(parts[1][-3:]), b"", [("location", location)])
        return self._plain(404, error_body("not_found_error", "no route"))

    def do_POST(self):
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length) if length else b""
        sid = self._script_id()
        if sid is not None:
            return self._script_answer(sid, body)
        self._record(body)
        parts = [p for p in self.path.split("?")[0].split("/") if p]
        test_id = ""
        if parts and parts[0].startswith("t-"):
            test_id, parts = parts[0], parts[1:]
        try:
            if len(parts) >= 3 and parts[-1] == "invoke-with-response-stream" and parts[-3] == "model":
                return self._bedrock(parts[:-3], body)
            if parts and parts[-1].endswith(":streamRawPredict") and "v1" in parts:
                route = parts[:parts.index("v1")]
                if route == ["vertex-echo"]:
                    self._start_stream()
                    self._chunk(text_stream(hashlib.sha256(body).hexdigest()))
                    return self._end()
                return self._plain(404, error_body("not_found_error", "no vertex route"))
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
            return
        if parts[-2:] != ["v1", "messages"]:
            return self._plain(404, error_body("not_found_error", "no route"))
        route = parts[:-2]
        try:
            if route and route[0] == "replay" and len(route) == 3:
                data = self._recording(route[1])
                if data is None:
                    return self._plain(404, error_body("not_found_error", "no recording"))
                self._start_stream()
                self._serve_pieces(data, route[2])
                return self._end()
            if route == ["echo"]:
                self._start_stream()
                self._chunk(text_stream(hashlib.sha256(body).hexdigest()))
                return self._end()
            if len(route) == 2 and route[0] == "bench":
                data = bench_stream(int(route[1]))
                self._start_stream()
                for i in range(0, len(data), 65536):
                    self._chunk(data[i:i + 65536])
                return self._end()
            if route and route[0] == "fault" and len(route) >= 2:
                return self._fault(route[1], route[2] if len(route) > 2 else None, test_id)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
            return
        return self._plain(404, error_body("not_found_error", "no route"))

    def _fault(self, name, file, test_id):
        if name in ("429-then-ok", "529-then-ok"):
            key = (test_id, name)
            if key not in FAILED_ONCE:
                FAILED_ONCE.add(key)
                name = name[:3]
            else:
                data = self._recording(file) if file else text_stream("recovered")
                self._start_stream()
                self._chunk(data or b"")
                return self._end()
        if name == "401-echo":
            # A careless relay that repeats the credential back: the client must redact it.
            echoed = "invalid x-api-key %s / %s" % (self.headers.get("x-api-key"), self.headers.get("authorization"))
            return self._plain(401, error_body("authentication_error", echoed))
        if self._hostile(name, file):
            return None
        if name in HTTP_FAULTS:
            status, kind, message = HTTP_FAULTS[name]
            headers = [("retry-after", "1")] if status == 429 else []
            return self._plain(status, error_body(kind, message), headers)
        data = self._recording(file) if file else text_stream("x" * 64)
        if data is None:
            return self._plain(404, error_body("not_found_error", "no recording"))
        self._start_stream()
        if name == "disconnect":
            # Cut in the middle of the last `content_block_delta` data line.
            cut = data.rfind(b"content_block_delta")
            cut = cut + 30 if cut > 0 else len(data) // 2
            self._serve_pieces(data[:cut], "chunk-97")
            return self._abort()
        if name == "stall":
            self._chunk(data[:len(data) // 2])
            time.sleep(30)
            return self._abort()
        if name == "error-event":
            half = data.find(b"\n\n", len(data) // 2)
            half = len(data) if half < 0 else half + 2
            self._chunk(data[:half])
            self._chunk(sse("error", {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"},
                                      "request_id": "req_loopback_midstream"}))
            return self._end()
        if name == "huge":
            self._chunk(text_stream("h" * (8 << 20)))
            return self._end()
        if name == "slow":
            for i in range(0, len(data), 256):
                self._chunk(data[i:i + 256])
                time.sleep(0.1)
            return self._end()
        return self._plain(404, error_body("not_found_error", "unknown fault"))

    def _credential(self):
        return self.headers.get("x-api-key") or self.headers.get("authorization") or ""

    def _hostile(self, name, file):
        """The answers of a server that tries to leak the key or exhaust the client; False: not one."""
        key = self._credential()
        if name in ("redirect-307", "redirect-302"):
            location = "http://127.0.0.1:%s/echo/v1/messages" % (file or "9")
            self._plain(int(name[-3:]), b"", [("location", location)])
            return True
        if name == "error-event-echo":
            self._start_stream()
            self._chunk(text_stream("x" * 64).split(b"event: message_stop")[0])
            self._chunk(sse("error", {"type": "error", "error": {
                "type": "invalid_request_error", "message": "bad header x-api-key: %s" % key},
                "request_id": "req_" + key}))
            self._end()
            return True
        if name == "401-cut-echo":
            body = ("E" * 190 + key + " was refused").encode()
            self.send_response(401)
            self.send_header("content-type", "text/plain")
            self.send_header("content-length", str(len(body)))
            self.send_header("request-id", "req_" + key[:-3])
            self.end_headers()
            self.wfile.write(body)
            self.wfile.flush()
            return True
        if name == "500-huge":
            total = 64 << 20
            piece = b"x" * 65536
            record = {"path": self.path, "sent": 0, "complete": False, "done": False}
            with REQUESTS_LOCK:
                SENT.append(record)
            self.send_response(500)
            self.send_header("content-type", "text/plain")
            self.send_header("content-length", str(total))
            self.end_headers()
            try:
                while record["sent"] < total:
                    self.wfile.write(piece)
                    record["sent"] += len(piece)
                    time.sleep(0.002)
                self.wfile.flush()
                record["complete"] = True
            except (BrokenPipeError, ConnectionResetError):
                pass
            finally:
                record["done"] = True
            self.close_connection = True
            return True
        if name == "not-sse-html":
            body = b"<html><body><h1>502 Bad Gateway</h1></body></html>"
            self.send_response(200)
            self.send_header("content-type", "text/html")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            self.wfile.flush()
            return True
        if name in ("not-sse-no-type", "sse-no-type"):
            body = b"\n  <html><body>Bad Gateway</body></html>" if name == "not-sse-no-type" else text_stream("untyped")
            self.send_response(200)
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            self.wfile.flush()
            return True
        if name == "not-sse-json":
            self._plain(200, error_body("invalid_request_error", "bad key %s" % key))
            return True
        if name in ("gzip-bomb", "gzip-bomb-1g"):
            if name == "gzip-bomb":
                body, status = gzip.compress(text_stream("h" * (64 << 20)), compresslevel=9), 200
            else:
                body, status = gigabyte_gzip_bomb(), int(file) if file and file.isdigit() else 200
            self.send_response(status)
            self.send_header("content-type", "text/event-stream")
            self.send_header("content-encoding", "gzip")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            try:
                self.wfile.write(body)
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                pass
            self.close_connection = True
            return True
        return False


def main():
    global CORPUS
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "--corpus":
        CORPUS = args[1] if os.path.isdir(args[1]) else None
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print("PORT %d" % server.server_address[1], flush=True)

    def stop(*_):
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)

    def watch_stdin():
        try:
            sys.stdin.read()
        finally:
            stop()

    threading.Thread(target=watch_stdin, daemon=True).start()
    server.serve_forever(poll_interval=0.1)


if __name__ == "__main__":
    main()
