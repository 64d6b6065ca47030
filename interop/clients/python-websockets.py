"""Echo client on Python's `websockets` (Debian python3-websockets): echoes every message back."""
import asyncio
import sys

import websockets


async def main(url: str) -> None:
    try:
        async with websockets.connect(url, max_size=2**26) as ws:
            async for message in ws:
                await ws.send(message)
    except (websockets.ConnectionClosed, websockets.InvalidHandshake, OSError):
        pass


asyncio.run(main(sys.argv[1]))
