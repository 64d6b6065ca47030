"""Echo client on wsproto (Debian python3-wsproto), a sans-IO library: this file is its I/O, a
blocking socket, as wsproto's own examples do.

    python-wsproto.py URL     dials URL once (one case) and echoes every message until the close

It offers permessage-deflate (wsproto's PerMessageDeflate extension).
"""
import socket
import sys
from urllib.parse import urlsplit

from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, BytesMessage, CloseConnection, Message, Ping, RejectConnection, Request, TextMessage
from wsproto.extensions import PerMessageDeflate
from wsproto.utilities import LocalProtocolError

url = urlsplit(sys.argv[1])
sock = socket.create_connection((url.hostname, url.port or 80))
ws = WSConnection(ConnectionType.CLIENT)
target = (url.path or "/") + (f"?{url.query}" if url.query else "")
sock.sendall(ws.send(Request(host=url.netloc, target=target, extensions=[PerMessageDeflate()])))
parts = []  # the fragments of the message being received
open_ = True
while open_:
    data = sock.recv(65536)
    if not data:
        break
    ws.receive_data(data)
    for event in ws.events():
        if isinstance(event, (TextMessage, BytesMessage)):
            parts.append(event.data)
            if event.message_finished:
                whole = ("" if isinstance(event, TextMessage) else b"").join(parts)
                parts = []
                sock.sendall(ws.send(Message(data=whole)))
        elif isinstance(event, Ping):
            sock.sendall(ws.send(event.response()))
        elif isinstance(event, CloseConnection):
            try:
                sock.sendall(ws.send(event.response()))
            except LocalProtocolError:
                pass  # wsproto already closed (it failed the connection itself)
            open_ = False
        elif isinstance(event, RejectConnection):
            open_ = False
        elif isinstance(event, AcceptConnection):
            pass
# RFC 6455 §7.1.1: the server closes TCP first; wait a little for it before closing ours.
sock.settimeout(5)
try:
    while sock.recv(65536):
        pass
except OSError:
    pass
sock.close()
