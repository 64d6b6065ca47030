"""Echo server on Python's `tornado` (Debian python3-tornado): echoes every message back.

    python-tornado.py PORT     listens on 127.0.0.1:PORT until SIGTERM

It accepts permessage-deflate (get_compression_options returns {}; tornado's default is None, no
compression), as the client of interop/clients/python-tornado.py offers it.
"""
import asyncio
import signal
import sys

from tornado import web, websocket


class Echo(websocket.WebSocketHandler):
    def get_compression_options(self):
        return {}

    def check_origin(self, origin):
        return True

    async def on_message(self, message):
        try:
            await self.write_message(message, binary=isinstance(message, bytes))
        except websocket.WebSocketClosedError:
            pass


async def main(port: int) -> None:
    stop = asyncio.get_running_loop().create_future()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set_result, None)
    # max_message_size: Autobahn's 9.x messages go up to 16 MiB (the default limit is 10 MiB).
    app = web.Application([(r"/.*", Echo)], websocket_max_message_size=2**26)
    app.listen(port, address="127.0.0.1")
    await stop


asyncio.run(main(int(sys.argv[1])))
