"""Echo server on Python's `websockets` (Debian python3-websockets): echoes every message back.

    python-websockets.py PORT     listens on 127.0.0.1:PORT until SIGTERM
"""
import asyncio
import signal
import sys

import websockets


async def echo(ws, path=None):
    try:
        async for message in ws:
            await ws.send(message)
    except websockets.ConnectionClosed:
        pass


async def main(port: int) -> None:
    stop = asyncio.get_running_loop().create_future()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set_result, None)
    # max_size: Autobahn's 9.x messages go up to 16 MiB (the default limit is 1 MiB).
    async with websockets.serve(echo, "127.0.0.1", port, max_size=2**26):
        await stop


asyncio.run(main(int(sys.argv[1])))
