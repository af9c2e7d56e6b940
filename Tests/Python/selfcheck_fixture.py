#!/usr/bin/env python3
"""A stand-in for the Statehouse server, used only to self-check the test clients.

Serves HTTP/1.1 with keep-alive (http.server) and WebSocket (websockets.sync.server) on two
ephemeral ports of 127.0.0.1 and prints "HTTP <port>" and "WS <port>" on stdout. Runs until
stdin closes (so it dies with its parent), or --seconds pass.

WebSocket /stores/counter/ws: sends {"type":"state",...,"version":0} first; an action message
gets an ack plus a new state. Text commands for client checks: "fragment" (reply in 3
fragments), "ping" (server ping), "bye" (close 1001), "binary" (binary reply),
"big" (70000-byte then 300-byte text). Other paths 404.
"""

import argparse
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from websockets.exceptions import ConnectionClosed
from websockets.sync.server import serve

lock = threading.Lock()
counter = {"version": 0, "count": 0}


def apply(action):
    with lock:
        if action.get("type") != "increment":
            return None
        counter["version"] += 1
        counter["count"] += 1
        return dict(counter)


def state_message(snapshot):
    return {"type": "state", "store": "counter", "version": snapshot["version"], "state": {"count": snapshot["count"]}}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, obj):
        body = json.dumps(obj, separators=(",", ":")).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_GET(self):
        if self.path == "/healthz":
            self.reply(200, {"status": "ok"})
        elif self.path == "/stores/counter":
            with lock:
                snap = dict(counter)
            self.reply(200, {"store": "counter", "version": snap["version"], "state": {"count": snap["count"]}})
        else:
            self.reply(404, {"error": {"code": "not_found", "message": "no route"}})

    do_HEAD = do_GET

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        if self.path != "/stores/counter/actions":
            return self.reply(404, {"error": {"code": "not_found", "message": "no route"}})
        try:
            snap = apply(json.loads(body))
        except ValueError:
            snap = None
        if snap is None:
            return self.reply(400, {"error": {"code": "bad_action", "message": "bad action"}})
        self.reply(200, {"store": "counter", "version": snap["version"], "state": {"count": snap["count"]}})


def ws_handler(conn):
    try:
        serve_messages(conn)
    except ConnectionClosed:
        pass


def serve_messages(conn):
    with lock:
        snapshot = dict(counter)
    conn.send(json.dumps(state_message(snapshot)))
    for raw in conn:
        if raw == "fragment":
            conn.send(["frag", "ment", "ed"])
        elif raw == "ping":
            conn.ping(b"hi")
        elif raw == "bye":
            conn.close(1001, "going away")
        elif raw == "big":
            conn.send("y" * 70000)
            conn.send("z" * 300)
        elif raw == "binary":
            conn.send(b"\x00\x01\x02")
        else:
            ws_action(conn, raw)


def ws_action(conn, raw):
    try:
        message = json.loads(raw)
        snap = apply(message["action"])
    except (ValueError, KeyError, TypeError, AttributeError):
        conn.close(1007, "bad message")
        return
    ref = message.get("ref")
    if snap is None:
        conn.send(json.dumps({"type": "error", "ref": ref, "code": "bad_action", "message": "bad action"}))
        return
    conn.send(json.dumps({"type": "ack", "ref": ref, "version": snap["version"]}))
    conn.send(json.dumps(state_message(snap)))


def reject_other_paths(conn, request):
    if request.path != "/stores/counter/ws":
        return conn.respond(404, "no such store\n")
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=120)
    args = parser.parse_args()
    http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    http.daemon_threads = True
    ws = serve(ws_handler, "127.0.0.1", 0, process_request=reject_other_paths, compression=None)
    threading.Thread(target=http.serve_forever, daemon=True).start()
    threading.Thread(target=ws.serve_forever, daemon=True).start()
    print(f"HTTP {http.server_address[1]}", flush=True)
    print(f"WS {ws.socket.getsockname()[1]}", flush=True)
    done = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
    done.wait(args.seconds)
    ws.shutdown()
    http.shutdown()


if __name__ == "__main__":
    main()
