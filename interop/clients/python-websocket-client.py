"""Echo client on Python's `websocket-client` (Debian python3-websocket): echoes every message back."""
import sys

import websocket


def on_message(ws, message):
    opcode = websocket.ABNF.OPCODE_BINARY if isinstance(message, bytes) else websocket.ABNF.OPCODE_TEXT
    ws.send(message, opcode=opcode)


websocket.WebSocketApp(sys.argv[1], on_message=on_message).run_forever()
