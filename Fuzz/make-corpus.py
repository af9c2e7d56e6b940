#!/usr/bin/env python3
"""Writes the seed corpora Fuzz/corpus/http and Fuzz/corpus/websocket (run from anywhere; stdlib only).

Every seed starts with the split byte the fuzz targets read first (0 = one feed, n = pieces of 1..n bytes).
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def write(kind, name, split, body):
    path = os.path.join(HERE, "corpus", kind, name)
    with open(path, "wb") as f:
        f.write(bytes([split]) + body)


def frame(opcode, payload, fin=True, key=b"\x37\xfa\x21\x3d", rsv=0):
    """A client frame (masked unless key is None), RFC 6455 §5.2."""
    first = (0x80 if fin else 0) | rsv << 4 | opcode
    n = len(payload)
    mask = 0x80 if key is not None else 0
    if n <= 125:
        head = bytes([first, mask | n])
    elif n <= 0xFFFF:
        head = bytes([first, mask | 126]) + struct.pack("!H", n)
    else:
        head = bytes([first, mask | 127]) + struct.pack("!Q", n)
    if key is None:
        return head + payload
    return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


def http():
    get = b"GET /stores/counter HTTP/1.1\r\nHost: localhost\r\nAccept: */*\r\n\r\n"
    post = (b"POST /stores/counter/actions HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            b"Content-Length: 29\r\n\r\n{\"type\":\"increment\",\"by\":1}\r\n")
    chunked = (b"POST /stores/counter/actions HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n"
               b"5\r\n{\"typ\r\n18;ext=1\r\ne\":\"increment\",\"by\":2}\r\n0\r\nX-Trailer: yes\r\n\r\n")
    upgrade = (b"GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
    write("http", "get", 0, get)
    write("http", "get-bytewise", 1, get)
    write("http", "post-content-length", 7, post)
    write("http", "chunked-with-trailer", 3, chunked)
    write("http", "pipelined", 16, get + post + get)
    write("http", "upgrade-with-frame", 0, upgrade + frame(1, b"hello"))
    write("http", "upgrade-split", 5, upgrade)
    write("http", "http10-keep-alive", 0, b"GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /b HTTP/1.0\r\n\r\n")
    write("http", "connection-close-then-more", 0, b"GET / HTTP/1.1\r\nConnection: close\r\n\r\n" + get)
    write("http", "absolute-form-query", 2, b"GET http://example.com/stores/a?since=3&x HTTP/1.1\r\nHost: example.com\r\n\r\n")
    write("http", "http2-version", 0, b"GET / HTTP/2.0\r\nHost: x\r\n\r\n")
    write("http", "bad-header", 0, b"GET / HTTP/1.1\r\nHost x\r\n\r\n")
    write("http", "truncated-body", 4, b"POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc")
    write("http", "body-too-large", 0, b"POST / HTTP/1.1\r\nContent-Length: 999999\r\n\r\n")
    write("http", "folded-repeated-fields", 9,
          b"GET / HTTP/1.1\r\nHost: a\r\nAccept: a,\r\nAccept: b\r\nConnection: keep-alive, Upgrade\r\n\r\n")


def websocket():
    write("websocket", "text", 0, frame(1, b"Hello, world"))
    write("websocket", "text-bytewise", 1, frame(1, "héllo wörld €𝄞".encode()))
    write("websocket", "binary-16bit-length", 9, frame(2, bytes(range(256)) * 2))
    write("websocket", "fragmented-text", 4,
          frame(1, b"frag", fin=False) + frame(0, b"men", fin=False) + frame(0, b"ted"))
    write("websocket", "fragments-with-ping", 6,
          frame(2, b"\x00\x01", fin=False) + frame(9, b"ping!") + frame(0, b"\x02\x03"))
    write("websocket", "ping-pong", 0, frame(9, b"") + frame(10, b"unsolicited") + frame(9, b"x" * 125))
    write("websocket", "close-1000-reason", 3, frame(8, struct.pack("!H", 1000) + b"bye"))
    write("websocket", "close-empty", 0, frame(8, b"") + frame(1, b"after close"))
    write("websocket", "close-bad-code", 0, frame(8, struct.pack("!H", 1005)))
    write("websocket", "unmasked", 0, frame(1, b"not masked", key=None))
    write("websocket", "reserved-bits", 2, frame(1, b"rsv", rsv=4))
    write("websocket", "reserved-opcode", 0, frame(3, b""))
    write("websocket", "invalid-utf8-split", 2,
          frame(1, "κόσμε".encode(), fin=False) + frame(0, b"\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc\xce\xb5\xed\xa0\x80"))
    write("websocket", "continuation-without-start", 0, frame(0, b"orphan"))
    write("websocket", "64bit-length-too-big", 0, bytes([0x82, 0xFF]) + struct.pack("!Q", 1 << 40) + b"abcd")
    write("websocket", "two-messages", 11, frame(1, b"one") + frame(2, b"two" * 50))


if __name__ == "__main__":
    for kind in ("http", "websocket"):
        os.makedirs(os.path.join(HERE, "corpus", kind), exist_ok=True)
    http()
    websocket()
