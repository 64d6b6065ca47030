"""Echo client on Autobahn|Python (Debian python3-autobahn), as Autobahn's own testee clients are.

    python-autobahn.py URL     dials URL once (one case) and echoes every message until the close

It offers permessage-deflate and accepts what the server answers, as Autobahn's testee client does.
"""
import asyncio
import sys

from autobahn.asyncio.websocket import WebSocketClientFactory, WebSocketClientProtocol
from autobahn.websocket.compress import PerMessageDeflateOffer, PerMessageDeflateResponse, PerMessageDeflateResponseAccept


class Echo(WebSocketClientProtocol):
    def onMessage(self, payload, isBinary):
        self.sendMessage(payload, isBinary)

    def onClose(self, wasClean, code, reason):
        if not self.factory.done.done():
            self.factory.done.set_result(None)


def accept(response):
    if isinstance(response, PerMessageDeflateResponse):
        return PerMessageDeflateResponseAccept(response)
    return None


async def main(url: str) -> None:
    factory = WebSocketClientFactory(url)
    factory.protocol = Echo
    # No message or frame limit (0): Autobahn's 9.x cases send up to 16 MiB.
    factory.setProtocolOptions(
        maxFramePayloadSize=0,
        maxMessagePayloadSize=0,
        perMessageCompressionOffers=[PerMessageDeflateOffer()],
        perMessageCompressionAccept=accept,
    )
    factory.done = asyncio.get_running_loop().create_future()
    try:
        await asyncio.get_running_loop().create_connection(factory, factory.host, factory.port, ssl=factory.isSecure or None)
    except OSError:
        return
    await factory.done


asyncio.run(main(sys.argv[1]))
