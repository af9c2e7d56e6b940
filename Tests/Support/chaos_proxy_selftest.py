#!/usr/bin/env python3
"""Self-test of chaos_proxy.py against two small echo servers (stdlib only; `make test` runs it).

Prints one line per check, then "chaos proxy: N passed, M failed"; exits 1 if any check failed. Every wait has a
deadline (a proxy that hangs fails the check, it does not hang the run).
"""

import socket
import sys
import threading
import time

from chaos_control import ProxyProcess


class EchoServer:
    """Echoes every byte back, prefixed once per connection by its tag (so a test sees which upstream answered)."""

    def __init__(self, tag):
        self.tag = tag
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                sock, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._echo, args=(sock,), daemon=True).start()

    def _echo(self, sock):
        with sock:
            try:
                sock.sendall(self.tag)
                while data := sock.recv(65536):
                    sock.sendall(data)
            except OSError:
                pass

    def close(self):
        try:
            self.listener.shutdown(socket.SHUT_RDWR)  # wakes the accepting thread (close alone would not, on Linux)
        except OSError:
            pass
        self.listener.close()


def dial(port):
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def dial_outcome(port):
    """Connects and reads: how the connection ended. The reset may already reach connect() itself on loopback."""
    try:
        sock = dial(port)
    except ConnectionResetError:
        return "reset"
    try:
        return outcome_of_read(sock)
    finally:
        sock.close()


def receive(sock, count):
    data = b""
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            break
        data += chunk
    return data


def outcome_of_read(sock):
    """What a blocking read sees now: 'reset', 'eof' or 'data'."""
    try:
        return "eof" if not sock.recv(1) else "data"
    except ConnectionResetError:
        return "reset"
    except socket.timeout:
        return "timeout"


def main():
    passed, failed = 0, []

    def check(condition, what):
        nonlocal passed
        print(("  ok    " if condition else "  FAIL  ") + what, flush=True)
        if condition:
            passed += 1
        else:
            failed.append(what)

    first, second = EchoServer(b"A"), EchoServer(b"B")
    proxy = ProxyProcess(first.port)
    try:
        sock = dial(proxy.port)
        sock.sendall(b"hello")
        check(receive(sock, 6) == b"Ahello", "bytes are forwarded both ways")
        check(proxy.wait_for("open ") == "open 1", "an accepted connection prints `open 1`")

        events, answer = proxy.command("cut")
        check(events == ["cut 1"] and answer == "ok cut 1", f"cut resets the open connection ({events}, {answer})")
        check(outcome_of_read(sock) == "reset", "the client sees a TCP reset, not a clean end")
        sock.close()

        sock = dial(proxy.port)
        check(receive(sock, 1) == b"A", "a connection after a cut works")
        proxy.wait_for("open ")
        events, answer = proxy.command("stall 300")
        check(answer == "ok stall 1 300" and events == ["stall 2 300"], f"stall answers ({events}, {answer})")
        started = time.monotonic()
        sock.sendall(b"x")
        echoed = receive(sock, 1)
        waited = time.monotonic() - started
        check(echoed == b"x" and waited >= 0.25, f"a stalled connection forwards after the stall ({waited:.3f} s)")
        sock.close()
        check(proxy.wait_for("close ") == "close 2", "a connection the client ends prints `close 2`")

        sock = dial(proxy.port)
        receive(sock, 1)
        proxy.wait_for("open ")
        _, answer = proxy.command("stall 300 down")
        started = time.monotonic()
        sock.sendall(b"y")
        echoed = receive(sock, 1)
        waited = time.monotonic() - started
        check(answer == "ok stall 1 300" and echoed == b"y" and waited >= 0.25,
              f"stall down holds the answers ({answer}, {waited:.3f} s)")
        sock.close()
        proxy.wait_for("close ")

        _, answer = proxy.command(f"upstream {second.port}")
        check(answer == f"ok upstream {second.port}", "upstream answers")
        sock = dial(proxy.port)
        check(receive(sock, 1) == b"B", "new connections go to the new upstream")
        sock.close()
        proxy.wait_for("close ")

        _, answer = proxy.command("refuse on")
        check(answer == "ok refuse on" and dial_outcome(proxy.port) in ("reset", "eof"),
              "refuse on: a new connection is reset at once")
        check((proxy.wait_for("refused ") or "").startswith("refused "), "refuse prints `refused <id>`")
        proxy.command("refuse off")
        sock = dial(proxy.port)
        check(receive(sock, 1) == b"B", "refuse off: connections work again")
        sock.close()
        proxy.wait_for("close ")

        second.close()
        check(dial_outcome(proxy.port) in ("reset", "eof") and (proxy.wait_for("unreachable ") or "").startswith(
            "unreachable "), "an unreachable upstream resets the client and prints `unreachable <id>`")

        proxy.command(f"upstream {first.port}")
        socks = [dial(proxy.port) for _ in range(3)]
        for each in socks:
            receive(each, 1)
        _, answer = proxy.command("chaos 7 20 40")
        check(answer == "ok chaos 7 20 40", "chaos answers")
        hits = [proxy.wait_for("cut ", 3) for _ in range(3)]
        check(all(hits), f"chaos cuts every connection in the end ({hits})")
        _, answer = proxy.command("calm")
        check(answer == "ok calm", "calm answers")
        sock = dial(proxy.port)
        sock.settimeout(0.3)
        receive(sock, 1)
        check(outcome_of_read(sock) == "timeout", "after calm a connection is left alone")
        sock.close()

        _, answer = proxy.command("bogus 1")
        check(answer.startswith("error unknown command"), "an unknown command gets an error line")
        check(proxy.stop() == 0, "quit exits 0")
    finally:
        if proxy.process.poll() is None:
            proxy.process.kill()
            proxy.process.wait()
        first.close()
        second.close()
    print(f"chaos proxy: {passed} checks passed, {len(failed)} failed", flush=True)
    # The self-test is one test in `make test`'s summary (scripts/test-summary reads this line).
    print(f"chaos proxy tests: {0 if failed else 1} passed, {1 if failed else 0} failed", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
