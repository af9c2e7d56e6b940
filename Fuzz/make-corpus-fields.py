#!/usr/bin/env python3
"""Writes the seed corpus Fuzz/corpus/fields (run from anywhere; stdlib only): requests carrying the header fields
the server reads (tokens, origins, WebSocket handshakes, preferences, entity tags, idempotency keys, SSE resume),
valid and not.
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus", "fields")
SECRET = "0123456789abcdef0123"  # the token of Fuzz/Fields's policy
KEY = "dGhlIHNhbXBsZSBub25jZQ=="  # RFC 6455 §1.3's example key

REQUESTS = {
    "bearer": ("GET /stores/counter", ["Authorization: Bearer " + SECRET]),
    "bearer-case-spaces": ("POST /stores/counter/actions", ["authorization:   bEaReR    " + SECRET + "  "]),
    "bearer-wrong": ("GET /stores/counter", ["Authorization: Bearer 0123456789abcdef0124"]),
    "basic": ("GET /metrics", ["Authorization: Basic dXNlcjpwYXNz"]),
    "bearer-empty": ("GET /stores", ["Authorization: Bearer"]),
    "query-token": ("GET /stores/counter/events?access_token=" + SECRET, []),
    "subprotocol-token": ("GET /stores/counter/ws", ["Upgrade: websocket", "Connection: Upgrade",
                                                     "Sec-WebSocket-Version: 13", "Sec-WebSocket-Key: " + KEY,
                                                     "Sec-WebSocket-Protocol: json, bearer." + SECRET]),
    "handshake": ("GET /ws", ["Upgrade: websocket", "Connection: keep-alive, Upgrade", "Sec-WebSocket-Version: 13",
                              "Sec-WebSocket-Key: " + KEY]),
    "handshake-two-keys": ("GET /ws", ["Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 13",
                                       "Sec-WebSocket-Key: " + KEY, "Sec-WebSocket-Key: " + KEY]),
    "handshake-version-8": ("GET /ws", ["Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 8",
                                        "Sec-WebSocket-Key: " + KEY]),
    "handshake-short-key": ("GET /ws", ["Upgrade: WebSocket", "Connection: upgrade", "Sec-WebSocket-Version: 13",
                                        "Sec-WebSocket-Key: AAAA"]),
    "handshake-post": ("POST /ws", ["Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 13",
                                    "Sec-WebSocket-Key: " + KEY, "Content-Length: 0"]),
    "origin-allowed": ("GET /stores/counter", ["Origin: https://app.example", "Authorization: Bearer " + SECRET]),
    "origin-refused": ("GET /stores/counter", ["Origin: https://evil.example"]),
    "preflight": ("OPTIONS /stores/counter/actions", ["Origin: https://app.example",
                                                      "Access-Control-Request-Method: POST",
                                                      "Access-Control-Request-Headers: content-type, idempotency-key"]),
    "origin-null": ("GET /stores", ["Origin: null"]),
    "prefer-minimal": ("POST /stores/counter/actions", ["Prefer: respond-async, return=minimal; x=1",
                                                        "Content-Length: 2"], "{}"),
    "prefer-quoted": ("POST /stores/counter/actions", ["Prefer: return=\"MINIMAL\"", "Prefer: return=representation",
                                                       "Content-Length: 0"]),
    "if-none-match": ("GET /stores/counter", ['If-None-Match: W/"e-1", "e-2", *']),
    "idempotency-key": ("POST /stores/counter/actions", ["Idempotency-Key: 7f3c-é", "Content-Length: 0"]),
    "idempotency-key-long": ("POST /stores/counter/actions", ["Idempotency-Key: " + "k" * 300, "Content-Length: 0"]),
    "last-event-id": ("GET /stores/counter/events", ["Accept: text/event-stream", "Last-Event-ID: e-1-2-18446744073709551615"]),
    "last-event-id-bad": ("GET /stores/counter/events", ["Last-Event-ID: -"]),
    "http10": ("GET /ws", ["Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 13",
                           "Sec-WebSocket-Key: " + KEY]),
}


def main():
    os.makedirs(OUT, exist_ok=True)  # inputs the fuzzer found (found-*) stay
    for name, spec in REQUESTS.items():
        line, fields = spec[0], spec[1]
        body = spec[2] if len(spec) > 2 else ""
        version = "HTTP/1.0" if name == "http10" else "HTTP/1.1"
        text = line + " " + version + "\r\nHost: localhost\r\n" + "".join(f + "\r\n" for f in fields) + "\r\n" + body
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(text.encode("utf-8"))


if __name__ == "__main__":
    main()
