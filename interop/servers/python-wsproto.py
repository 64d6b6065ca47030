"""Echo server on wsproto (Debian python3-wsproto), a sans-IO library: this file is its I/O, a
blocking socket and a thread per connection, as wsproto's own examples do.

    python-wsproto.py PORT     listens on 127.0.0.1:PORT until SIGTERM

It accepts permessage-deflate when offered (wsproto's PerMessageDeflate extension).
"""
import signal
import socket
import sys
import threading

from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, BytesMessage, CloseConnection, Message, Ping, Request, TextMessage
from wsproto.extensions import PerMessageDeflate
from wsproto.utilities import LocalProtocolError, RemoteProtocolError


def serve(sock: socket.socket) -> None:
    ws = WSConnection(ConnectionType.SERVER)
    parts = []  # the fragments of the message being received
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                return
            ws.receive_data(data)
            for event in ws.events():
                if isinstance(event, Request):
                    sock.sendall(ws.send(AcceptConnection(extensions=[PerMessageDeflate()])))
                elif isinstance(event, (TextMessage, BytesMessage)):
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
                    return  # the server closes TCP first (RFC 6455 §7.1.1)
    except (OSError, RemoteProtocolError):
        return  # a handshake wsproto refuses: it has nothing to answer with but closing
    finally:
        sock.close()


def main(port: int) -> None:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    listener = socket.create_server(("127.0.0.1", port))
    while True:
        conn, _ = listener.accept()
        threading.Thread(target=serve, args=(conn,), daemon=True).start()


main(int(sys.argv[1]))
