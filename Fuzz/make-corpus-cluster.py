#!/usr/bin/env python3
"""Writes the seed corpus Fuzz/corpus/cluster (run from anywhere; stdlib only).

Byte 0 picks the mode (mod 6): 0 inbox message, 1 changes message, 2 event, 3 channel name, 4 RESP replies read by
every reply reader, 5 RESP snapshot + journal replies for a view (bit 3: Counter, else TodoList). See
Fuzz/Cluster/ClusterFuzzTarget.swift.
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
MESSAGE, CHANGES, EVENT, CHANNEL, REPLIES, VIEW = range(6)
COUNTER = 8
I64MAX = b"9223372036854775807"
U64MAX = b"18446744073709551615"


def write(name, mode, body):
    with open(os.path.join(HERE, "corpus", "cluster", name), "wb") as f:
        f.write(bytes([mode]) + body)


def bulk(b):
    return b"$%d\r\n%s\r\n" % (len(b), b)


def arr(*items):
    return b"*%d\r\n" % len(items) + b"".join(items)


def integer(n):
    return b":%d\r\n" % n


def entry(version, origin, action, ms=b"1700000000000", extra=()):
    fields = [bulk(b"o"), bulk(origin), bulk(b"a"), bulk(action), bulk(b"t"), bulk(b"3"), bulk(b"ms"), bulk(ms)]
    fields += [bulk(x) for x in extra]
    return arr(bulk(version + b"-0"), arr(*fields))


def main():
    # Inbox messages, as ClusterMessage.encoded writes them, and what an older or broken node might send.
    fwd = b'{"op":"forward","from":"node-a","ref":7,"store":"counter","reset":false,"fp":"123"}\n'
    write("forward", MESSAGE, fwd + b'[{"type":"increment"}]')
    write("forward-key-settle", MESSAGE, b'{"op":"forward","from":"a","ref":1,"store":"s","reset":false,"fp":"18446744073709551615",'
          b'"key":"order-1","settleMs":600000}\n[{"type":"add","payload":{"amount":2}}]')
    write("forward-reset", MESSAGE, b'{"op":"forward","from":"a","ref":0,"store":"s","reset":true,"fp":"0"}\n')
    write("forward-settle-huge", MESSAGE, b'{"op":"forward","from":"a","ref":1,"store":"s","fp":"1","settleMs":1e999}\n[]')
    write("forward-settle-bounds", MESSAGE, b'{"op":"forward","from":"a","ref":1,"store":"s","fp":"-1","settleMs":'
          + I64MAX + b'}\n[]')
    write("forward-settle-negative", MESSAGE, b'{"op":"forward","from":"a","ref":1,"store":"s","settleMs":-9223372036854775808}\n')
    write("forward-escapes", MESSAGE, b'{"op":"forward","from":"\\ud800\\u0000","ref":-0,"store":"\\"\\n","key":"","fp":"x"}\n\xff')
    write("forward-missing", MESSAGE, b'{"op":"forward","ref":1}\n')
    write("forward-wrong-types", MESSAGE, b'{"op":"forward","from":1,"ref":"1","store":[],"reset":"true"}\n')
    write("answer-reduced", MESSAGE, b'{"op":"answer","ref":7,"version":3,"timedOut":false,"replayed":true}\n{"count":3}')
    write("answer-version-bounds", MESSAGE, b'{"op":"answer","ref":' + I64MAX + b',"version":' + U64MAX + b'}\n{}')
    write("answer-refused", MESSAGE, b'{"op":"answer","ref":7,"status":409,"code":"idempotency_conflict","message":"m"}\n')
    write("answer-refused-status", MESSAGE, b'{"op":"answer","ref":7,"status":99999,"code":"x"}\n')
    write("answer-refused-negative", MESSAGE, b'{"op":"answer","ref":7,"status":-1}\n')
    write("answer-moved", MESSAGE, b'{"op":"answer","ref":7,"moved":true}\n')
    write("answer-duplicate-keys", MESSAGE, b'{"op":"answer","op":"forward","ref":1,"ref":2,"moved":true}\n')
    write("message-no-newline", MESSAGE, b'{"op":"answer","ref":7,"moved":true}')
    write("message-bom", MESSAGE, b'\xef\xbb\xbf{"op":"answer","ref":7,"moved":true}\n')
    write("message-deep", MESSAGE, b"[" * 300 + b"]" * 300 + b"\n")
    write("message-op-unknown", MESSAGE, b'{"op":"gossip","ref":1}\n')
    # Changes messages, as ClusterChanges.encoded writes them.
    write("changes", CHANGES, b'{"l":"node-a:3","t":3,"rows":[[4,"external",11],[5,"reset",11]]}\n"increment"{"count":0}')
    write("changes-empty", CHANGES, b'{"l":"node-a:3","t":3,"rows":[]}\n')
    write("changes-length-huge", CHANGES, b'{"l":"a:1","t":1,"rows":[[1,"external",' + I64MAX + b']]}\nx')
    write("changes-length-past-end", CHANGES, b'{"l":"a:1","t":1,"rows":[[1,"external",5]]}\nabc')
    write("changes-version-negative", CHANGES, b'{"l":"a:1","t":1,"rows":[[-1,"external",1]]}\nx')
    write("changes-version-bounds", CHANGES, b'{"l":"a:1","t":-9223372036854775808,"rows":[[' + I64MAX
          + b',"effect",0],[1e999,"effect",0],[1.5,"effect",0]]}\n')
    write("changes-origin-unknown", CHANGES, b'{"l":"a:1","t":1,"rows":[[1,"other",1],[2,2,1]]}\nxy')
    write("changes-row-shapes", CHANGES, b'{"l":"a:1","t":1,"rows":[[1,"external"],[1,"external",1,1],{},null]}\nx')
    write("changes-trailing-comma", CHANGES, b'{"l":"a:1","t":1,"rows":[[1,"external",1],]}\nx')
    # Events.
    write("event", EVENT, b'{"e":true,"l":"node-a:3"}\n{"type":"tick","payload":{"n":1}}')
    write("event-not-object", EVENT, b'{"e":true,"l":"node-a:3"}\n[1,2]')
    write("event-false", EVENT, b'{"e":false,"l":"node-a:3"}\n{}')
    write("event-non-utf8", EVENT, b'{"e":true,"l":"\xff"}\n{"type":"\xc0\xaf"}')
    # Channel names.
    write("channel", CHANNEL, b"{s:counter}:changes")
    write("channel-empty-name", CHANNEL, b"{s:}:changes")
    write("channel-nested", CHANNEL, b"{s:{s:a}:changes}:changes")
    write("channel-non-utf8", CHANNEL, b"{s:\xff\xfe}:changes")
    write("channel-inbox", CHANNEL, b"statehouse:node:a")
    # Replies as Redis sends them (RESP).
    log = arr(entry(b"1", b"external", b'"increment"'), entry(b"2", b"effect", b'{"add":{"amount":2}}'),
              entry(b"3", b"reset", b'{"count":0}', extra=(b"k", b"order-1")))
    write("xrange", REPLIES, log)
    write("xrange-bounds", REPLIES, arr(entry(U64MAX, b"external", b"null"), entry(b"18446744073709551616", b"external", b"1"),
                                        entry(b"-1", b"external", b"1"), entry(b"+5", b"effect", b"1", ms=b"-9223372036854775809"),
                                        entry(b"", b"external", b""), arr(bulk(b"1-0"))))
    write("xrange-odd-fields", REPLIES, arr(arr(bulk(b"1-0"), arr(bulk(b"o"), bulk(b"external"), bulk(b"a"))),
                                            arr(bulk(b"2-0"), arr(bulk(b"o"), integer(0), bulk(b"a"), integer(5))),
                                            arr(integer(3), arr())))
    write("hmget-snapshot", REPLIES, arr(bulk(b"5"), bulk(b'{"count":5}')))
    write("hmget-none", REPLIES, arr(b"$-1\r\n", b"$-1\r\n"))
    write("hmget-short", REPLIES, arr(bulk(b"5")) + arr() + b"*-1\r\n")
    write("hmget-bounds", REPLIES, arr(bulk(b"-1"), bulk(b"{}")) + arr(bulk(U64MAX), bulk(b"{}"))
          + arr(integer(-9223372036854775808), bulk(b"{}")) + arr(bulk(I64MAX), integer(1)))
    write("hgetall-keys", REPLIES, arr(bulk(b"order-1"), bulk(b'123:4:99999999999999:{"count":4}'),
                                       bulk(b"order-2"), bulk(b"1:2:3:with:colons")))
    write("hgetall-bad", REPLIES, arr(bulk(b"a"), bulk(b"-1:2:3:{}"), bulk(b"\xff"), bulk(b"1:2:3:{}"), bulk(b"b"),
                                      bulk(b"1:2"), bulk(b"c"), bulk(b"::::"), bulk(b"odd")))
    write("acquire-granted", REPLIES, arr(integer(1), integer(4), bulk(b"12")))
    write("acquire-held", REPLIES, arr(integer(0), bulk(b"node-b:3"), integer(1500)))
    write("acquire-bounds", REPLIES, arr(integer(0), b"$-1\r\n", integer(9223372036854775807))
          + arr(integer(1), integer(-1), integer(-1)) + arr(integer(1), bulk(b"x"), bulk(b"1")) + arr(integer(2), integer(0), integer(0)))
    write("resp-errors", REPLIES, b"-ERR unknown command\r\n+OK\r\n:12\r\n$-1\r\n*-1\r\n")
    write("resp-deep", REPLIES, b"*1\r\n" * 12 + b":1\r\n")
    write("resp-bad", REPLIES, b"$5\r\nab\r\n*x\r\n")
    write("resp-huge-length", REPLIES, b"$9223372036854775807\r\nab")
    # Views: snapshot then journal.
    write("view-counter", VIEW | COUNTER, arr(bulk(b"0"), bulk(b'{"count":0}')) + log)
    write("view-counter-no-snapshot", VIEW | COUNTER, b"*2\r\n$-1\r\n$-1\r\n" + log)
    write("view-counter-gap", VIEW | COUNTER, arr(bulk(b"0"), bulk(b'{"count":0}'))
          + arr(entry(b"1", b"external", b'"increment"'), entry(b"3", b"external", b'"increment"')))
    write("view-counter-max", VIEW | COUNTER, arr(bulk(I64MAX), bulk(b'{"count":9223372036854775807}'))
          + arr(entry(b"9223372036854775808", b"external", b'"increment"'), entry(U64MAX, b"external", b'"increment"')))
    write("view-counter-after-max", VIEW | COUNTER, b"*2\r\n$-1\r\n$-1\r\n"
          + arr(entry(b"1", b"external", b'"increment"'), entry(U64MAX, b"external", b'"increment"'), entry(b"0", b"external", b"1")))
    write("view-counter-bad-action", VIEW | COUNTER, b"*-1\r\n" + arr(entry(b"1", b"external", b'{"add":{"amount":1e999}}')))
    write("view-todo", VIEW, arr(bulk(b"2"), bulk(b'{"items":[{"id":9223372036854775807,"text":"a","done":false}],'
                                              b'"nextID":9223372036854775807}'))
          + arr(entry(b"3", b"external", b'{"add":{"text":"b"}}'), entry(b"4", b"reset", b'{"items":[],"nextID":1}')))
    write("view-todo-bad-state", VIEW, arr(bulk(b"2"), bulk(b'{"items":{},"nextID":1}')) + arr())


if __name__ == "__main__":
    main()
