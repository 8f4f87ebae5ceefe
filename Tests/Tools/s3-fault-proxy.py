#!/usr/bin/env python3
"""A fault-injecting HTTP proxy on loopback for TileSync's S3 tests.

    s3-fault-proxy.py UPSTREAM_PORT [PATTERN]

Listens on 127.0.0.1 (a free port, printed as the first line of stdout) and forwards every
request to 127.0.0.1:UPSTREAM_PORT unchanged (Host header included, so signatures stay valid).
PATTERN is a comma-separated cycle of what happens to successive requests: `ok`, `500`,
`503` (SlowDown), `429` (Too Many Requests with Retry-After: 1), `429forever` (the same with
Retry-After: 9223372036854775807, a wait that overflows 64-bit seconds once added to now), `drop` (the connection is closed without an answer), `slow` (the answer
is held for SLOW seconds, env TILESYNC_PROXY_SLOW, default 3) and `cut` (the answer's headers
with its full Content-Length, then the first half of its body, then the connection is closed,
as a server whose read fails mid-answer does), `gzip` (the answer is forwarded with
`Content-Encoding: gzip` when its body is a gzip stream, whatever the request's
`response-content-encoding` asked: as moto does). Default: ok,503,ok,drop,ok,500,ok,slow.
"""
import http.client
import http.server
import itertools
import os
import socket
import sys
import threading

upstream_port = int(sys.argv[1])
pattern = (sys.argv[2] if len(sys.argv) > 2 else "ok,503,ok,drop,ok,500,ok,slow").split(",")
slow_seconds = float(os.environ.get("TILESYNC_PROXY_SLOW", "3"))
cycle = itertools.cycle(pattern)
lock = threading.Lock()
HOP = {"connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade"}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        with lock:
            fault = next(cycle)
        if fault == "drop":
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            return
        if fault in ("429", "429forever"):
            self.send_response(429)
            self.send_header("Retry-After", "1" if fault == "429" else "9223372036854775807")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if fault in ("500", "503"):
            code = "SlowDown" if fault == "503" else "InternalError"
            payload = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>%s</Code>"
                       "<Message>injected by the test proxy</Message></Error>" % code).encode()
            self.send_response(int(fault))
            self.send_header("Content-Type", "application/xml")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
            return
        connection = http.client.HTTPConnection("127.0.0.1", upstream_port, timeout=60)
        headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP}
        connection.request(self.command, self.path, body=body if body or self.command in ("PUT", "POST") else None,
                           headers=headers)
        answer = connection.getresponse()
        data = answer.read()
        if fault == "slow":
            threading.Event().wait(slow_seconds)
        self.send_response(answer.status)
        gzipped = fault == "gzip" and data[:2] == b"\x1f\x8b"
        for key, value in answer.getheaders():
            if key.lower() not in HOP and key.lower() != "content-length" and not (gzipped and key.lower() == "content-encoding"):
                self.send_header(key, value)
        if gzipped:
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if fault == "cut":
            self.wfile.write(data[:len(data) // 2])
            self.wfile.flush()
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        elif self.command != "HEAD":
            self.wfile.write(data)
        connection.close()

    do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = handle_any


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
