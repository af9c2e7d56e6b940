"""RFC 8259 oracle for the JSON parser's differential test (Tests/JSONTests/RFC8259OracleTests.swift).

Reads a file of hex-encoded texts, one per line, and prints one line per text: `reject`, `lone` (accepted by
Python's json but holding a lone surrogate, which the project's parser refuses on purpose), or `accept <canonical>`.
Python's json is pinned to RFC 8259: the bytes must be strict UTF-8 (a BOM stays a character, so it is refused),
NaN/Infinity are refused, numbers are read exactly (Decimal), duplicate keys keep the last value (as the project's
parser does), and strings refuse raw control characters (strict=True). The canonical form sorts object keys, writes
numbers as normalized Decimals and strings with json.dumps, so two texts of the same value give the same line.
"""
import json
import sys
from decimal import Decimal


def canonical(value):
    if isinstance(value, dict):
        return "{" + ",".join(json.dumps(k) + ":" + canonical(value[k]) for k in sorted(value)) + "}"
    if isinstance(value, list):
        return "[" + ",".join(canonical(v) for v in value) + "]"
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, (int, Decimal)):
        number = Decimal(value)
        return "0" if number == 0 else str(number.normalize())
    return json.dumps(value)


def has_lone_surrogate(value):
    if isinstance(value, dict):
        return any(has_lone_surrogate(k) or has_lone_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(has_lone_surrogate(v) for v in value)
    if isinstance(value, str):
        return any(0xD800 <= ord(c) <= 0xDFFF for c in value)
    return False


def refuse_constant(name):
    raise ValueError(f"{name} is not JSON")


def judge(raw):
    try:
        text = raw.decode("utf-8")
        value = json.loads(text, parse_float=Decimal, parse_int=Decimal, parse_constant=refuse_constant)
    except (ValueError, RecursionError):
        return "reject"
    if has_lone_surrogate(value):
        return "lone"
    return "accept " + canonical(value)


def main():
    sys.setrecursionlimit(10000)
    with open(sys.argv[1]) as cases:
        for line in cases:
            print(judge(bytes.fromhex(line.strip())))


if __name__ == "__main__":
    main()
