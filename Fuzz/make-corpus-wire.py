#!/usr/bin/env python3
"""Writes the seed corpus Fuzz/corpus/wire (run from anywhere; stdlib only).

Each seed is a mode byte (0 action body, 1 WebSocket message, 2 request-target), a reducer byte (0 Counter,
1 TodoList, 2 Search, 3 Ticker) and the text: the requests of the tests and docs, and their edge cases.
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus", "wire")
COUNTER, TODO, SEARCH, TICKER = 0, 1, 2, 3

BODIES = {
    "increment": (COUNTER, '{"type":"increment"}'),
    "add-amount": (COUNTER, '{"type":"add","payload":{"amount":5}}'),
    "add-int-max": (COUNTER, '{"type":"add","payload":{"amount":9223372036854775807}}'),
    "add-int-overflow": (COUNTER, '{"type":"add","payload":{"amount":9223372036854775808}}'),
    "add-minus-zero": (COUNTER, '{"type":"add","payload":{"amount":-0}}'),
    "add-1e999": (COUNTER, '{"type":"add","payload":{"amount":1e999}}'),
    "add-fraction": (COUNTER, '{"type":"add","payload":{"amount":1.5}}'),
    "add-exponent": (COUNTER, '{"type":"add","payload":{"amount":1e2}}'),
    "add-string": (COUNTER, '{"type":"add","payload":{"amount":"5"}}'),
    "add-no-payload": (COUNTER, '{"type":"add"}'),
    "add-null-payload": (COUNTER, '{"type":"add","payload":null}'),
    "increment-meta": (COUNTER, '{"type":"increment","meta":{"by":"me"},"error":false}'),
    "increment-payload": (COUNTER, '{"type":"increment","payload":{}}'),
    "batch": (COUNTER, '[{"type":"increment"},{"type":"add","payload":{"amount":2}},{"type":"decrement"}]'),
    "batch-empty": (COUNTER, '[]'),
    "batch-bad-element": (COUNTER, '[{"type":"increment"},{"type":"nope"}]'),
    "batch-nested": (COUNTER, '[[{"type":"increment"}]]'),
    "unknown-type": (COUNTER, '{"type":"explode"}'),
    "type-number": (COUNTER, '{"type":1}'),
    "no-type": (COUNTER, '{"payload":1}'),
    "not-object": (COUNTER, '"increment"'),
    "not-json": (COUNTER, '{"type":"increment"'),
    "empty": (COUNTER, ''),
    "blank": (COUNTER, ' \r\n\t'),
    "bom": (COUNTER, '\ufeff{"type":"increment"}'),
    "duplicate-type": (COUNTER, '{"type":"increment","type":"decrement"}'),
    "todo-add": (TODO, '{"type":"add","payload":{"text":"milk"}}'),
    "todo-add-surrogates": (TODO, '{"type":"add","payload":{"text":"\\ud83d\\ude00 caf\\u00e9"}}'),
    "todo-add-lone-surrogate": (TODO, '{"type":"add","payload":{"text":"\\ud800"}}'),
    "todo-toggle": (TODO, '{"type":"toggle","payload":{"id":1}}'),
    "todo-remove-extra": (TODO, '{"type":"remove","payload":{"id":1,"extra":true}}'),
    "todo-clear": (TODO, '{"type":"clearCompleted"}'),
    "search-query": (SEARCH, '{"type":"query","payload":"swift"}'),
    "search-results": (SEARCH, '{"type":"results","payload":{"query":"a","items":["x","y"]}}'),
    "search-results-bad-items": (SEARCH, '{"type":"results","payload":{"query":"a","items":[1,null]}}'),
    "search-select-object": (SEARCH, '{"type":"select","payload":{"_0":"x"}}'),
    "ticker-publish": (TICKER, '{"type":"publish","payload":{"seq":1,"t":1733400000000000000}}'),
    "deep": (COUNTER, '[' * 70 + ']' * 70),
}

MESSAGES = {
    "ws-action": (COUNTER, '{"type":"action","ref":"r1","action":{"type":"increment"}}'),
    "ws-action-keyed-settled": (COUNTER,
        '{"type":"action","ref":"r2","id":"k1","wait":"settled","timeout_ms":500,"action":{"type":"add","payload":{"amount":1}}}'),
    "ws-action-timeout-alone": (COUNTER, '{"type":"action","timeout_ms":5,"action":{"type":"increment"}}'),
    "ws-action-timeout-big": (COUNTER, '{"type":"action","wait":"settled","timeout_ms":600001,"action":{"type":"increment"}}'),
    "ws-action-timeout-fraction": (COUNTER, '{"type":"action","wait":"settled","timeout_ms":1.5,"action":{"type":"increment"}}'),
    "ws-action-ref-number": (COUNTER, '{"type":"action","ref":7,"action":{"type":"increment"}}'),
    "ws-action-id-number": (COUNTER, '{"type":"action","id":7,"action":{"type":"increment"}}'),
    "ws-action-store": (TODO, '{"type":"action","store":"todos","ref":"a","action":{"type":"add","payload":{"text":"x"}}}'),
    "ws-action-no-action": (COUNTER, '{"type":"action","ref":"r"}'),
    "ws-action-long-ref": (COUNTER, '{"type":"action","ref":"' + "r" * 300 + '","action":{"type":"increment"}}'),
    "ws-subscribe": (COUNTER, '{"type":"subscribe","id":"s1","store":"counter"}'),
    "ws-subscribe-resume": (COUNTER,
        '{"type":"subscribe","id":"s2","store":"counter","format":"patch","path":"/items/0","epoch":"e1","since":18446744073709551615}'),
    "ws-subscribe-since-big": (COUNTER, '{"type":"subscribe","id":"s","store":"c","epoch":"e","since":18446744073709551616}'),
    "ws-subscribe-since-negative": (COUNTER, '{"type":"subscribe","id":"s","store":"c","epoch":"e","since":-1}'),
    "ws-subscribe-since-exponent": (COUNTER, '{"type":"subscribe","id":"s","store":"c","epoch":"e","since":1e3}'),
    "ws-subscribe-since-alone": (COUNTER, '{"type":"subscribe","id":"s","store":"c","since":3}'),
    "ws-subscribe-bad-path": (COUNTER, '{"type":"subscribe","id":"s","store":"c","path":"items~2"}'),
    "ws-subscribe-format": (COUNTER, '{"type":"subscribe","id":"s","store":"c","format":"xml"}'),
    "ws-unsubscribe": (COUNTER, '{"type":"unsubscribe","id":"s1"}'),
    "ws-resync": (COUNTER, '{"type":"resync","id":"s1"}'),
    "ws-unknown": (COUNTER, '{"type":"hello"}'),
    "ws-array": (COUNTER, '[1,2]'),
    "ws-null-fields": (COUNTER, '{"type":"action","ref":null,"id":null,"wait":null,"timeout_ms":null,"action":{"type":"increment"}}'),
}

TARGETS = {
    "get-store": "GET /stores/counter",
    "head-store-since": "HEAD /stores/counter?epoch=e1&since=3",
    "get-min-version": "GET /stores/counter?min_version=5&timeout_ms=100&epoch=e",
    "get-at": "GET /stores/counter?at=3",
    "get-at-and-more": "GET /stores/counter?at=3&since=1",
    "get-timeout-alone": "GET /stores/counter?timeout_ms=5",
    "get-timeout-big": "GET /stores/counter?min_version=1&timeout_ms=600001",
    "post-actions": "POST /stores/counter/actions",
    "post-settled": "POST /stores/counter/actions?wait=settled&timeout_ms=250",
    "post-wait-bad": "POST /stores/counter/actions?wait=forever",
    "post-reset": "POST /stores/counter/reset",
    "put-store": "PUT /stores/new-store",
    "delete-store": "DELETE /stores/new-store",
    "encoded-name": "POST /stores/a%2Fb%20c/actions",
    "bad-escape": "GET /stores/%ZZ",
    "utf8-escape": "GET /stores/%C3%A9t%C3%A9",
    "overlong-escape": "GET /stores/%C0%AF",
    "dot": "GET /stores/./ws",
    "dot-dot": "GET /stores/%2E%2E",
    "events-format": "GET /stores/todos/events?format=patch&path=/items/0/text\nabc-7",
    "events-last-event-id": "GET /stores/todos/events\nepoch-with-dashes-18446744073709551615",
    "events-last-event-id-bad": "GET /stores/todos/events\n-",
    "ws-store": "GET /stores/todos/ws?epoch=e&since=2",
    "ws-store-unknown-param": "GET /stores/todos/ws?sinc=2",
    "ws": "GET /ws",
    "ws-post": "POST /ws",
    "log": "GET /stores/journal/log?since=5&limit=10",
    "log-limit-zero": "GET /stores/journal/log?limit=0",
    "log-since-huge": "GET /stores/journal/log?since=18446744073709551615",
    "access-token": "GET /stores/counter?access_token=s3cr%65t&since=1&epoch=x",
    "plus-and-percent": "GET /stores/counter?epoch=a+b%2Bc&since=%31",
    "repeated": "GET /stores/counter?since=1&since=2&epoch=e",
    "empty-pairs": "GET /stores/counter?&&=&since",
    "absolute-form": "GET http://example.com/stores/counter?since=1&epoch=e",
    "absolute-no-path": "GET https://example.com?x",
    "health": "GET /healthz",
    "metrics": "HEAD /metrics",
    "inspector": "GET /inspector/overview",
    "inspector-asset": "GET /inspector/inspector.css",
    "client": "GET /client/statehouse.js",
    "list": "GET /stores",
    "four-segments": "GET /stores/a/b/c",
    "trailing-slash": "GET /stores/",
    "double-slash": "GET //stores",
    "empty-path": "GET ",
    "star": "OPTIONS *",
}


def write(name, mode, reducer, text):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(bytes([mode, reducer]) + text.encode("utf-8", "surrogatepass"))


def main():
    os.makedirs(OUT, exist_ok=True)  # inputs the fuzzer found (found-*) stay
    for name, (reducer, text) in BODIES.items():
        write("body-" + name, 0, reducer, text)
    for name, (reducer, text) in MESSAGES.items():
        write(name, 1, reducer, text)
    for name, text in TARGETS.items():
        write("target-" + name, 2, 0, text)
    # Bytes that are not UTF-8: an overlong slash and a lone continuation byte.
    with open(os.path.join(OUT, "target-invalid-utf8"), "wb") as f:
        f.write(bytes([2, 0]) + b"GET /stores/\xc0\xaf\x80?epoch=\xff&since=1")
    # A combining mark (U+0301) right after the query's delimiters: one grapheme cluster with each.
    with open(os.path.join(OUT, "target-combining-mark-in-query"), "wb") as f:
        f.write(bytes([2, 0]) + "GET /stores/counter?since=1&\u0301epoch=x&a=\u0301b".encode())


if __name__ == "__main__":
    main()
