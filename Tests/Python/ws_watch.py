#!/usr/bin/env python3
"""Watch a Statehouse store over WebSocket with the `websockets` sync client.

Prints every message received as one compact JSON line on stdout (flushed at once).
With --ready-file, creates that file once the snapshot has arrived (a signal for the test driving the store).
Optionally sends one action first: {"type":"action","ref":REF,"action":ACTION}.

Exit status:
  0  a "state" message with version >= --until-version arrived
     (and, with --ref, the "ack" for that ref)
  1  --timeout seconds passed first
  2  the connection failed or closed (close code on stderr), or the server
     answered the --ref action with an "error" message
"""

import argparse
import json
import sys
import time

from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import connect


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True, help="ws://127.0.0.1:PORT/stores/NAME/ws")
    parser.add_argument("--until-version", type=int, required=True, help="stop at a state with this version or higher")
    parser.add_argument("--timeout", type=float, default=10.0, help="overall limit in seconds (default 10)")
    parser.add_argument("--action", help='action JSON to send once connected, e.g. \'{"type":"increment"}\'')
    parser.add_argument("--ref", help="ref for --action; when given, also wait for its ack")
    parser.add_argument("--ready-file", help="create this file once the first message (the snapshot) has arrived")
    parser.add_argument("--no-compression", action="store_true", help="do not offer permessage-deflate")
    return parser.parse_args()


def compact(text):
    """One line of compact JSON; non-JSON payloads are printed as a JSON string."""
    try:
        return json.dumps(json.loads(text), separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError):
        return json.dumps(text if isinstance(text, str) else text.hex())


def main():
    args = parse_args()
    deadline = time.monotonic() + args.timeout
    action = None
    if args.action is not None:
        try:
            action = json.loads(args.action)
        except ValueError as error:
            print(f"--action is not JSON: {error}", file=sys.stderr)
            return 2
    try:
        conn = connect(args.url, open_timeout=args.timeout, proxy=None, ping_interval=None,
                       compression=None if args.no_compression else "deflate")
    except TimeoutError:
        print("timed out opening the connection", file=sys.stderr)
        return 1
    except (OSError, InvalidHandshake) as error:
        print(f"connect failed: {error!r}", file=sys.stderr)
        return 2
    with conn:
        return watch(conn, args, action, deadline)


def watch(conn, args, action, deadline):
    if action is not None:
        message = {"type": "action", "ref": args.ref or "r1", "action": action}
        conn.send(json.dumps(message, separators=(",", ":")))
    seen_version = False
    acked = args.ref is None
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            print(f"timed out (version reached: {seen_version}, acked: {acked})", file=sys.stderr)
            return 1
        try:
            raw = conn.recv(timeout=left)
        except TimeoutError:
            continue
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else None
            print(f"connection closed, close code {code}", file=sys.stderr)
            return 2
        line = compact(raw)
        print(line, flush=True)
        if args.ready_file is not None:
            open(args.ready_file, "w").close()
            args.ready_file = None
        try:
            message = json.loads(raw)
        except (TypeError, ValueError):
            continue
        if not isinstance(message, dict):
            continue
        kind = message.get("type")
        if kind == "state" and isinstance(message.get("version"), int) and message["version"] >= args.until_version:
            seen_version = True
        if args.ref is not None and message.get("ref") == args.ref:
            if kind == "ack":
                acked = True
            elif kind == "error":
                print(f"action {args.ref} failed: {line}", file=sys.stderr)
                return 2
        if seen_version and acked:
            return 0


if __name__ == "__main__":
    sys.exit(main())
