#!/usr/bin/env python3
"""make soak: replays the attacks of issue 12 against the real release server, each bounded in count and time.

Each attack runs against a fresh `statehouse serve` on 127.0.0.1 (port 0) and ends with a fresh client being served
normally. The run prints one line per check and closes with "N passed, M failed"; it exits 1 if any check failed.

    .venv/bin/python Tests/Soak/soak.py --binary .build/release/statehouse [--only NAME ...]
"""

import argparse
import json
import select
import socket
import sys
import threading
import time

from soak_support import (
    Checks, HTTPClient, Server, WebSocketClient, close_code, closed_by_peer, connect, healthy, open_many_websockets, percentile,
    raise_own_fd_limit, recv_nonblocking, request_bytes, run_parts, wait_until_read)

MIB = 1 << 20


def base_config(**sections):
    config = {
        "listen": {"host": "127.0.0.1", "port": 0},
        "stores": [
            {"name": "counter", "reducer": "Counter"},
            {"name": "todos", "reducer": "TodoList"},
            {"name": "search", "reducer": "Search"},
        ],
    }
    config.update(sections)
    return config


def grow_todos(client, store, total_bytes, item_bytes=1000, batch_bytes=512 * 1024):
    """Adds items of `item_bytes` characters to a TodoList until its JSON is about `total_bytes`."""
    per_item = item_bytes + 40
    added = 0
    while added * per_item < total_bytes:
        count = max(1, min(batch_bytes, total_bytes - added * per_item) // per_item)
        batch = [{"type": "add", "payload": {"text": f"{added + i:08d}" + "x" * (item_bytes - 8)}} for i in range(count)]
        response = client.request("POST", f"/stores/{store}/actions", json.dumps(batch))
        if response.status != 200:
            raise RuntimeError(f"growing {store}: {response.status} {response.body[:200]!r}")
        added += count
    return len(client.request("GET", f"/stores/{store}").body)


def served_after(checks, server, attack):
    checks.check(server.is_running(), f"{attack}: the server is still running")
    checks.check(healthy(server.port), f"{attack}: a fresh client is served normally afterwards")


# MARK: The attacks


def pipelining(checks, binary):
    """5 connections pipeline GET of a 64 KB state 20,000 times each and never read."""
    server = Server(binary, base_config(timeouts={"writeStallMs": 4000})).start()
    try:
        setup = HTTPClient(server.port)
        size = grow_todos(setup, "todos", 64 * 1024)
        setup.close()
        checks.note(f"todos state is {size} bytes")
        baseline = server.rss_bytes()
        request = request_bytes("GET", "/stores/todos")
        attackers = []
        stop = threading.Event()

        def attack():
            sock = connect(server.port)
            attackers.append(sock)
            sock.setblocking(False)
            data = request * 20_000
            sent = 0
            idle_since = time.monotonic()
            while sent < len(data) and not stop.is_set() and time.monotonic() - idle_since < 2:
                try:
                    count = sock.send(data[sent:sent + 65536])
                    sent += count
                    idle_since = time.monotonic()
                except BlockingIOError:
                    time.sleep(0.01)
                except OSError:
                    return

        threads = [threading.Thread(target=attack) for _ in range(5)]
        for thread in threads:
            thread.start()
        peak = [baseline]

        def sample():
            while not stop.is_set():
                peak[0] = max(peak[0], server.rss_bytes())
                time.sleep(0.05)

        sampler = threading.Thread(target=sample)
        sampler.start()
        good = HTTPClient(server.port)
        latencies = []
        until = time.monotonic() + 6
        while time.monotonic() < until:
            start = time.monotonic()
            good.request("GET", "/stores/counter")
            latencies.append(time.monotonic() - start)
            time.sleep(0.005)
        good.close()
        stop.set()
        for thread in threads + [sampler]:
            thread.join()
        growth = peak[0] - baseline
        p99 = percentile(latencies, 0.99)
        checks.note(f"RSS {baseline / MIB:.1f} MiB -> peak {peak[0] / MIB:.1f} MiB; well-behaved client p50 "
                    f"{percentile(latencies, 0.5) * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms over {len(latencies)} requests")
        checks.check(growth < 64 * MIB, f"pipelining: RSS growth {growth / MIB:.1f} MiB < 64 MiB")
        checks.check(p99 < 0.050, f"pipelining: a well-behaved client's p99 {p99 * 1000:.1f} ms < 50 ms")
        # The attackers read nothing: after writeStallMs (4 s) the server closes them.
        closed = 0
        for sock in attackers:
            sock.setblocking(True)
            if closed_by_peer(sock, timeout_s=15):
                closed += 1
            sock.close()
        checks.check(closed == len(attackers), f"pipelining: {closed} of {len(attackers)} stalled connections closed by the server")
        served_after(checks, server, "pipelining")
    finally:
        server.stop()


def deleted_store(checks, binary):
    """A keep-alive connection grows a PUT store to 5 MB, then DELETEs it: the memory goes back."""
    server = Server(binary, base_config()).start()
    try:
        client = HTTPClient(server.port)
        client.request("GET", "/healthz")
        baseline = server.rss_bytes()
        created = client.request("PUT", "/stores/big", '{"reducer":"TodoList"}')
        checks.check(created.status == 201, "deleted store: PUT /stores/big is 201")
        size = grow_todos(client, "big", 5 * MIB, item_bytes=10_000)
        loaded = server.rss_bytes()
        deleted = client.request("DELETE", "/stores/big")
        checks.check(deleted.status == 204, "deleted store: DELETE is 204")
        # Keep the connection open (it looked the store up); poll until the memory is back or 10 s pass.
        # The store itself is freed (StoreDeletionTests); what stays is glibc heap that malloc_trim cannot return (about
        # 15 MiB before issue 13, 18 MiB since: the allocation pattern changed, the cause is not pinned down yet).
        allowed = baseline + max(0.2 * baseline, 20 * MIB)
        deadline = time.monotonic() + 10
        after = server.rss_bytes()
        while after > allowed and time.monotonic() < deadline:
            time.sleep(0.2)
            after = server.rss_bytes()
        checks.note(f"state {size / MIB:.1f} MiB; RSS {baseline / MIB:.1f} -> {loaded / MIB:.1f} -> {after / MIB:.1f} MiB")
        checks.check(after <= allowed, f"deleted store: RSS {after / MIB:.1f} MiB back within 20% (or 20 MiB) of "
                                       f"{baseline / MIB:.1f} MiB while the connection stays open")
        client.close()
        served_after(checks, server, "deleted store")
    finally:
        server.stop()


def fanout_fairness(checks, binary, subscribers):
    """One POST of 256 actions to a store with many subscribers; a client of another store keeps its latency."""
    server = Server(binary, base_config(limits={"maxConnections": subscribers + 100})).start()
    sockets = []
    try:
        sockets = open_many_websockets(server.port, "/stores/counter/ws", subscribers, deadline_s=90)
        checks.note(f"{len(sockets)} subscribers of counter")
        checks.check(len(sockets) >= subscribers * 0.95, f"fairness: {len(sockets)} of {subscribers} subscribers joined")
        other = HTTPClient(server.port)
        poster = HTTPClient(server.port)
        batch = json.dumps([{"type": "increment"}] * 256)
        latencies = []
        done = threading.Event()

        def fan_out():
            for _ in range(3):
                poster.request("POST", "/stores/counter/actions", batch)
            done.set()

        thread = threading.Thread(target=fan_out)
        thread.start()
        window_ends = time.monotonic() + 4  # the fan-out goes on after the POSTs are answered: probe through it
        while not done.is_set() or time.monotonic() < window_ends:
            start = time.monotonic()
            other.request("POST", "/stores/search/actions", '{"type":"query","payload":"ap"}')
            latencies.append(time.monotonic() - start)
        thread.join()
        worst = max(latencies) if latencies else 0
        p99 = percentile(latencies, 0.99)
        checks.note(f"other store's client during the fan-out: {len(latencies)} requests, p50 "
                    f"{percentile(latencies, 0.5) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, max {worst * 1000:.1f} ms")
        checks.check(worst < 0.2, f"fairness: the other store's client waited at most {worst * 1000:.0f} ms (< 200 ms)")
        other.close()
        poster.close()
        served_after(checks, server, "fairness")
    finally:
        for sock in sockets:
            sock.close()
        server.stop()


def big_state(checks, binary, megabytes):
    """A TodoList grown to N MB with 100 subscribers: peak RSS, time per change, RSS after DELETE."""
    server = Server(binary, base_config()).start()
    sockets = []
    try:
        client = HTTPClient(server.port)
        client.request("PUT", "/stores/big", '{"reducer":"TodoList"}')
        baseline = server.rss_bytes()
        size = grow_todos(client, "big", megabytes * MIB, item_bytes=10_000)
        sockets = [WebSocketClient(server.port, "/stores/big/ws", timeout=30) for _ in range(100)]
        for ws in sockets:
            first = ws.receive_json(timeout_s=30)
            if first is None:
                break
        times = []
        for index in range(5):
            start = time.monotonic()
            client.request("POST", "/stores/big/actions", json.dumps({"type": "toggle", "payload": {"id": index + 1}}))
            times.append(time.monotonic() - start)
            for ws in sockets:  # every subscriber reads its message, as a live client would
                ws.receive(timeout_s=30)
        peak = server.peak_rss_bytes()
        for ws in sockets:
            ws.close()
        sockets = []
        client.request("DELETE", "/stores/big")
        time.sleep(5)  # the benchmark's measure: RSS 5 s after DELETE
        after = server.rss_bytes()
        checks.note(f"{megabytes} MB state ({size / MIB:.1f} MiB): peak RSS {peak / MIB:.0f} MiB "
                    f"({peak / size:.0f}x the state), change p50 {percentile(times, 0.5) * 1000:.0f} ms, RSS "
                    f"{baseline / MIB:.1f} MiB before, {after / MIB:.1f} MiB 5 s after DELETE")
        checks.check(peak - baseline <= 30 * size,
                     f"big state {megabytes} MB: peak RSS {peak / MIB:.0f} MiB grew {(peak - baseline) / size:.0f}x the state (<= 30x)")
        client.close()
        served_after(checks, server, f"big state {megabytes} MB")
    finally:
        for ws in sockets:
            ws.close()
        server.stop()


def fd_limit(checks, binary):
    """`ulimit -n 256` and 1,000 connections at once: each is answered (200 or 503), and refusals are logged."""
    server = Server(binary, base_config(), nofile=256).start()
    try:
        request = request_bytes("GET", "/healthz", headers=[("Connection", "close")])
        sockets = {}
        for _ in range(1000):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setblocking(False)
            try:
                sock.connect(("127.0.0.1", server.port))
            except BlockingIOError:
                pass
            sockets[sock.fileno()] = [sock, b"", False]
        poller = select.epoll()
        for fd in sockets:
            poller.register(fd, select.EPOLLOUT | select.EPOLLIN)
        results = {}
        deadline = time.monotonic() + 20
        while len(results) < len(sockets) and time.monotonic() < deadline:
            for fd, events in poller.poll(0.5):
                sock, data, sent = sockets[fd]
                if not sent and events & select.EPOLLOUT and not events & (select.EPOLLERR | select.EPOLLHUP):
                    try:
                        sock.send(request)
                    except OSError:
                        pass
                    sockets[fd][2] = True
                    poller.modify(fd, select.EPOLLIN)
                    continue
                chunk = recv_nonblocking(sock)
                if chunk is None:
                    continue
                if chunk:
                    sockets[fd][1] += chunk
                    continue
                poller.unregister(fd)
                data = sockets[fd][1]
                results[fd] = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.1 ") else None
        poller.close()
        for sock, _, _ in sockets.values():
            sock.close()
        served = sum(1 for status in results.values() if status == 200)
        refused = sum(1 for status in results.values() if status == 503)
        unanswered = len(sockets) - served - refused
        checks.note(f"{len(sockets)} connections: {served} served, {refused} refused with 503, {unanswered} without an answer")
        checks.check(unanswered == 0, f"fd limit: every connection got an answer ({unanswered} did not)")
        checks.check("refused" in server.log_text(), "fd limit: refusals are logged")
        served_after(checks, server, "fd limit")
        status = server.stop()
        checks.check(status == 0, f"fd limit: SIGTERM stops the server at its fd limit (exit status {status})")
    finally:
        server.stop()


def shutdown_long_polls(checks, binary):
    """SIGTERM while min_version long polls wait: each is answered with the state it has, and the exit is 0."""
    server = Server(binary, base_config()).start()
    clients = []
    for _ in range(10):
        client = HTTPClient(server.port)
        client.request("GET", "/healthz")
        client.send(request_bytes("GET", "/stores/counter?min_version=1000&timeout_ms=600000"))
        clients.append(client)
    ports = [client.sock.getsockname()[1] for client in clients]
    checks.check(wait_until_read(server.port, ports), "shutdown: the server has read every long poll")
    start = time.monotonic()
    status = server.stop()
    answers = []
    for client in clients:
        try:
            answers.append(client.read_response().status)
        except OSError:
            answers.append(None)
        client.close()
    elapsed = time.monotonic() - start
    checks.check(answers == [503] * 10, f"shutdown: every waiting long poll answered 503 with the state ({answers})")
    checks.check(status == 0 and elapsed < 5, f"shutdown: exit status {status} after {elapsed:.1f} s")


def far_behind(checks, binary):
    """A subscriber that reads nothing while its store changes is closed with 4008 after maxLagSeconds."""
    server = Server(binary, base_config(
        streams={"maxLagSeconds": 2, "writeHighWaterBytes": 65536}, timeouts={"writeStallMs": 30000})).start()
    try:
        setup = HTTPClient(server.port)
        grow_todos(setup, "todos", 64 * 1024)
        ws = WebSocketClient(server.port, "/stores/todos/ws", recv_buffer=4096)
        start = time.monotonic()
        while time.monotonic() - start < 1.0:
            setup.request("POST", "/stores/todos/actions", '{"type":"toggle","payload":{"id":1}}')
        # No change after this: the lag rule must fire on its own, not on the next message. The client goes on not
        # reading past maxLagSeconds (the attack itself), then reads its backlog to the end.
        time.sleep(3)
        code = None
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            frame = ws.receive(timeout_s=deadline - time.monotonic())
            if frame is None:
                break
            if frame[0] == 0x8:
                code = close_code(frame[1])
                break
        checks.check(code == 4008, f"far behind: closed with 4008 (got {code})")
        ws.close()
        setup.close()
        served_after(checks, server, "far behind")
    finally:
        server.stop()


def epochs_across_restart(checks, binary):
    """min_version after a restart: a version of the old epoch is answered at once, saying so."""
    first = Server(binary, base_config()).start()
    client = HTTPClient(first.port)
    for _ in range(3):
        client.request("POST", "/stores/counter/actions", '{"type":"increment"}')
    epoch = client.request("GET", "/stores/counter").field("ETag").strip('"').rsplit("-", 1)[0]
    client.close()
    first.stop()
    second = Server(binary, base_config()).start()
    try:
        client = HTTPClient(second.port)
        start = time.monotonic()
        response = client.request("GET", f"/stores/counter?min_version=3&epoch={epoch}&timeout_ms=10000")
        elapsed = time.monotonic() - start
        code = response.json().get("error", {}).get("code")
        checks.check(response.status == 409 and code == "epoch_mismatch" and elapsed < 2,
                     f"epochs: min_version of the old epoch answered at once ({response.status} {code}, {elapsed:.2f} s)")
        client.close()
        served_after(checks, second, "epochs")
    finally:
        second.stop()


def protocol_findings(checks, binary):
    """The RFC findings: 501 for transfer codings, 1012-1014 close codes, 426 fields."""
    server = Server(binary, base_config()).start()
    try:
        client = HTTPClient(server.port)
        client.send(b"POST /stores/counter/actions HTTP/1.1\r\nHost: soak\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"
                    b"0\r\n\r\n")
        response = client.read_response()
        checks.check(response.status == 501 and client.is_closed_by_peer(), "rfc: gzip, chunked is 501 and closes")
        client.close()
        for code in (1012, 1013, 1014):
            ws = WebSocketClient(server.port, "/stores/counter/ws")
            ws.receive_json()
            ws.send_close(code)
            frame = ws.receive()
            checks.check(frame is not None and frame[0] == 0x8 and close_code(frame[1]) == code, f"rfc: close {code} echoed")
            ws.close()
        client = HTTPClient(server.port)
        plain = client.request("GET", "/stores/counter/ws")
        checks.check(plain.status == 426 and plain.field("Upgrade") == "websocket"
                     and "upgrade" in [value.lower() for value in plain.values("Connection")],
                     "rfc: 426 carries Upgrade and Connection: Upgrade")
        client.close()
        served_after(checks, server, "rfc")
    finally:
        server.stop()


ATTACKS = ["pipelining", "deleted-store", "fairness", "big-state", "fd-limit", "shutdown", "far-behind", "epochs", "rfc"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=".build/release/statehouse")
    parser.add_argument("--only", nargs="*", choices=ATTACKS, help="run these attacks only")
    parser.add_argument("--subscribers", type=int, default=10_000, help="fairness: subscribers (default 10000)")
    args = parser.parse_args()
    limit = raise_own_fd_limit()
    subscribers = min(args.subscribers, limit // 2 - 200)
    checks = Checks()
    runs = {
        "pipelining": lambda: pipelining(checks, args.binary),
        "deleted-store": lambda: deleted_store(checks, args.binary),
        "fairness": lambda: fanout_fairness(checks, args.binary, subscribers),
        "big-state": lambda: (big_state(checks, args.binary, 1), big_state(checks, args.binary, 5)),
        "fd-limit": lambda: fd_limit(checks, args.binary),
        "shutdown": lambda: shutdown_long_polls(checks, args.binary),
        "far-behind": lambda: far_behind(checks, args.binary),
        "epochs": lambda: epochs_across_restart(checks, args.binary),
        "rfc": lambda: protocol_findings(checks, args.binary),
    }
    sys.exit(run_parts(checks, runs, args.only or ATTACKS, "soak"))


if __name__ == "__main__":
    main()
