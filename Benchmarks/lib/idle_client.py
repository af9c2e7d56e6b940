"""Creates stores and holds idle WebSocket subscribers, for the idle-connections scenario (stdlib only).

Usage: idle_client.py PORT STORES CONNECTIONS HOLD_SECONDS
Phase 1: PUT /stores/idle-<i> {"reducer":"Counter"} for i < STORES, then prints "STORES_READY".
Phase 2: opens CONNECTIONS WebSocket subscribers, round robin over the stores, reads each one's 101 response and
snapshot, prints "CONNECTIONS_READY <n>", and holds them HOLD_SECONDS (or until stdin closes), then exits.
Loopback only.
"""
import http.client
import select
import socket
import sys
import time

port, stores, conns, hold = (int(a) for a in sys.argv[1:5])
http_conn = http.client.HTTPConnection("127.0.0.1", port)
for i in range(stores):
    http_conn.request("PUT", f"/stores/idle-{i}", body=b'{"reducer":"Counter"}',
                      headers={"Content-Type": "application/json"})
    response = http_conn.getresponse()
    response.read()
    if response.status not in (200, 201):
        sys.exit(f"PUT idle-{i}: {response.status}")
print("STORES_READY", flush=True)

sockets = []
for i in range(conns):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(f"GET /stores/idle-{i % stores}/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
              "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
              "Sec-WebSocket-Version: 13\r\n\r\n".encode())
    data = b""
    while b"\r\n\r\n" not in data or len(data) < data.index(b"\r\n\r\n") + 6:  # head and the snapshot frame start
        chunk = s.recv(4096)
        if not chunk:
            sys.exit(f"connection {i} closed during the handshake")
        data += chunk
    if not data.startswith(b"HTTP/1.1 101"):
        sys.exit(f"connection {i}: {data[:40]!r}")
    sockets.append(s)
print("CONNECTIONS_READY", len(sockets), flush=True)
select.select([sys.stdin], [], [], hold)
