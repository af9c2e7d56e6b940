"""A bare asyncio HTTP/1.1 server on uvloop (no framework): POST /stores/counter/actions, keep-alive.

Usage: asyncio_http_peer.py PORT. Parses only what wrk sends: a request line, fields, Content-Length bodies.
One thread.
"""
import asyncio
import sys

import uvloop

from ticker import Counter

counter = Counter()


class HTTPConnection(asyncio.Protocol):
    def connection_made(self, transport):
        self.transport = transport
        self.buffer = b""

    def data_received(self, data):
        self.buffer += data
        out = []
        while True:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                break
            head = self.buffer[:end].decode("latin-1").split("\r\n")
            length = 0
            for line in head[1:]:
                name, _, value = line.partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            if len(self.buffer) < end + 4 + length:
                break
            body = self.buffer[end + 4:end + 4 + length]
            self.buffer = self.buffer[end + 4 + length:]
            method, path, _ = head[0].split(" ", 2)
            if method == "POST" and path == "/stores/counter/actions":
                status, payload = counter.post(body)
            else:
                status, payload = 404, b'{"error":{"code":"not_found","message":"no such endpoint"}}'
            reason = {200: "OK", 400: "Bad Request", 404: "Not Found"}[status]
            out.append(b"HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
                       % (status, reason.encode(), len(payload), payload))
        if out:
            self.transport.write(b"".join(out))


async def main(port):
    server = await asyncio.get_running_loop().create_server(HTTPConnection, "127.0.0.1", port)
    print(f"asyncio-http listening on {port}", flush=True)
    await server.serve_forever()


uvloop.run(main(int(sys.argv[1])))
