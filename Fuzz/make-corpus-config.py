#!/usr/bin/env python3
"""Writes the seed corpus Fuzz/corpus/config (run from anywhere; stdlib only): the shipped configurations, one file
using every section and key, and files with each kind of mistake the reader names (wrong types, out of range,
unknown keys, repeated keys, bad store names, states the reducer refuses).
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OUT = os.path.join(HERE, "corpus", "config")

FULL = {
    "listen": {"host": "::1", "port": 0, "eventLoops": 2, "storeExecutor": "pool"},
    "limits": {"maxBodyBytes": 65536, "maxHeaderBytes": 8192, "maxMessageBytes": 65536, "maxHeaderFields": 50,
               "maxConnections": 100, "maxStores": 10},
    "streams": {"historySize": 16, "writeHighWaterBytes": 1048576, "maxLagSeconds": 5, "sseHeartbeatMs": 15000},
    "timeouts": {"headerTimeoutMs": 5000, "bodyTimeoutMs": 5000, "idleTimeoutMs": 60000, "pingIntervalMs": 20000,
                 "pongTimeoutMs": 10000, "writeStallMs": 30000},
    "auth": [{"token": "0123456789abcdef0123", "stores": ["counter", "todo*"], "scopes": ["read", "write"]},
             {"tokenSha256": "a" * 64, "scopes": ["admin", "metrics"]}],
    "cors": {"allowedOrigins": ["https://app.example", "http://localhost:8000"]},
    "storage": {"path": "data/x.sqlite", "sync": "interval", "intervalMs": 100, "maxBytes": 1048576,
                "snapshotEveryActions": 100, "snapshotEveryBytes": 65536, "retainActions": 1000, "keyTtlSeconds": 60},
    "log": {"level": "debug"},
    "stores": [
        {"name": "counter", "reducer": "Counter", "state": {"count": 5}},
        {"name": "todos", "reducer": "TodoList", "state": {"items": [{"id": 1, "text": "a", "done": False}], "nextID": 2},
         "durable": False, "log": ["actions", "state"]},
        {"name": "search.v2_x-y", "reducer": "Search"},
        {"name": "tick", "reducer": "Ticker", "state": {"seq": 1, "t": 2, "pad": ""}},
    ],
}

TEXTS = {
    "empty-object": "{}",
    "empty": "",
    "bom": "\ufeff{}",
    "array": "[]",
    "cluster": '{"storage":{"redis":"redis://127.0.0.1:6379/0","node":"a","leaseMs":2000,"forwardTimeoutMs":1000},'
               '"stores":[{"name":"c","reducer":"Counter"}]}',
    "cluster-unix": '{"storage":{"redis":"unix:///tmp/r.sock","node":"n-1"},"stores":[]}',
    "cluster-bad-url": '{"storage":{"redis":"http://x","node":"a"},"stores":[]}',
    "cluster-db": '{"storage":{"redis":"redis://h:1/3","node":"a"},"stores":[]}',
    "storage-and-redis": '{"storage":{"path":"x","redis":"redis://h"},"stores":[]}',
    "unknown-key": '{"listen":{"hots":"127.0.0.1"}}',
    "repeated-key": '{"listen":{"port":1,"port":2}}',
    "repeated-in-array": '{"stores":[{"name":"a","reducer":"Counter","name":"b"}]}',
    "port-range": '{"listen":{"port":65536}}',
    "port-fraction": '{"listen":{"port":80.5}}',
    "port-exponent": '{"listen":{"port":8e3}}',
    "port-huge": '{"listen":{"port":1e999}}',
    "port-negative-zero": '{"listen":{"port":-0}}',
    "port-string": '{"listen":{"port":"80"}}',
    "host-name": '{"listen":{"host":"example.com"}}',
    "host-localhost": '{"listen":{"host":"localhost"}}',
    "loops-zero": '{"listen":{"eventLoops":0}}',
    "executor-bad": '{"listen":{"storeExecutor":"thread"}}',
    "limits-zero": '{"limits":{"maxBodyBytes":0}}',
    "limits-int-max": '{"limits":{"maxBodyBytes":9223372036854775807}}',
    "store-bad-name": '{"stores":[{"name":"a/b","reducer":"Counter"}]}',
    "store-dot": '{"stores":[{"name":"..","reducer":"Counter"}]}',
    "store-long-name": '{"stores":[{"name":"' + "a" * 65 + '","reducer":"Counter"}]}',
    "store-twice": '{"stores":[{"name":"a","reducer":"Counter"},{"name":"a","reducer":"TodoList"}]}',
    "store-no-reducer": '{"stores":[{"name":"a"}]}',
    "store-unknown-reducer": '{"stores":[{"name":"a","reducer":"Nope"}]}',
    "store-bad-state": '{"stores":[{"name":"a","reducer":"Counter","state":{"count":"x"}}]}',
    "store-state-int-overflow": '{"stores":[{"name":"a","reducer":"Counter","state":{"count":9223372036854775808}}]}',
    "store-state-null": '{"stores":[{"name":"a","reducer":"Counter","state":null}]}',
    "store-log-bad": '{"stores":[{"name":"a","reducer":"Counter","log":["everything"]}]}',
    "store-durable-string": '{"stores":[{"name":"a","reducer":"Counter","durable":"yes"}]}',
    "auth-short": '{"auth":[{"token":"short","scopes":["read"]}]}',
    "auth-both": '{"auth":[{"token":"0123456789abcdef","tokenSha256":"' + "b" * 64 + '","scopes":["read"]}]}',
    "auth-scope-line-break": '{"auth":[{"token":"0123456789abcdef","scopes":["read\\nwrite"]}]}',
    "auth-empty": '{"auth":[]}',
    "cors-star": '{"cors":{"allowedOrigins":["*"]}}',
    "cors-empty": '{"cors":{"allowedOrigins":[]}}',
    "log-level-bad": '{"log":{"level":"loud"}}',
    "sync-bad": '{"storage":{"path":"x","sync":"sometimes"}}',
    "trailing-comma": '{"stores":[],}',
    "deep": '{"stores":' + "[" * 100 + "]" * 100 + "}",
    "lone-surrogate-name": '{"stores":[{"name":"\\ud800","reducer":"Counter"}]}',
}


def main():
    os.makedirs(OUT, exist_ok=True)  # inputs the fuzzer found (found-*) stay
    for name in ("statehouse.json", "cluster.json"):
        with open(os.path.join(ROOT, "Config", name), "rb") as src, open(os.path.join(OUT, "shipped-" + name), "wb") as dst:
            dst.write(src.read())
    with open(os.path.join(OUT, "every-key"), "w") as f:
        json.dump(FULL, f, indent=1)
    for name, text in TEXTS.items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(text.encode("utf-8"))


if __name__ == "__main__":
    main()
