#!/usr/bin/env python3
"""Send something a Statehouse WebSocket endpoint must reject, then check its close code.

Connects with the `websockets` sync client, sends either raw bytes (written straight to the
socket, so they can be any frame: unmasked, reserved opcode, bad UTF-8 ...) or one normal text
message, then waits for the server's close frame.

--send-raw-hex bytes go on the wire exactly as given: a client frame must be masked (RFC 6455
section 5.3), so include the MASK bit and a masking key. A key of 00000000 leaves the payload
as is, e.g. text frame with invalid UTF-8 payload c3 28: 818200000000c328.

Messages that arrive before the close are printed on stdout, one per line.

Exit status: 0 when the close code equals --expect-code; 1 otherwise (the code actually
received, or "none", is printed on stderr), including on timeout; 2 if connecting failed.
"""

import argparse
import sys
import time

from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import connect


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True, help="ws://127.0.0.1:PORT/stores/NAME/ws")
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--send-raw-hex", help="bytes to write to the socket as they are (hex, spaces allowed)")
    what.add_argument("--send-text", help="one text message to send normally")
    parser.add_argument("--expect-code", type=int, required=True, help="the close code the server must send")
    parser.add_argument("--timeout", type=float, default=10.0, help="overall limit in seconds (default 10)")
    return parser.parse_args()


def main():
    args = parse_args()
    deadline = time.monotonic() + args.timeout
    raw = None
    if args.send_raw_hex is not None:
        try:
            raw = bytes.fromhex(args.send_raw_hex)
        except ValueError as error:
            print(f"--send-raw-hex is not hex: {error}", file=sys.stderr)
            return 2
    try:
        conn = connect(args.url, open_timeout=args.timeout, proxy=None, ping_interval=None,
                       compression=None, close_timeout=2)
    except (OSError, TimeoutError, InvalidHandshake) as error:
        print(f"connect failed: {error!r}", file=sys.stderr)
        return 2
    with conn:
        if raw is not None:
            conn.socket.sendall(raw)
        else:
            conn.send(args.send_text)
        code = wait_for_close(conn, deadline)
    if code == args.expect_code:
        return 0
    print(f"expected close code {args.expect_code}, got {code if code is not None else 'none'}", file=sys.stderr)
    return 1


def wait_for_close(conn, deadline):
    """Returns the server's close code, None if the TCP connection ended without one or on timeout."""
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            print("timed out waiting for the close frame", file=sys.stderr)
            return None
        try:
            message = conn.recv(timeout=left)
        except TimeoutError:
            continue
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd is not None else None
        print(message if isinstance(message, str) else message.hex(), flush=True)


if __name__ == "__main__":
    sys.exit(main())
