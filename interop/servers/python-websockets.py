"""Echo server on Python's `websockets` (Debian python3-websockets): echoes every message back.

    python-websockets.py PORT     listens on 127.0.0.1:PORT until SIGTERM

With WSGATE_CERT_FILE and WSGATE_KEY_FILE (`wsgate run --tls --server ...`), it serves wss://.
"""
import asyncio
import os
import signal
import ssl
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
    tls = None
    if os.environ.get("WSGATE_CERT_FILE"):
        tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        tls.load_cert_chain(os.environ["WSGATE_CERT_FILE"], os.environ["WSGATE_KEY_FILE"])
    # max_size: Autobahn's 9.x messages go up to 16 MiB (the default limit is 1 MiB).
    async with websockets.serve(echo, "127.0.0.1", port, max_size=2**26, ssl=tls):
        await stop


asyncio.run(main(int(sys.argv[1])))
