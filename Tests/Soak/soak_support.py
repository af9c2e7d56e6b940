"""Support for the soak run (Tests/Soak/soak.py): the real server as a subprocess, and small raw clients.

Every client here is written against the wire (HTTP/1.1 and RFC 6455 framing over plain sockets), so an attack can
do what no polite library does: pipeline without reading, never read at all, hold thousands of sockets.
"""

import base64
import ctypes
import json
import os
import resource
import select
import signal
import socket
import struct
import subprocess
import tempfile
import time


class Checks:
    """Collects named pass/fail results and prints them as they come."""

    def __init__(self):
        self.passed = 0
        self.failed = []

    def check(self, condition, what):
        if condition:
            self.passed += 1
            print(f"  ok    {what}", flush=True)
        else:
            self.failed.append(what)
            print(f"  FAIL  {what}", flush=True)
        return condition

    def note(self, text):
        print(f"  ..    {text}", flush=True)


def run_parts(checks, runs, names, title, detail=None):
    """Runs `runs[name]()` for each name (a part that cannot even run is a failure, not a crash of the run), then
    prints the "N passed, M failed" summary; the exit status: 1 if any check failed."""
    started = time.monotonic()
    for name in names:
        print(f"== {name}", flush=True)
        part_started = time.monotonic()
        try:
            runs[name]()
        except Exception as error:
            checks.check(False, f"{name}: ran to the end ({type(error).__name__}: {error})")
        print(f"   ({time.monotonic() - part_started:.1f} s)", flush=True)
    print(f"{title} finished in {time.monotonic() - started:.0f} s" + (f" ({detail})" if detail else ""))
    print(f"{title}: {checks.passed} passed, {len(checks.failed)} failed")
    for what in checks.failed:
        print(f"  failed: {what}")
    return 1 if checks.failed else 0


class ChildProcess:
    """A child process in `self.process` (a subprocess.Popen, or None before it starts) writing its log to
    `self.log_path`: how tests end it and read its log."""

    process = None
    log_path = None

    def is_running(self):
        return self.process is not None and self.process.poll() is None

    def log_text(self):
        try:
            with open(self.log_path, "rb") as file:
                return file.read().decode(errors="replace")
        except (OSError, TypeError):
            return ""

    def kill(self):
        """SIGKILL (no chance to flush or close anything), then the exit status (-9)."""
        if self.process is None or self.process.poll() is not None:
            return self.process.returncode if self.process else None
        self.process.kill()
        return self.process.wait()

    def stop(self, timeout_s=15):
        """SIGTERM, then the exit status (SIGKILL and None past the timeout)."""
        if self.process is None or self.process.poll() is not None:
            return self.process.returncode if self.process else None
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return None


class Server(ChildProcess):
    """`statehouse serve` on 127.0.0.1, port 0, with a configuration written to a temporary file (or, when `config` is
    a str, the configuration file at that path, which several servers may share); `args` are added to the command
    line (e.g. `["--node", "n1"]`)."""

    def __init__(self, binary, config, nofile=None, env=None, args=()):
        self.binary = binary
        self.config = config
        self.nofile = nofile
        self.env = env
        self.args = list(args)
        self.process = None
        self.port = None
        self.directory = tempfile.mkdtemp(prefix="statehouse-soak-")
        self.log_path = os.path.join(self.directory, "stderr.log")

    def start(self, deadline_s=20):
        if isinstance(self.config, str):
            path = self.config
        else:
            path = os.path.join(self.directory, "config.json")
            with open(path, "w") as file:
                json.dump(self.config, file)
        nofile = self.nofile

        def limit():
            # The server dies with this run (PR_SET_PDEATHSIG = 1, SIGKILL), even one killed by a timeout.
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)
            if nofile is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

        self.log = open(self.log_path, "ab")  # appended across restarts (the crash run starts one server many times)
        env = dict(os.environ, **(self.env or {}))
        self.process = subprocess.Popen(
            [self.binary, "serve", "--config", path, "--port", "0"] + self.args,
            stdout=subprocess.PIPE, stderr=self.log, preexec_fn=limit, env=env)
        deadline = time.monotonic() + deadline_s
        line = b""
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.process.stdout], [], [], 0.5)
            if ready:
                line = self.process.stdout.readline()
                break
            if self.process.poll() is not None:
                break
        text = line.decode().strip()
        if not text.startswith("statehouse listening on http://"):
            raise RuntimeError(f"server did not start: {text!r}; log: {self.log_text()[-2000:]}")
        self.port = int(text.rsplit(":", 1)[1])
        return self

    def rss_bytes(self):
        return self._status_kb("VmRSS") * 1024

    def peak_rss_bytes(self):
        return self._status_kb("VmHWM") * 1024

    def _status_kb(self, key):
        with open(f"/proc/{self.process.pid}/status") as file:
            for line in file:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
        return 0




def connect(port, timeout=5.0):
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def request_bytes(method, path, body=None, headers=()):
    head = f"{method} {path} HTTP/1.1\r\nHost: soak\r\n"
    for name, value in headers:
        head += f"{name}: {value}\r\n"
    data = b"" if body is None else (body if isinstance(body, bytes) else body.encode())
    if body is not None:
        head += f"Content-Length: {len(data)}\r\n"
    return (head + "\r\n").encode() + data


class Response:
    def __init__(self, status, fields, body):
        self.status = status
        self.fields = fields
        self.body = body

    def field(self, name):
        values = self.values(name)
        return values[0] if values else None

    def values(self, name):
        return [value for key, value in self.fields if key.lower() == name.lower()]

    def json(self):
        return json.loads(self.body)


class HTTPClient:
    """One keep-alive HTTP/1.1 connection (Content-Length responses only, as the server sends)."""

    def __init__(self, port, timeout=10.0):
        self.sock = connect(port, timeout)
        self.buffer = b""

    def send(self, data):
        self.sock.sendall(data)

    def request(self, method, path, body=None, headers=()):
        self.send(request_bytes(method, path, body, headers))
        return self.read_response()

    def read_response(self):
        while b"\r\n\r\n" not in self.buffer:
            self._fill()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ")[1])
        fields = [tuple(part.strip() for part in line.split(":", 1)) for line in lines[1:]]
        length = 0
        for name, value in fields:
            if name.lower() == "content-length":
                length = int(value)
        while len(self.buffer) < length:
            self._fill()
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        return Response(status, fields, body)

    def _fill(self):
        chunk = self.sock.recv(1 << 20)
        if not chunk:
            raise ConnectionError("closed by the server")
        self.buffer += chunk

    def is_closed_by_peer(self, timeout_s=5.0):
        return closed_by_peer(self.sock, timeout_s)

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def closed_by_peer(sock, timeout_s=5.0):
    """True once the server has closed `sock` (EOF or reset) within the timeout; reads and drops any data meanwhile."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        ready, _, _ = select.select([sock], [], [], 0.2)
        if ready:
            try:
                if not sock.recv(1 << 20):
                    return True
            except (ConnectionResetError, BrokenPipeError):
                return True
    return False


def healthy(port):
    """A fresh client is served normally: /healthz and an action."""
    try:
        client = HTTPClient(port)
        try:
            health = client.request("GET", "/healthz")
            post = client.request("POST", "/stores/counter/actions", '{"type":"increment"}')
            return health.status == 200 and post.status == 200
        finally:
            client.close()
    except OSError:
        return False


# MARK: WebSocket (RFC 6455), client side

def ws_handshake_bytes(path):
    key = base64.b64encode(os.urandom(16)).decode()
    return (f"GET {path} HTTP/1.1\r\nHost: soak\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode()


def ws_frame(opcode, payload):
    """A masked client frame."""
    mask = os.urandom(4)
    length = len(payload)
    if length < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
    elif length < 65536:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
    masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
    return head + mask + masked


def ws_parse_frames(data):
    """Server frames from the start of `data`: ([(opcode, payload)], bytes left over)."""
    frames = []
    offset = 0
    while len(data) - offset >= 2:
        first, second = data[offset], data[offset + 1]
        length = second & 0x7F
        header = 2
        if length == 126:
            if len(data) - offset < 4:
                break
            length = struct.unpack_from("!H", data, offset + 2)[0]
            header = 4
        elif length == 127:
            if len(data) - offset < 10:
                break
            length = struct.unpack_from("!Q", data, offset + 2)[0]
            header = 10
        if len(data) - offset < header + length:
            break
        frames.append((first & 0x0F, data[offset + header:offset + header + length]))
        offset += header + length
    return frames, data[offset:]


class WebSocketClient:
    """A blocking WebSocket client on a raw socket (the server's 101 and frames parsed by hand)."""

    def __init__(self, port, path, recv_buffer=None, timeout=10.0):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if recv_buffer is not None:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, recv_buffer)
        self.sock.settimeout(timeout)
        self.sock.connect(("127.0.0.1", port))
        self.sock.sendall(ws_handshake_bytes(path))
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed during the handshake")
            self.buffer += chunk
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        if not head.startswith(b"HTTP/1.1 101"):
            raise ConnectionError(f"handshake refused: {head[:80]!r}")
        self.frames = []
        self.closed = False  # True once EOF or a reset was read (receive returned None for that, not a timeout)

    def receive(self, timeout_s=10.0):
        """The next frame (opcode, payload), or None on EOF/reset/timeout (`closed` tells EOF/reset apart)."""
        deadline = time.monotonic() + timeout_s
        while not self.frames:
            frames, self.buffer = ws_parse_frames(self.buffer)
            self.frames.extend(frames)
            if self.frames:
                break
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            self.sock.settimeout(remaining)
            try:
                chunk = self.sock.recv(1 << 20)
            except socket.timeout:
                return None
            except OSError:
                self.closed = True
                return None
            if not chunk:
                self.closed = True
                return None
            self.buffer += chunk
        return self.frames.pop(0)

    def receive_json(self, timeout_s=10.0):
        frame = self.receive(timeout_s)
        if frame is None or frame[0] != 0x1:
            return None
        return json.loads(frame[1])

    def send_text(self, text):
        self.sock.sendall(ws_frame(0x1, text.encode()))

    def send_close(self, code, reason=b""):
        self.sock.sendall(ws_frame(0x8, struct.pack("!H", code) + reason))

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def close_code(payload):
    return struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None


def open_many_websockets(port, path, count, deadline_s):
    """Opens up to `count` WebSocket subscriptions with non-blocking sockets, handshakes in flight together.
    Returns the sockets whose 101 arrived (each has read its snapshot or soon will: nothing reads them)."""
    pending = {}
    opened = []
    deadline = time.monotonic() + deadline_s
    to_start = count
    poller = select.epoll()
    while (to_start > 0 or pending) and time.monotonic() < deadline:
        while to_start > 0 and len(pending) < 256:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setblocking(False)
            try:
                sock.connect(("127.0.0.1", port))
            except BlockingIOError:
                pass
            pending[sock.fileno()] = [sock, b"", False]
            poller.register(sock.fileno(), select.EPOLLOUT | select.EPOLLIN)
            to_start -= 1
        for fd, events in poller.poll(0.5):
            entry = pending.get(fd)
            if entry is None:
                continue
            sock = entry[0]
            if events & (select.EPOLLERR | select.EPOLLHUP):
                poller.unregister(fd)
                del pending[fd]
                sock.close()
                continue
            if not entry[2] and events & select.EPOLLOUT:
                sock.send(ws_handshake_bytes(path))
                entry[2] = True
                poller.modify(fd, select.EPOLLIN)
                continue
            if events & select.EPOLLIN:
                chunk = recv_nonblocking(sock)
                if chunk is None:
                    continue
                if not chunk:
                    poller.unregister(fd)
                    del pending[fd]
                    sock.close()
                    continue
                entry[1] += chunk
                if b"\r\n\r\n" in entry[1]:
                    poller.unregister(fd)
                    del pending[fd]
                    if entry[1].startswith(b"HTTP/1.1 101"):
                        opened.append(sock)
                    else:
                        sock.close()
    for entry in pending.values():
        entry[0].close()
    poller.close()
    return opened


def recv_nonblocking(sock):
    """Bytes from a non-blocking socket: b"" at EOF or on an error (reset), None when nothing is there yet."""
    try:
        return sock.recv(65536)
    except BlockingIOError:
        return None
    except OSError:
        return b""


def percentile(values, fraction):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def raise_own_fd_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def wait_until_read(server_port, client_ports, timeout_s=5.0):
    """Waits until the server has read every byte `client_ports` sent (in /proc/net/tcp the clients' send queues and
    the server's receive queues are empty): the signal that requests were taken in by the server process. False on
    timeout."""
    wanted = set(client_ports)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        pending = set()
        with open("/proc/net/tcp") as file:
            next(file)
            for line in file:
                parts = line.split()
                local_port = int(parts[1].split(":")[1], 16)
                remote_port = int(parts[2].split(":")[1], 16)
                tx_queue, rx_queue = (int(part, 16) for part in parts[4].split(":"))
                if local_port == server_port and remote_port in wanted and rx_queue > 0:
                    pending.add(remote_port)  # the server has not read it yet
                if remote_port == server_port and local_port in wanted and tx_queue > 0:
                    pending.add(local_port)  # not yet acknowledged by the server's side

        if not pending:
            return True
        time.sleep(0.01)
    return False
