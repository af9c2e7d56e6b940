#!/usr/bin/env python3
"""Writes the seed corpus Fuzz/corpus/actions (run from anywhere; stdlib only).

Each seed is a mode byte (0 decoding against Foundation, 1 an action, 2 a state) and a JSON text: the demo
reducers' actions and states, `Probe` (Fuzz/Actions) in each of its shapes, and numbers, strings and nesting at
their edges.
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus", "actions")

PROBE = ('{"kind":"small","level":2,"items":[{"id":1,"tags":["a"],"ratio":0.5},{"id":-9223372036854775808}],'
         '"names":["x","y"],"counts":{"a":2147483647},"byNumber":{"1":"one","-2":"minus"},"small":255,"big":-1,'
         '"flag":true,"when":-978307200.5,"blob":"AAEC/w==","link":"https://example.com/a?b#c","amount":1.25,'
         '"last":{"labelled":{"a":-128,"b":18446744073709551615,"c":[]}}}')
ACTIONS = [
    '{"type":"plain"}', '{"type":"single","payload":7}', '{"type":"single","payload":{"_0":7}}',
    '{"type":"labelled","payload":{"a":1,"b":null,"c":["x"]}}', '{"type":"labelled","payload":{"a":128,"c":[]}}',
    '{"type":"mixed","payload":{"_0":1,"name":"n"}}', '{"type":"nested","payload":{"item":{"id":3,"tags":null}}}',
    '{"type":"numbers","payload":{"d":1e308,"f":3.4028236e38,"u":4294967295}}',
    '{"type":"numbers","payload":{"d":-0,"f":1e-46,"u":1.0}}', '{"type":"map","payload":{"a":1,"b":-1}}',
    '{"type":"keyed","payload":{"1":true,"x":false}}', '{"type":"kind","payload":"large"}',
    '{"type":"kind","payload":"medium"}', '{"type":"optional","payload":null}', '{"type":"optional"}',
    '{"type":"deep","payload":[[1,2],[],[3]]}', '{"type":"increment"}', '{"type":"add","payload":{"amount":5}}',
    '{"type":"add","payload":{"amount":9223372036854775808}}', '{"type":"toggle","payload":{"id":1e2}}',
    '{"type":"add","payload":{"text":"\\ud83d\\ude00"}}', '{"type":"query","payload":"swift"}',
    '{"type":"results","payload":{"query":"q","items":["a","b"]}}', '{"type":"publish","payload":{"seq":1,"t":2}}',
    '{"type":"plain","meta":{"x":1},"error":true}', '{"type":"","payload":1}', '{"type":"single","payload":"7"}',
    '{"payload":{"amount":1}}', '{"type":null}', '[{"type":"plain"}]',
]
STATES = [
    PROBE, '{"kind":"large","items":[],"counts":{}}', '{"kind":"small","items":[],"counts":{},"level":3}',
    '{"kind":"small","items":[],"counts":{},"blob":"not base64"}', '{"kind":"small","items":[],"counts":{},"link":""}',
    '{"kind":"small","items":[],"counts":{},"amount":1e999}', '{"kind":"small","items":[],"counts":{},"when":1e999}',
    '{"kind":"small","items":[],"counts":{},"names":["a","a"]}', '{"kind":"small","items":[],"counts":{},"byNumber":{"01":"x"}}',
    '{"value":0}', '{"value":-9223372036854775808}', '{"value":1.5}',
    '{"items":[{"id":1,"text":"milk","done":false}],"nextID":2}', '{"items":[],"nextID":9223372036854775807}',
    '{"query":"","results":[],"selected":null}', '{"seq":1,"t":-1,"pad":"0123456789abcdef"}',
    '[1,null,-128,127]', '{"k":18446744073709551615}', '3.4028235e38', '1e-400', '-0.0', '"\\u0000"',
    '[' * 40 + ']' * 40,
]


def main():
    os.makedirs(OUT, exist_ok=True)  # inputs the fuzzer found (found-*) stay
    for i, text in enumerate(STATES):
        for mode in (0, 2):
            with open(os.path.join(OUT, "state-%d-%02d" % (mode, i)), "wb") as f:
                f.write(bytes([mode]) + text.encode())
    for i, text in enumerate(ACTIONS):
        with open(os.path.join(OUT, "action-%02d" % i), "wb") as f:
            f.write(bytes([1]) + text.encode())


if __name__ == "__main__":
    main()
