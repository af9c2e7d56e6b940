"""Drives Tests/Support/chaos_proxy.py from a Python test: start it, send commands, wait for its event lines."""

import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


class ProxyProcess:
    """The proxy as a child process; `port` is where it listens. Every wait has a deadline."""

    def __init__(self, upstream):
        self.process = subprocess.Popen([sys.executable, str(HERE / "chaos_proxy.py"), "--upstream", str(upstream)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        first = self.next_line(10)
        if not first.startswith("listening "):
            raise RuntimeError(f"chaos proxy did not start: {first!r}")
        self.port = int(first.split()[1])
        self.seen = []

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)

    def next_line(self, timeout_s=5):
        try:
            line = self.lines.get(timeout=timeout_s)
        except queue.Empty:
            return "(no line in time)"
        return "(proxy exited)" if line is None else line

    def command(self, text, timeout_s=5):
        """Sends a command; returns the event lines printed before its `ok` (or `error`) answer, and that answer."""
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()
        events = []
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            line = self.next_line(max(0.01, deadline - time.monotonic()))
            self.seen.append(line)
            if line.startswith(("ok", "error", "(")):
                return events, line
            events.append(line)
        return events, "(no answer in time)"

    def wait_for(self, prefix, timeout_s=5):
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            line = self.next_line(max(0.01, deadline - time.monotonic()))
            self.seen.append(line)
            if line.startswith(prefix):
                return line
        return None

    def stop(self):
        if self.process.poll() is None:
            try:
                self.process.stdin.write("quit\n")
                self.process.stdin.flush()
                return self.process.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        return self.process.returncode

    def count(self, kind):
        """How many event lines of `kind` (`cut`, `stall`, `open`, …) the proxy has printed so far."""
        while True:
            try:
                line = self.lines.get_nowait()
            except queue.Empty:
                break
            self.seen.append("(proxy exited)" if line is None else line)
        return sum(1 for line in self.seen if line.split(" ", 1)[0] == kind)
