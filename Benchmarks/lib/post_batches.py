#!/usr/bin/env python3
"""post_batches: fill a store's journal over HTTP (the durable scenario's recovery part; loopback only).

    post_batches.py --port P [--store counter] --count N [--batch 1000] [--max-seconds 300]

POSTs N {"type":"increment"} actions to /stores/STORE/actions as JSON arrays of --batch actions, one request at a
time on one keep-alive connection; every answer must be 200. Prints
"RESULT actions=N posts=P seconds=S version=V" (V: the version in the last answer), or "RESULT error=..." and exits 1.
"""
import argparse
import http.client
import json
import sys
import time


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--store", default="counter")
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--max-seconds", type=float, default=300)
    args = parser.parse_args()
    connection = http.client.HTTPConnection("127.0.0.1", args.port, timeout=60)
    path = f"/stores/{args.store}/actions"
    headers = {"Content-Type": "application/json"}
    start = time.monotonic()
    sent = posts = 0
    version = None
    while sent < args.count:
        if time.monotonic() - start > args.max_seconds:
            print(f"RESULT error=max_seconds sent={sent}")
            return 1
        n = min(args.batch, args.count - sent)
        connection.request("POST", path, body=json.dumps([{"type": "increment"}] * n), headers=headers)
        response = connection.getresponse()
        body = response.read()
        if response.status != 200:
            print(f"RESULT error=status_{response.status} sent={sent} body={body[:200]!r}")
            return 1
        version = json.loads(body)["version"]
        sent += n
        posts += 1
    print(f"RESULT actions={sent} posts={posts} seconds={time.monotonic() - start:.2f} version={version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
