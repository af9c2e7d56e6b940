"""The semantics every peer implements, matching Statehouse's Ticker and Counter stores (docs/protocol.md).

WebSocket /stores/ticker/ws: on open the client gets a snapshot; each client text message
{"type":"action","action":{"type":"publish","payload":{"seq":S,"t":T}}} sets the state, which is broadcast to every
connection (the sender included) as {"type":"state","store":"ticker","epoch":E,"version":V,"state":{...}}; the
sender then gets {"type":"ack","version":V}. HTTP POST /stores/counter/actions {"type":"increment"} answers
{"store":"counter","version":V,"state":{"count":C}}. JSON is parsed and encoded per action (stdlib json), once per
action and not once per subscriber, as Statehouse does.
"""
import json

EPOCH = "5f3c9a1be07d4c28"  # fixed; Statehouse's is random hex of the same length
PAD = "0123456789abcdef"


class Ticker:
    def __init__(self):
        self.version = 0
        self.seq = 0
        self.t = 0

    def message(self) -> bytes:
        return json.dumps(
            {"type": "state", "store": "ticker", "epoch": EPOCH, "version": self.version,
             "state": {"pad": PAD, "seq": self.seq, "t": self.t}},
            separators=(",", ":")).encode()

    def apply(self, data):
        """Applies one client message (bytes or str); returns (state message, ack) or None if it is not a publish."""
        try:
            msg = json.loads(data)
            action = msg["action"]
            if msg.get("type") != "action" or action.get("type") != "publish":
                return None
            payload = action["payload"]
            seq, t = int(payload["seq"]), int(payload["t"])
        except (ValueError, KeyError, TypeError, AttributeError):
            return None
        self.version += 1
        self.seq, self.t = seq, t
        return self.message(), b'{"type":"ack","version":%d}' % self.version


class Counter:
    def __init__(self):
        self.count = 0

    def post(self, body: bytes):
        """Returns (status, JSON body bytes) for one POST body."""
        try:
            action = json.loads(body)
            ok = isinstance(action, dict) and action.get("type") == "increment"
        except ValueError:
            ok = False
        if not ok:
            return 400, b'{"error":{"code":"invalid_action","message":"expected {\\"type\\":\\"increment\\"}"}}'
        self.count += 1
        return 200, json.dumps({"store": "counter", "version": self.count, "state": {"count": self.count}},
                               separators=(",", ":")).encode()
