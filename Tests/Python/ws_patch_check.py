#!/usr/bin/env python3
"""Checks Statehouse's JSON Patch stream with an independent RFC 6902 implementation (the `jsonpatch` package).

Opens two subscriptions to one store: `format=state` (full states) and `format=patch`. Applies every patch to the
state it claims as `base` and checks the result equals the full state the other stream reported for that version.
Creates --ready-file once both snapshots have arrived. Exits 0 once version --until-version was checked; prints
one line per checked version (`ok <version>`); exits 1 on a mismatch or timeout.
"""

import argparse
import json
import sys
import time

import jsonpatch
from websockets.sync.client import connect


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True, help="ws://127.0.0.1:PORT/stores/NAME/ws")
    parser.add_argument("--until-version", type=int, required=True)
    parser.add_argument("--ready-file", required=True)
    parser.add_argument("--timeout", type=float, default=20.0)
    args = parser.parse_args()
    deadline = time.monotonic() + args.timeout
    options = dict(proxy=None, ping_interval=None, compression=None, open_timeout=args.timeout)
    with connect(args.url, **options) as full, connect(args.url + "?format=patch", **options) as patches:
        states = {}
        first = json.loads(full.recv(timeout=5))
        states[first["version"]] = first["state"]
        snapshot = json.loads(patches.recv(timeout=5))
        held = {snapshot["version"]: snapshot["state"]}
        open(args.ready_file, "w").close()
        checked = snapshot["version"]
        while checked < args.until_version:
            left = deadline - time.monotonic()
            if left <= 0:
                print(f"timed out at version {checked}", file=sys.stderr)
                return 1
            message = json.loads(patches.recv(timeout=left))
            if message["type"] != "patch":
                print(f"expected a patch, got {message}", file=sys.stderr)
                return 1
            base = held.get(message["base"])
            if base is None:
                print(f"patch base {message['base']} was never held", file=sys.stderr)
                return 1
            result = jsonpatch.apply_patch(base, message["ops"])
            version = message["version"]
            while version not in states:
                state = json.loads(full.recv(timeout=max(deadline - time.monotonic(), 0.1)))
                states[state["version"]] = state["state"]
            if result != states[version]:
                print(f"version {version}: patched {result} != full {states[version]}", file=sys.stderr)
                return 1
            held[version] = result
            checked = version
            print(f"ok {version}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
