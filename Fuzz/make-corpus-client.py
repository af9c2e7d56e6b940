#!/usr/bin/env python3
"""Writes the seed corpora Fuzz/corpus/client (the Swift client's readers, libFuzzer) and Fuzz/corpus/client-js (the
browser client's reader, Tests/JS/fuzz_reader.mjs) from the server's real messages plus hostile ones (stdlib only).

A client seed starts with its mode byte (mode = byte % 3, written as the digit '0', '1' or '2'): '0' a sequence of
`/ws` messages, one per line ('!' drops and reopens the connection, '!+' sends one more action); '1' a split byte then
an HTTP/1.1 response; '2' a server URL. A client-js seed is a sequence of lines in the same form without a mode byte,
plus '@<status> <body>' (the answer to the SSE transport's pending POST); refs there are the browser's ("a1", "a2").
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
EPOCH = "5f2a9c0e1b7d4e63"
OTHER = "0123456789abcdef"


def write(kind, name, data):
    with open(os.path.join(HERE, "corpus", kind, name), "wb") as f:
        f.write(data)


def m(**fields):
    return json.dumps(fields, separators=(",", ":"))


def state(sub, version, value, epoch=EPOCH, **extra):
    return m(sub=sub, type="state", store="counter" if sub == "s1" else "todos", epoch=epoch, version=version,
             state=value, **extra)


def patch(sub, base, version, ops, epoch=EPOCH):
    return m(sub=sub, type="patch", store="counter" if sub == "s1" else "todos", epoch=epoch, version=version,
             base=base, ops=ops)


def sequences(ref1, ref2):
    """name → list of lines; refs are the client's own (Swift "1", "2"; browser "a1", "a2")."""
    items = [{"id": 1, "text": "milk", "done": False}]
    deep = "[" * 3000 + "]" * 3000
    return {
        "snapshot-patch-ack": [
            state("s1", 1, {"count": 1}), state("s2", 4, items, path="/items"),
            patch("s1", 1, 2, [{"op": "replace", "path": "/count", "value": 2}]),
            m(type="ack", ref=ref1, version=2),
            patch("s2", 4, 5, [{"op": "add", "path": "/-", "value": {"id": 2, "text": "eggs", "done": False}}]),
            m(type="ack", ref=ref2, version=5, replayed=True, settled=True)],
        "patch-gap-resync": [
            state("s1", 1, {"count": 1}), patch("s1", 3, 4, [{"op": "replace", "path": "/count", "value": 4}]),
            patch("s1", 4, 5, [{"op": "replace", "path": "/count", "value": 5}]), state("s1", 5, {"count": 5})],
        "patch-fails-half-way": [
            state("s1", 1, {"count": 1, "list": [1, 2]}),
            patch("s1", 1, 2, [{"op": "remove", "path": "/list/0"}, {"op": "test", "path": "/count", "value": 9}]),
            state("s1", 2, {"count": 1, "list": [2]})],
        "bad-pointers": [
            state("s1", 1, {"count": 1}),
            patch("s1", 1, 2, [{"op": "add", "path": "/a~2", "value": 1}]), state("s1", 1, {"count": 1}),
            patch("s1", 1, 2, [{"op": "replace", "path": "count", "value": 1}]), state("s1", 3, {"count": 3}),
            patch("s1", 3, 4, [{"op": "move", "from": "/count", "path": "/count/x"}]),
            patch("s1", 3, 4, [{"op": "add", "path": "/arr/01", "value": 1}])],
        "old-and-repeated-states": [
            state("s1", 5, {"count": 5}), state("s1", 3, {"count": 3}), state("s1", 5, {"count": 50}),
            patch("s1", 4, 5, [{"op": "replace", "path": "/count", "value": 9}]), state("s1", 6, {"count": 6})],
        "new-epoch-resumed-false": [
            state("s1", 9, {"count": 9}), state("s1", 2, {"count": 2}, epoch=OTHER, resumed=False),
            patch("s1", 9, 10, [{"op": "replace", "path": "/count", "value": 10}], epoch=EPOCH)],
        "reconnect-resume": [
            state("s1", 1, {"count": 1}), "!", patch("s1", 1, 3, [{"op": "replace", "path": "/count", "value": 3}]),
            m(type="ack", ref=ref1, version=2, replayed=True), "!", state("s1", 3, {"count": 3}), "!+"],
        "errors": [
            m(sub="s2", type="error", code="store_not_found", message="No store named todos."),
            state("s2", 1, []), m(type="error", ref=ref1, code="invalid_action", message="Unknown action type."),
            m(type="error", ref=ref2, code="settle_timeout", message="Effects still run.", version=7),
            m(type="error", code="invalid_message", message="Not JSON.")],
        "deleted-then-more": [
            state("s1", 1, {"count": 1}), m(sub="s1", type="deleted", store="counter"),
            state("s1", 2, {"count": 2}), m(sub="s1", type="event", store="counter", event={"type": "x"})],
        "events-and-unsubscribed": [
            m(sub="s1", type="event", store="counter", event={"type": "tick", "payload": 1}),
            m(type="unsubscribed", sub="s2"), m(sub="s1", type="event", store="counter"),
            m(type="hello", future=True)],
        "hostile-versions": [
            state("s1", 1, {"count": 1}), '{"sub":"s1","type":"state","epoch":"%s","version":1e999,"state":{}}' % EPOCH,
            state("s1", -1, {"count": -1}), state("s1", 1.5, {"count": 1}), state("s1", "3", {"count": 3}),
            state("s1", 18446744073709551615, {"count": 0}), state("s1", 18446744073709551616, {"count": 0}),
            state("s1", 9007199254740993, {"count": 0}), state("s1", 9007199254740992, {"count": 0}),
            patch("s1", 9007199254740992, 9007199254740993, [{"op": "add", "path": "/x", "value": 1}]),
            m(type="ack", ref=ref1, version=-5), m(type="ack", ref=ref1, version="2"), m(type="ack", ref=ref1)],
        "wrong-types": [
            m(sub=1, type="state", epoch=EPOCH, version=1, state={}), m(sub="s1", type=["state"], epoch=EPOCH, version=1),
            m(sub="s1", type="state", epoch=5, version=1, state={}), m(sub="s1", type="state", version=1, state={}),
            m(sub="s1", type="state", epoch=EPOCH, version=1), state("s1", 2, None),
            m(sub="s1", type="patch", epoch=EPOCH, version=3, base=2, ops={"op": "add"}),
            m(sub="s1", type="patch", epoch=EPOCH, version=3, base=2, ops=[1, None, "x"]),
            m(type="error", ref=ref1, code=5, message=["x"]), m(type="error", sub="s1", code=None),
            m(type="ack", ref=1, version=1), m(type="ack", ref=None, version=1)],
        "odd-ids": [
            state("s01", 1, {"count": 1}), state("s+1", 1, {"count": 1}), state("S1", 1, {"count": 1}),
            state("s1 ", 1, {"count": 1}), m(type="ack", ref="0" + ref1, version=1),
            m(type="ack", ref="+" + ref1, version=1), m(type="ack", ref=ref1 + " ", version=1)],
        "not-objects": ["null", "[]", "1", '"state"', "true", "", "{", "{}", '{"type":"state"}', "\ufeff{}"],
        "odd-json": [
            '{"sub":"s1","type":"state","type":"patch","epoch":"%s","version":1,"state":{}}' % EPOCH,
            '\ufeff' + state("s1", 1, {"count": 1}),
            '{"sub":"s1","type":"state","epoch":"\\ud800","version":1,"state":"\\udc00"}',
            '{"sub":"s1","type":"state","epoch":"e","version":-0,"state":{"__proto__":{"x":1},"constructor":1}}',
            '{"sub":"s1","type":"state","epoch":"e","version":1,"state":{},}',
            state("s1", 2, {"s": "x" * 3000})],
        "deep-nesting": [
            '{"sub":"s1","type":"state","epoch":"e","version":1,"state":%s}' % deep,
            patch("s1", 1, 2, [{"op": "add", "path": "/0", "value": 1}]),
            '{"sub":"s1","type":"state","epoch":"e","version":3,"state":%s}' % ('{"a":' * 400 + "1" + "}" * 400)],
        "proto-pointers": [
            state("s1", 1, {}), patch("s1", 1, 2, [{"op": "add", "path": "/__proto__", "value": {"polluted": 1}}]),
            patch("s1", 2, 3, [{"op": "add", "path": "/__proto__/polluted", "value": 2}]),
            patch("s1", 3, 4, [{"op": "copy", "from": "/constructor", "path": "/c"}]),
            patch("s1", 3, 4, [{"op": "replace", "path": "", "value": [1]}])],
        "queue-full": [state("s1", 1, {"count": 1})] + ["!+"] * 6 + [m(type="ack", ref=ref1, version=1), "!+"],
    }


def client():
    for name, lines in sequences("1", "2").items():
        write("client", "ws-" + name, b"0" + "\n".join(lines).encode("utf-8", "surrogatepass"))
    accept = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
    error = json.dumps({"error": {"code": "unauthorized", "message": "Send a bearer token."}}).encode()
    responses = {
        "101-valid": (0, b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                         b"Sec-WebSocket-Accept: " + accept.encode() + b"\r\n\r\n\x81\x02hi"),
        "101-wrong-accept": (3, b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                b"Sec-WebSocket-Accept: AAAA\r\n\r\n"),
        "101-with-extension": (0, b"HTTP/1.1 101 OK\r\nUpgrade: WebSocket\r\nConnection: keep-alive, upgrade\r\n"
                                  b"Sec-WebSocket-Accept: " + accept.encode() + b"\r\nSec-WebSocket-Extensions: x\r\n\r\n"),
        "401-json-error": (1, b"HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n"
                              % len(error) + error),
        "403-chunked": (5, b"HTTP/1.1 403 Forbidden\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"err\r\n"
                           b"2b\r\nor\":{\"code\":\"forbidden\",\"message\":\"No.\"}}\r\n0\r\n\r\n"),
        "404-until-eof": (0, b"HTTP/1.1 404 Not Found\r\n\r\n{\"error\":{\"code\":\"not_found\",\"message\":\"x\"}}"),
        "429-text": (0, b"HTTP/1.1 429 Too Many\r\nContent-Length: 4\r\nRetry-After: 1\r\n\r\nslow"),
        "408-empty": (0, b"HTTP/1.1 408 Request Timeout\r\nContent-Length: 0\r\n\r\n"),
        "500-wrong-types": (0, b"HTTP/1.1 500 x\r\nContent-Length: 34\r\n\r\n{\"error\":{\"code\":5,\"message\":[1]}}"),
        "200-ack": (2, b"HTTP/1.1 200 OK\r\nContent-Length: 13\r\nIdempotent-Replayed: true\r\n\r\n{\"version\":3}"),
        "100-then-401": (0, b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 401 No\r\nContent-Length: 2\r\n\r\n{}"),
        "body-too-large": (0, b"HTTP/1.1 400 Bad\r\nContent-Length: 99999\r\n\r\n"),
        "head-too-large": (0, b"HTTP/1.1 400 Bad\r\nX: " + b"a" * 1100 + b"\r\n\r\n"),
        "bad-status-line": (0, b"HTTP/1.1 4000 Huge\r\n\r\n"),
        "http10-no-length": (0, b"HTTP/1.0 403 Forbidden\r\n\r\n{\"error\":{\"code\":\"forbidden\",\"message\":\"m\"}}"),
        "truncated": (4, b"HTTP/1.1 403 F\r\nContent-Length: 50\r\n\r\n{\"error\""),
        "duplicate-keys": (0, b"HTTP/1.1 401 U\r\nContent-Length: 76\r\n\r\n"
                              b"{\"error\":{\"code\":\"a\",\"message\":\"b\"},\"error\":{\"code\":\"c\",\"message\":\"d\"}}  "),
    }
    for name, (split, data) in responses.items():
        write("client", "http-" + name, b"1" + bytes([split]) + data)
    urls = ["http://127.0.0.1:8080", "ws://localhost/statehouse/", "http://[::1]:8080/p", "https://x", "http://x:0",
            "http://x:65536", "http://x:+80", "http://user@x", "http://x/?q", "http://[::1", "http://[x]:1",
            "http://[::1]x", "HTTP://X:1//", "http://", "http://x:", "http://x/a b", "http://[fe80::1%25eth0]:80",
            "http://x:0080", "ftp://x", "localhost:8080", "http://[:a b]", "http://[::/]"]
    for index, url in enumerate(urls):
        write("client", "url-%02d" % index, b"2" + url.encode())


def client_js():
    for name, lines in sequences("a1", "a2").items():
        write("client-js", name, "\n".join(lines).encode("utf-8", "surrogatepass"))
    write("client-js", "sse-post-answers", "\n".join([
        state("s1", 1, {"count": 1}), '@200 {"version":2}', '@400 {"error":{"code":"invalid_action","message":"x"}}',
        '@503 ', '@200 {"version":"x"}', '@409 {"error":"nope"}', '@404 null', '@201 [1]', '@200 {"version":-1}',
        '@500 {"error":{"code":5}}', '@200 not json']).encode())


client()
client_js()
