#!/usr/bin/env python3
"""A TCP relay on loopback that adds network latency, for benchmarks against a local server.

    latency-relay.py UPSTREAM_PORT DELAY_MS

Listens on 127.0.0.1 (a free port, printed as the first line of stdout) and relays every
connection to 127.0.0.1:UPSTREAM_PORT, bytes unchanged (TCP, not HTTP: signatures and Host
headers pass as they are). Each chunk read in either direction is written DELAY_MS after it
arrived, in order, so a request and its answer take 2 x DELAY_MS more, as over a network with
that one-way delay (what `tc netem delay` does, which this machine lacks); there is no loss and
no bandwidth limit. An end of stream is passed on after the same delay.
"""
import asyncio
import sys

upstream_port = int(sys.argv[1])
delay = float(sys.argv[2]) / 1000


async def relay(reader, writer):
    """Copies reader to writer, each chunk `delay` seconds after it was read."""
    loop = asyncio.get_running_loop()
    queue = asyncio.Queue()

    async def deliver():
        while True:
            due, data = await queue.get()
            wait = due - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            if not data:
                break
            writer.write(data)
            await writer.drain()
        if writer.can_write_eof():
            writer.write_eof()

    delivering = asyncio.create_task(deliver())
    try:
        while True:
            data = await reader.read(1 << 16)
            queue.put_nowait((loop.time() + delay, data))
            if not data:
                break
        await delivering
    except (ConnectionError, OSError):
        delivering.cancel()


async def serve(client_reader, client_writer):
    try:
        upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", upstream_port)
    except OSError:
        client_writer.close()
        return
    await asyncio.gather(relay(client_reader, upstream_writer), relay(upstream_reader, client_writer),
                         return_exceptions=True)
    for writer in (client_writer, upstream_writer):
        writer.close()


async def main():
    server = await asyncio.start_server(serve, "127.0.0.1", 0, backlog=512)
    print(server.sockets[0].getsockname()[1], flush=True)
    async with server:
        await server.serve_forever()


asyncio.run(main())
