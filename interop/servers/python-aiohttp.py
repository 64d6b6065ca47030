"""Echo server on Python's `aiohttp` (Debian python3-aiohttp): echoes every message back.

    python-aiohttp.py PORT     listens on 127.0.0.1:PORT until SIGTERM

With WSGATE_CERT_FILE and WSGATE_KEY_FILE (`wsgate run --tls --server ...`), it serves wss://.
"""
import asyncio
import os
import signal
import ssl
import sys

from aiohttp import WSMsgType, web


async def echo(request: web.Request) -> web.WebSocketResponse:
    # max_msg_size: Autobahn's 9.x messages go up to 16 MiB (the default limit is 4 MiB).
    ws = web.WebSocketResponse(max_msg_size=2**26, autoclose=True, autoping=True)
    await ws.prepare(request)
    async for msg in ws:
        if msg.type == WSMsgType.TEXT:
            await ws.send_str(msg.data)
        elif msg.type == WSMsgType.BINARY:
            await ws.send_bytes(msg.data)
        else:
            break
    return ws


async def main(port: int) -> None:
    stop = asyncio.get_running_loop().create_future()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set_result, None)
    tls = None
    if os.environ.get("WSGATE_CERT_FILE"):
        tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        tls.load_cert_chain(os.environ["WSGATE_CERT_FILE"], os.environ["WSGATE_KEY_FILE"])
    app = web.Application()
    # Any path: wsgate asks for /runCase-style paths only in the client role; here it connects to /.
    app.router.add_route("GET", "/{tail:.*}", echo)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port, ssl_context=tls).start()
    try:
        await stop
    finally:
        await runner.cleanup()


asyncio.run(main(int(sys.argv[1])))
