"""Echo client on Python's `aiohttp` (Debian python3-aiohttp): echoes every message back."""
import asyncio
import sys

import aiohttp


async def main(url: str) -> None:
    async with aiohttp.ClientSession() as session:
        try:
            async with session.ws_connect(url, max_msg_size=2**26, autoclose=True, autoping=True) as ws:
                async for msg in ws:
                    if msg.type == aiohttp.WSMsgType.TEXT:
                        await ws.send_str(msg.data)
                    elif msg.type == aiohttp.WSMsgType.BINARY:
                        await ws.send_bytes(msg.data)
                    else:
                        break
        except (aiohttp.ClientError, OSError):
            pass


asyncio.run(main(sys.argv[1]))
