#!/usr/bin/env python3
"""A TCP proxy on loopback that cuts and stalls connections on command: the unreliable network of the client tests.

Usage: python3 Tests/Support/chaos_proxy.py --upstream PORT [--upstream-host HOST]
(stdlib only, Python 3.11). It listens on 127.0.0.1, port 0, prints `listening <port>` and forwards every accepted
connection to the upstream `host:port`, byte for byte, both ways.

Commands, one per line on stdin; each is answered, once in effect, by one line starting with `ok`:

    upstream <port>          new connections go there (a test restarts the server on another port behind a stable
                             address)                                             -> ok upstream <port>
    cut                      reset every open connection now (SO_LINGER 0 on both sockets, so both peers see a
                             TCP RST, not a FIN)                                  -> ok cut <count>
    stall <ms> [up|down]     stop forwarding on every open connection for <ms> milliseconds, both ways, or only
                             client -> upstream (up) or upstream -> client (down: the request arrives, the answer
                             waits)                                               -> ok stall <count> <ms>
    chaos <seed> <min> <max> from now, every <min>..<max> ms (uniform, from random.Random(seed)), cut (3 times in 4)
                             or stall for <min>..<max> ms (1 time in 4) one random open connection
                                                                                  -> ok chaos <seed> <min> <max>
    calm                     stop chaos                                           -> ok calm
    refuse on|off            accept new connections and reset them at once        -> ok refuse on|off
    quit                     reset everything and exit 0 (so does the end of stdin)

Events, one line each as they happen, so a test can count them (<id> numbers connections from 1 in accept order):

    open <id>                accepted and connected upstream
    close <id>               ended normally (both sides finished)
    cut <id>                 reset by `cut` or chaos
    reset <id>               a peer reset its side (or it failed): the proxy reset the other side too
    stall <id> <ms>          stalled by `stall` or chaos
    refused <id>             reset at once (`refuse on`)
    unreachable <id>         the upstream refused the connection; the client's socket was reset
    error <text>             a command that could not be read (the proxy carries on)
"""

import argparse
import asyncio
import random
import socket
import struct
import sys

CHUNK_BYTES = 65536


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def reset(writer):
    """Closes a stream's socket with SO_LINGER 0, so the kernel sends RST and drops unsent bytes."""
    sock = writer.get_extra_info("socket")
    if sock is not None:
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        except OSError:
            pass
    writer.transport.abort()


class Gate:
    """Open, or closed until a moment (a later stall extends it; an earlier one changes nothing)."""

    def __init__(self):
        self.open = asyncio.Event()
        self.open.set()
        self.until = 0.0

    def close_for(self, ms):
        loop = asyncio.get_running_loop()
        until = loop.time() + ms / 1000
        if until <= self.until:
            return
        self.until = until
        self.open.clear()
        loop.call_at(until, self._reopen)

    def _reopen(self):
        if asyncio.get_running_loop().time() >= self.until - 0.0005:
            self.open.set()


class Connection:
    """One proxied connection: two pumps (client -> upstream "up", upstream -> client "down"), each behind a gate
    that a stall closes for a while.

    States: open -> (closed | cut). `closed`: both directions reached EOF (each EOF is passed on as a half-close);
    `cut`: both sockets reset. An error on either socket resets both (the proxy never hides a failure).
    """

    def __init__(self, number, client, upstream):
        self.number = number
        self.client_reader, self.client_writer = client
        self.upstream_reader, self.upstream_writer = upstream
        self.gates = {"up": Gate(), "down": Gate()}
        self.ended = False
        self.tasks = []

    def start(self, on_end):
        loop = asyncio.get_running_loop()
        self.tasks = [loop.create_task(self._pump(self.client_reader, self.upstream_writer, self.gates["up"])),
                      loop.create_task(self._pump(self.upstream_reader, self.client_writer, self.gates["down"]))]
        both = asyncio.gather(*self.tasks, return_exceptions=True)
        both.add_done_callback(lambda _: on_end(self))

    async def _pump(self, reader, writer, gate):
        try:
            while True:
                data = await reader.read(CHUNK_BYTES)
                await gate.open.wait()
                if not data:
                    if writer.can_write_eof():
                        writer.write_eof()
                    return
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            self.cut(event="reset")

    def stall(self, ms, directions=("up", "down")):
        for direction in directions:
            self.gates[direction].close_for(ms)

    def cut(self, event="cut"):
        """Resets both sockets once; `event` names why in the line printed (`cut`, or `reset` when a peer did)."""
        if self.ended:
            return False
        self.ended = True
        reset(self.client_writer)
        reset(self.upstream_writer)
        for task in self.tasks:
            task.cancel()
        say(f"{event} {self.number}")
        return True


class Proxy:
    def __init__(self, upstream_host, upstream_port):
        self.upstream_host = upstream_host
        self.upstream_port = upstream_port
        self.refusing = False
        self.accepted = 0
        self.open = {}
        self.chaos_task = None
        self.done = asyncio.Event()

    async def accept(self, reader, writer):
        self.accepted += 1
        number = self.accepted
        writer.transport.set_write_buffer_limits(high=CHUNK_BYTES)
        if self.refusing:
            reset(writer)
            say(f"refused {number}")
            return
        try:
            upstream = await asyncio.open_connection(self.upstream_host, self.upstream_port)
        except OSError:
            reset(writer)
            say(f"unreachable {number}")
            return
        for stream_writer in (writer, upstream[1]):
            sock = stream_writer.get_extra_info("socket")
            if sock is not None:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        connection = Connection(number, (reader, writer), upstream)
        self.open[number] = connection
        say(f"open {number}")
        connection.start(self.ended)

    def ended(self, connection):
        self.open.pop(connection.number, None)
        if not connection.ended:
            connection.ended = True
            connection.client_writer.close()
            connection.upstream_writer.close()
            say(f"close {connection.number}")

    def cut_all(self):
        count = 0
        for connection in list(self.open.values()):
            count += connection.cut()
            self.open.pop(connection.number, None)
        return count

    def stall_all(self, ms, directions):
        for connection in list(self.open.values()):
            connection.stall(ms, directions)
            say(f"stall {connection.number} {ms}")
        return len(self.open)

    async def chaos(self, seed, low, high):
        rng = random.Random(seed)
        while True:
            await asyncio.sleep(rng.uniform(low, high) / 1000)
            numbers = sorted(self.open)
            if not numbers:
                continue
            connection = self.open[rng.choice(numbers)]
            if rng.random() < 0.75:
                self.open.pop(connection.number, None)
                connection.cut()
            else:
                ms = round(rng.uniform(low, high))
                connection.stall(ms)
                say(f"stall {connection.number} {ms}")

    def calm(self):
        if self.chaos_task is not None:
            self.chaos_task.cancel()
            self.chaos_task = None

    def command(self, line):
        words = line.split()
        if not words:
            return
        name, arguments = words[0], words[1:]
        try:
            if name == "upstream" and len(arguments) == 1:
                self.upstream_port = int(arguments[0])
                say(f"ok upstream {self.upstream_port}")
            elif name == "cut" and not arguments:
                say(f"ok cut {self.cut_all()}")
            elif name == "stall" and len(arguments) in (1, 2) and arguments[1:] in ([], ["up"], ["down"]):
                ms = int(arguments[0])
                directions = arguments[1:] or ["up", "down"]
                say(f"ok stall {self.stall_all(ms, directions)} {ms}")
            elif name == "chaos" and len(arguments) == 3:
                seed, low, high = (int(value) for value in arguments)
                if not 0 < low <= high:
                    raise ValueError("chaos needs 0 < min <= max")
                self.calm()
                self.chaos_task = asyncio.get_running_loop().create_task(self.chaos(seed, low, high))
                say(f"ok chaos {seed} {low} {high}")
            elif name == "calm" and not arguments:
                self.calm()
                say("ok calm")
            elif name == "refuse" and arguments in (["on"], ["off"]):
                self.refusing = arguments[0] == "on"
                say(f"ok refuse {arguments[0]}")
            elif name == "quit" and not arguments:
                self.done.set()
            else:
                say(f"error unknown command {line.strip()!r}: see the usage in Tests/Support/chaos_proxy.py")
        except ValueError as problem:
            say(f"error {line.strip()!r}: {problem}")


async def read_commands(proxy):
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while not proxy.done.is_set():
        line = await reader.readline()
        if not line:
            break
        proxy.command(line.decode(errors="replace"))
    proxy.done.set()


async def main():
    parser = argparse.ArgumentParser(description="TCP proxy on 127.0.0.1 that cuts and stalls connections")
    parser.add_argument("--upstream", type=int, required=True, help="upstream port")
    parser.add_argument("--upstream-host", default="127.0.0.1")
    options = parser.parse_args()
    proxy = Proxy(options.upstream_host, options.upstream)
    server = await asyncio.start_server(proxy.accept, "127.0.0.1", 0)
    say(f"listening {server.sockets[0].getsockname()[1]}")
    commands = asyncio.get_running_loop().create_task(read_commands(proxy))
    await proxy.done.wait()
    proxy.calm()
    server.close()
    proxy.cut_all()
    commands.cancel()


if __name__ == "__main__":
    asyncio.run(main())
