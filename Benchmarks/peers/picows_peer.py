"""picows (Cython) on uvloop: WebSocket /stores/ticker/ws, fan-out as a Python loop of transport.send.

Usage: picows_peer.py PORT. One thread.
"""
import asyncio
import sys

import uvloop
from picows import WSListener, WSMsgType, ws_create_server

from ticker import Ticker

ticker = Ticker()
subscribers = set()


class Subscriber(WSListener):
    def on_ws_connected(self, transport):
        transport.send(WSMsgType.TEXT, ticker.message())
        subscribers.add(transport)

    def on_ws_frame(self, transport, frame):
        if frame.msg_type == WSMsgType.CLOSE:
            transport.send_close(frame.get_close_code())
            transport.disconnect()
            return
        if frame.msg_type != WSMsgType.TEXT:
            return
        result = ticker.apply(frame.get_payload_as_bytes())
        if result is not None:
            state, ack = result
            for t in subscribers:
                t.send(WSMsgType.TEXT, state)
            transport.send(WSMsgType.TEXT, ack)

    def on_ws_disconnected(self, transport):
        subscribers.discard(transport)


def factory(request):
    return Subscriber() if request.path == b"/stores/ticker/ws" or request.path == "/stores/ticker/ws" else None


async def main(port):
    server = await ws_create_server(factory, "127.0.0.1", port)
    print(f"picows listening on {port}", flush=True)
    await server.serve_forever()


uvloop.run(main(int(sys.argv[1])))
