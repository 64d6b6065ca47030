"""Echo client on Python's `tornado` (Debian python3-tornado), offering permessage-deflate."""
import sys

from tornado import ioloop, websocket


async def main(url: str) -> None:
    try:
        ws = await websocket.websocket_connect(url, compression_options={}, max_message_size=2**26)
    except Exception:
        return
    while True:
        message = await ws.read_message()
        if message is None:
            break
        await ws.write_message(message, binary=isinstance(message, bytes))


ioloop.IOLoop.current().run_sync(lambda: main(sys.argv[1]), timeout=120)
