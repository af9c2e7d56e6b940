"""Redis for the cluster test (Tests/Cluster/cluster_test.py): a redis-server of its own as a subprocess, and a tiny
RESP2 client over a socket (commands as arrays of bulk strings; replies: simple strings, errors, integers, bulk
strings, arrays; https://redis.io/docs/reference/protocol-spec/).

Only what the test reads: a store's lease, fence, meta hash and log stream (key layout in cluster_test.py).
"""

import ctypes
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Soak"))
from soak_support import ChildProcess  # noqa: E402


class RedisError(Exception):
    """An error reply (`-ERR ...`)."""


class RedisClient:
    """One blocking connection; not shared between threads."""

    def __init__(self, port, timeout=2.0):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.file = self.sock.makefile("rb")

    def command(self, *args):
        """Sends one command and returns its reply: str (simple string), int, bytes or None (bulk string), list
        (array); an error reply raises RedisError."""
        parts = [b"*%d\r\n" % len(args)]
        for arg in args:
            data = arg if isinstance(arg, bytes) else str(arg).encode()
            parts.append(b"$%d\r\n%s\r\n" % (len(data), data))
        self.sock.sendall(b"".join(parts))
        return self._reply()

    def _reply(self):
        line = self.file.readline()
        if not line.endswith(b"\r\n"):
            raise ConnectionError("connection closed by redis")
        kind, rest = line[:1], line[1:-2]
        if kind == b"+":
            return rest.decode()
        if kind == b"-":
            raise RedisError(rest.decode())
        if kind == b":":
            return int(rest)
        if kind == b"$":
            length = int(rest)
            if length < 0:
                return None
            data = self.file.read(length + 2)
            if len(data) != length + 2:
                raise ConnectionError("connection closed by redis")
            return data[:-2]
        if kind == b"*":
            count = int(rest)
            return None if count < 0 else [self._reply() for _ in range(count)]
        raise RedisError(f"unexpected reply type {line[:20]!r}")

    def close(self):
        try:
            self.file.close()
            self.sock.close()
        except OSError:
            pass


def text(value):
    return value.decode() if isinstance(value, bytes) else value


def read_store(client, name):
    """What Redis holds for store `name`: {"lease": str|None, "fence": int|None, "meta": {field: str},
    "log": [(entry id, {field: str})]} (the log oldest first, XRANGE - +)."""
    tag = "{s:" + name + "}"
    lease = client.command("GET", tag + ":lease")
    fence = client.command("GET", tag + ":fence")
    flat = client.command("HGETALL", tag + ":meta") or []
    meta = {text(flat[i]): text(flat[i + 1]) for i in range(0, len(flat) - 1, 2)}
    log = []
    for entry_id, fields in client.command("XRANGE", tag + ":log", "-", "+") or []:
        log.append((text(entry_id), {text(fields[i]): text(fields[i + 1]) for i in range(0, len(fields) - 1, 2)}))
    return {"lease": text(lease), "fence": int(fence) if fence is not None else None, "meta": meta, "log": log}


def free_port():
    """A loopback TCP port nothing listens on now (the kernel's pick for port 0)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class RedisServer(ChildProcess):
    """`redis-server` on 127.0.0.1:`port` with every write in its append-only file before the reply
    (`--appendonly yes --appendfsync always`), no RDB snapshots, its files in `directory`. Start it again on the same
    port and directory after a kill: it loads the AOF."""

    def __init__(self, directory, port=None, binary="redis-server"):
        self.directory = directory
        self.port = port or free_port()
        self.binary = binary
        self.process = None
        self.log_path = os.path.join(directory, "redis.log")

    def start(self, deadline_s=15):
        """Starts it and waits (polling PING, with a deadline) until it answers, the AOF loaded; returns the seconds
        that took. Raises RuntimeError if it does not answer in time."""
        started = time.monotonic()

        def die_with_parent():
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: no orphan after our death

        log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--appendonly", "yes",
             "--appendfsync", "always", "--save", "", "--dir", self.directory, "--daemonize", "no"],
            stdout=log, stderr=subprocess.STDOUT, preexec_fn=die_with_parent)
        log.close()
        deadline = started + deadline_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            if self.ping():
                return time.monotonic() - started
            time.sleep(0.02)
        raise RuntimeError(f"redis-server on port {self.port} did not answer PING within {deadline_s} s "
                           f"(exit {self.process.poll()}); log: {self.log_text()[-1500:]}")

    def ping(self):
        """True when it answers PONG (not while it loads its AOF: it answers -LOADING then)."""
        try:
            client = RedisClient(self.port, timeout=0.5)
        except OSError:
            return False
        try:
            return client.command("PING") == "PONG"
        except (OSError, RedisError):
            return False
        finally:
            client.close()

    def client(self, timeout=2.0):
        return RedisClient(self.port, timeout)

