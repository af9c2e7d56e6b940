#!/usr/bin/env python3
"""Self-check of ws_watch.py and ws_expect_close.py against selfcheck_fixture.py.

Run with the venv interpreter: .venv/bin/python Tests/Python/selfcheck_scripts.py
Prints one line per check and exits 1 if any failed.
"""

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PY = sys.executable


def start_fixture():
    fixture = subprocess.Popen([PY, str(HERE / "selfcheck_fixture.py")], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    ports = {}
    for _ in range(2):
        kind, port = fixture.stdout.readline().split()
        ports[kind] = int(port)
    return fixture, ports


def run(script, *args):
    done = subprocess.run([PY, str(HERE / script), *args], capture_output=True, text=True, timeout=30)
    return done.returncode, done.stdout.splitlines(), done.stderr


def main():
    fixture, ports = start_fixture()
    url = f"ws://127.0.0.1:{ports['WS']}/stores/counter/ws"
    failures = 0

    def check(name, condition, detail):
        nonlocal failures
        print(("ok   " if condition else "FAIL ") + name + ("" if condition else f": {detail}"))
        failures += 0 if condition else 1

    try:
        status, out, err = run("ws_watch.py", "--url", url, "--until-version", "0")
        check("watch sees version 0", status == 0 and out[0].startswith('{"type":"state"'), (status, out, err))
        status, out, err = run("ws_watch.py", "--url", url, "--until-version", "1",
                               "--action", '{"type":"increment"}', "--ref", "r1")
        check("watch with action gets ack and version 1",
              status == 0 and '{"type":"ack","ref":"r1","version":1}' in out, (status, out, err))
        status, out, err = run("ws_watch.py", "--url", url, "--until-version", "99", "--timeout", "1")
        check("watch times out with 1", status == 1, (status, out, err))
        status, out, err = run("ws_watch.py", "--url", url, "--until-version", "99",
                               "--action", '{"type":"nope"}', "--ref", "r9")
        check("watch exits 2 on an error reply", status == 2 and any('"error"' in l for l in out), (status, out, err))
        bad = f"ws://127.0.0.1:{ports['WS']}/stores/none/ws"
        status, out, err = run("ws_watch.py", "--url", bad, "--until-version", "0")
        check("watch exits 2 on a rejected handshake", status == 2, (status, out, err))
        status, out, err = run("ws_watch.py", "--url", url, "--until-version", "9",
                               "--action", '"not an object"', "--ref", "r2")
        check("watch exits 2 on close, code on stderr", status == 2 and "1007" in err, (status, out, err))

        status, out, err = run("ws_expect_close.py", "--url", url, "--send-raw-hex", "818200000000c328",
                               "--expect-code", "1007")
        check("raw invalid UTF-8 gives 1007", status == 0, (status, out, err))
        status, out, err = run("ws_expect_close.py", "--url", url, "--send-raw-hex", "8102 6869",
                               "--expect-code", "1002")
        check("raw unmasked frame gives 1002", status == 0, (status, out, err))
        status, out, err = run("ws_expect_close.py", "--url", url, "--send-text", "bye", "--expect-code", "1001")
        check("text leading to 1001", status == 0, (status, out, err))
        status, out, err = run("ws_expect_close.py", "--url", url, "--send-text", "bye", "--expect-code", "1000")
        check("wrong expected code exits 1", status == 1 and "1001" in err, (status, out, err))
    finally:
        fixture.stdin.close()
        fixture.wait(timeout=10)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
