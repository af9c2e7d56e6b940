"""websockets (asyncio API) on uvloop: WebSocket /stores/ticker/ws, fan-out with websockets.broadcast.

Usage: websockets_peer.py PORT. One thread.
"""
import asyncio
import sys

import uvloop
from websockets.asyncio.server import broadcast, serve

from ticker import Ticker

ticker = Ticker()
subscribers = set()


async def handler(ws):
    if ws.request.path != "/stores/ticker/ws":
        await ws.close(1008, "unknown path")
        return
    await ws.send(ticker.message().decode())
    subscribers.add(ws)
    try:
        async for message in ws:
            result = ticker.apply(message)
            if result is not None:
                state, ack = result
                broadcast(subscribers, state.decode())
                await ws.send(ack.decode())
    finally:
        subscribers.discard(ws)


async def main(port):
    async with serve(handler, "127.0.0.1", port, compression=None, max_size=1 << 20, write_limit=1 << 20,
                     ping_interval=None, max_queue=None):
        print(f"websockets listening on {port}", flush=True)
        await asyncio.get_running_loop().create_future()


uvloop.run(main(int(sys.argv[1])))
