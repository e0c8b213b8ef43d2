#!/usr/bin/env python3
"""Scripted HTTP/1.1 server for the ClaudeSession tests (standard library only).

Started as `python3 script_server.py`; prints `PORT <n>` first, stops when
stdin closes or on SIGTERM. Each test uses its own script id:

  PUT  /s/<id>                 the script: a JSON array of answers, served in
                               order to the POSTs under /s/<id>/ (one each).
  POST /s/<id>/v1/messages     (or .../count_tokens) takes the next answer.
  GET  /s/<id>/requests        the bodies and paths of every POST so far.

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
"""

import json
import signal
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SCRIPTS = {}
REQUESTS = {}
LOCK = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def _body(self):
        length = int(self.headers.get("content-length") or 0)
        return self.rfile.read(length) if length else b""

    def _send(self, status, body, content_type="application/json", headers=()):
        self.send_response(status)
        self.send_header("content-type", content_type)
        self.send_header("content-length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()

    def _script_id(self):
        parts = self.path.split("/")
        return parts[2] if len(parts) > 2 and parts[1] == "s" else None

    def do_PUT(self):
        sid = self._script_id()
        body = self._body()
        with LOCK:
            SCRIPTS[sid] = json.loads(body)
            REQUESTS[sid] = []
        self._send(200, b"{}")

    def do_GET(self):
        sid = self._script_id()
        with LOCK:
            recorded = list(REQUESTS.get(sid, []))
        self._send(200, json.dumps(recorded).encode())

    def do_POST(self):
        sid = self._script_id()
        body = self._body()
        with LOCK:
            REQUESTS.setdefault(sid, []).append({
                "path": self.path, "body": body.decode("utf-8", "replace"),
                "headers": {k.lower(): v for k, v in self.headers.items()}})
            script = SCRIPTS.get(sid) or []
            answer = script.pop(0) if script else {"status": 500, "body": '{"type":"error","error":{"type":"api_error","message":"script exhausted"}}'}
        status = answer.get("status", 200)
        if "file" in answer:
            with open(answer["file"], "rb") as f:
                data = f.read()
        else:
            data = answer.get("body", "").encode()
        headers = [("request-id", "req_script_%d" % len(REQUESTS[sid]))] + list(answer.get("headers", {}).items())
        if status != 200:
            self._send(status, data, answer.get("content_type", "application/json"), headers)
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
                piece = data[i:i + size]
                self.wfile.write(b"%x\r\n" % len(piece) + piece + b"\r\n")
                self.wfile.flush()
                if i == 0 and answer.get("hold"):
                    time.sleep(answer["hold"])
                if answer.get("interval"):
                    time.sleep(answer["interval"])
            if drop is not None:
                self.connection.shutdown(socket.SHUT_RDWR)
                return
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except OSError:
            pass


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print("PORT %d" % server.server_address[1], flush=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()


if __name__ == "__main__":
    main()
