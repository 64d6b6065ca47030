"""Echo client on `websocket-client` that closes with the status the error calls for.

websocket-client leaves the close code to the application (`close()` sends 1000). Its own Autobahn
driver maps its exceptions to 1002/1007; this client does the same, to show that the library's framing
and UTF-8 checks pass and only the application-chosen close code differs (see interop/README.md).
"""
import sys

import websocket

status = websocket.STATUS_NORMAL
ws = websocket.create_connection(sys.argv[1])
try:
    while True:
        opcode, data = ws.recv_data()
        if opcode == websocket.ABNF.OPCODE_TEXT:
            data.decode("utf-8")
        if opcode in (websocket.ABNF.OPCODE_TEXT, websocket.ABNF.OPCODE_BINARY):
            ws.send(data, opcode)
except UnicodeDecodeError:
    status = websocket.STATUS_INVALID_PAYLOAD
except websocket.WebSocketProtocolException:
    status = websocket.STATUS_PROTOCOL_ERROR
except websocket.WebSocketPayloadException:
    status = websocket.STATUS_INVALID_PAYLOAD
except Exception:
    pass
finally:
    ws.close(status)
