"""uWebSockets via socketify: POST /stores/counter/actions and WebSocket /stores/ticker/ws (uWS pub/sub).

Usage: socketify_peer.py PORT. Handlers are Python; the fan-out (app.publish) runs in uWS's C++. One thread.
"""
import sys

from socketify import App, OpCode

from ticker import Counter, Ticker

port = int(sys.argv[1])
app = App()
ticker, counter = Ticker(), Counter()


def post_action(res, req):
    chunks = []

    def on_data(res, chunk, is_end):
        if chunk is not None:
            chunks.append(bytes(chunk))
        if is_end:
            status, body = counter.post(b"".join(chunks))
            res.write_status(status).write_header("Content-Type", "application/json").end(body)

    res.on_data(on_data)


def ws_open(ws):
    ws.send(ticker.message(), OpCode.TEXT)
    ws.subscribe("ticker")


def ws_message(ws, message, opcode):
    result = ticker.apply(message)
    if result is not None:
        state, ack = result
        app.publish("ticker", state, OpCode.TEXT)
        ws.send(ack, OpCode.TEXT)


app.post("/stores/counter/actions", post_action)
app.ws("/stores/ticker/ws", {"open": ws_open, "message": ws_message, "max_backpressure": 1 << 20,
                             "max_payload_length": 1 << 20, "idle_timeout": 120})
app.listen(port, lambda config: print(f"socketify listening on {port}", flush=True))
app.run()
