"""Echo server on Autobahn|Python (Debian python3-autobahn), as Autobahn's own testee servers are.

    python-autobahn.py PORT     listens on 127.0.0.1:PORT until SIGTERM

It accepts permessage-deflate when offered, as Autobahn's testee server does.
"""
import asyncio
import signal
import sys

from autobahn.asyncio.websocket import WebSocketServerFactory, WebSocketServerProtocol
from autobahn.websocket.compress import PerMessageDeflateOffer, PerMessageDeflateOfferAccept


class Echo(WebSocketServerProtocol):
    def onMessage(self, payload, isBinary):
        self.sendMessage(payload, isBinary)


def accept(offers):
    for offer in offers:
        if isinstance(offer, PerMessageDeflateOffer):
            return PerMessageDeflateOfferAccept(offer)
    return None


async def main(port: int) -> None:
    factory = WebSocketServerFactory(f"ws://127.0.0.1:{port}")
    factory.protocol = Echo
    factory.setProtocolOptions(maxFramePayloadSize=0, maxMessagePayloadSize=0, perMessageCompressionAccept=accept)
    stop = asyncio.get_running_loop().create_future()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set_result, None)
    server = await asyncio.get_running_loop().create_server(factory, "127.0.0.1", port)
    async with server:
        await stop


asyncio.run(main(int(sys.argv[1])))
