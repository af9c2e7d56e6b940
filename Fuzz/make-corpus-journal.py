#!/usr/bin/env python3
"""Writes the seed corpus Fuzz/corpus/journal (run from anywhere; stdlib only).

A seed is byte 0 (bit 0: TodoList 0, Counter 1; bits 1-2: history size 0, 1, 3, 100; bit 3: made with PUT), then
lines: `s VERSION JSON` (snapshot), `j VERSION ORIGIN TIME JSON` (journal row), `k KEY FP VERSION EXPIRES JSON`
(idempotency key), `r REDUCER EPOCH INITIAL` (the stores row); an uppercase kind binds the JSON as a BLOB. See
Fuzz/Journal/JournalFuzzTarget.swift.
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
TODO, COUNTER = 0, 1
H0, H1, H3, H100 = 0, 2, 4, 6
PUT = 8
FAR = "99999999999999"  # an expiry far in the future (ms)
I64MAX = "9223372036854775807"
U64MAX = "18446744073709551615"


def write(name, flags, lines):
    with open(os.path.join(HERE, "corpus", "journal", name), "wb") as f:
        f.write(bytes([flags]) + b"\n".join(l if isinstance(l, bytes) else l.encode() for l in lines))


def todo(items, next_id):
    body = ",".join('{"id":%s,"text":"%s","done":%s}' % (i, t, d) for i, t, d in items)
    return '{"items":[%s],"nextID":%s}' % (body, next_id)


def main():
    c = COUNTER
    # Healthy databases, as the server writes them.
    write("counter-fresh", c | H100, ['s 0 {"count":0}'])
    write("counter-actions", c | H3, ['s 0 {"count":0}', 'j 1 0 1700000000000 "increment"',
                                      'j 2 1 1700000000001 {"add":{"amount":5}}', 'j 3 0 1700000000002 "decrement"'])
    write("counter-snapshots", c | H1, ['s 0 {"count":0}', 's 2 {"count":2}', 'j 1 0 1 "increment"',
                                        'j 2 0 2 "increment"', 'j 3 0 3 {"add":{"amount":-7}}'])
    write("counter-reset-row", c | H100, ['s 0 {"count":0}', 'j 1 0 1 "increment"', 'j 2 2 2 {"count":41}',
                                          'j 3 0 3 "increment"'])
    write("counter-keys", c | H3, ['s 0 {"count":0}', 'j 1 0 1 "increment"',
                                   'k order-1 12345 1 %s {"count":1}' % FAR, 'k order-2 0 0 1 {"count":0}',
                                   'k expired 1 1 0 {"count":1}'])
    write("todo-fresh", TODO | H100, ['s 0 ' + todo([], 1)])
    write("todo-actions", TODO | H3, ['s 0 ' + todo([], 1), 'j 1 0 1 {"add":{"text":"milk"}}',
                                      'j 2 0 2 {"add":{"text":"eggs"}}', 'j 3 0 3 {"toggle":{"id":1}}',
                                      'j 4 1 4 "clearCompleted"', 'j 5 0 5 {"remove":{"id":2}}'])
    write("todo-put", TODO | H1 | PUT, ['r TodoList e ' + todo([(7, "x", "true")], 8), 's 0 ' + todo([], 1),
                                        'j 1 0 1 {"add":{"text":"a"}}'])
    # Gaps, order and versions out of range.
    write("gap", c | H100, ['s 0 {"count":0}', 'j 1 0 1 "increment"', 'j 3 0 3 "increment"'])
    write("snapshot-past-journal", c | H100, ['s 0 {"count":0}', 's 10 {"count":10}', 'j 1 0 1 "increment"'])
    write("snapshot-only-newest", c | H0, ['s 0 {"count":0}', 's 5 {"count":5}'])
    write("version-int64-max", c | H3, ['s %s {"count":0}' % I64MAX])
    write("version-int64-max-row", c | H3, ['s 9223372036854775806 {"count":0}', 'j %s 0 0 "increment"' % I64MAX])
    write("version-negative", c | H3, ['s -1 {"count":0}', 's 0 {"count":0}', 'j 1 0 0 "increment"'])
    write("version-negative-only", c | H3, ['s -1 {"count":0}', 'j 0 0 0 "increment"'])
    write("version-u64-max", c | H3, ['s %s {"count":0}' % U64MAX, 'j 0 0 0 "increment"'])
    write("version-text", c | H3, ['s 0 {"count":0}', 's abc {"count":1}', 'j xyz 0 0 "increment"'])
    write("version-real", c | H3, ['s 0 {"count":0}', 'j 0.5 0 0 "increment"', 'j 1 0 0 "increment"',
                                   's 1e19 {"count":0}'])
    write("version-empty", c | H3, ['s  {"count":0}'])
    write("no-snapshot", c | H3, ['j 1 0 0 "increment"'])
    # Origins, times, actions and states that do not fit.
    write("origin-unknown", c | H3, ['s 0 {"count":0}', 'j 1 7 0 "increment"', 'j 2 -1 0 "increment"',
                                     'j 3 9223372036854775807 0 "decrement"'])
    write("origin-text", c | H3, ['s 0 {"count":0}', 'j 1 reset 0 {"count":3}'])
    write("time-bounds", c | H3, ['s 0 {"count":0}', 'j 1 0 -9223372036854775808 "increment"',
                                  'j 2 0 9223372036854775807 "increment"', 'j 3 0 -1 "increment"'])
    write("action-not-json", c | H3, ['s 0 {"count":0}', 'j 1 0 0 {"add":'])
    write("action-wrong-type", c | H3, ['s 0 {"count":0}', 'j 1 0 0 {"add":{"amount":"5"}}'])
    write("action-fsa", c | H3, ['s 0 {"count":0}', 'j 1 0 0 {"type":"increment"}'])
    write("action-empty", c | H3, ['s 0 {"count":0}', 'j 1 0 0 '])
    write("action-blob", c | H3, ['s 0 {"count":0}', 'J 1 0 0 "increment"'])
    write("action-non-utf8", c | H3, [b's 0 {"count":0}', b'j 1 0 0 {"add":{"amount":1}}\xff\xfe',
                                      b'J 2 0 0 "incr\xc0\xafement"'])
    write("action-huge-add", c | H3, ['s 0 {"count":%s}' % I64MAX, 'j 1 0 0 {"add":{"amount":%s}}' % I64MAX,
                                      'j 2 0 0 {"add":{"amount":-9223372036854775808}}', 'j 3 0 0 "decrement"'])
    write("action-1e999", c | H3, ['s 0 {"count":0}', 'j 1 0 0 {"add":{"amount":1e999}}'])
    write("state-not-json", c | H3, ['s 0 {"count":'])
    write("state-wrong-type", c | H3, ['s 0 {"count":"0"}'])
    write("state-extra-fields", c | H3, ['s 0 {"count":1,"count":2,"other":[1e999]}'])
    write("state-huge-numbers", c | H3, ['s 0 {"count":-9223372036854775808}', 'j 1 0 0 "decrement"',
                                         'j 2 0 0 {"add":{"amount":-1}}'])
    write("state-number-forms", c | H3, ['s 0 {"count":-0}', 'j 1 2 0 {"count":1.0e0}', 'j 2 2 0 {"count":1E2}'])
    write("state-bom", c | H3, ['s 0 \ufeff{"count":0}'])
    write("state-blob", c | H3, ['S 0 {"count":0}'])
    write("todo-ids-int-max", TODO | H3, ['s 0 ' + todo([(I64MAX, "last", "false")], I64MAX),
                                          'j 1 0 0 {"add":{"text":"one more"}}', 'j 2 0 0 {"toggle":{"id":%s}}' % I64MAX,
                                          'j 3 0 0 {"remove":{"id":-9223372036854775808}}'])
    write("todo-ids-int-min", TODO | H3, ['s 0 ' + todo([("-9223372036854775808", "first", "true")],
                                                        "-9223372036854775808"), 'j 1 0 0 {"add":{"text":"x"}}'])
    write("todo-text-escapes", TODO | H3, ['s 0 ' + todo([(1, "\\ud800 lone \\u0000 \\\"q\\\"", "false")], 2),
                                           'j 1 0 0 {"add":{"text":"\\udfff\\n"}}'])
    write("todo-deep", TODO | H3, ['s 0 {"items":' + "[" * 200 + "]" * 200 + ',"nextID":1}'])
    write("todo-missing-field", TODO | H3, ['s 0 {"items":[{"id":1,"text":"a"}],"nextID":2}'])
    write("todo-trailing-comma", TODO | H3, ['s 0 {"items":[],"nextID":1,}'])
    # Keys that do not fit.
    write("keys-bounds", c | H3, ['s 0 {"count":0}', 'k a -1 -1 %s {"count":0}' % I64MAX,
                                  'k b %s %s %s not json' % (U64MAX, I64MAX, FAR), 'k c x y %s {"count":0}' % FAR,
                                  'K d 1 1 %s {"count":0}' % FAR, 'k  1 1 %s {"count":0}' % FAR])
    write("keys-non-utf8", c | H3, [b's 0 {"count":0}', b'k \xff\xfe 1 1 99999999999999 {"count":0}'])
    write("keys-many", c | H3, ['s 0 {"count":0}'] + ['k key-%d %d 0 %s {"count":0}' % (i, i, FAR) for i in range(40)])
    # The stores row.
    write("stores-other-reducer", c | H3, ['r TodoList e', 's 0 {"count":0}'])
    write("stores-unknown-reducer", c | H3, ['r Nope e', 's 0 {"count":0}'])
    write("stores-initial-bad", TODO | H3 | PUT, ['r TodoList e {"items":', 's 0 ' + todo([], 1)])
    write("stores-initial-non-utf8", c | H3 | PUT, [b'r Counter \xff {"count":\xff}', b's 0 {"count":0}'])
    write("stores-epoch-empty", c | H3, ['r Counter  ', 's 0 {"count":0}'])


if __name__ == "__main__":
    main()
