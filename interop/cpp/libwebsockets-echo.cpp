// Echo client and server on libwebsockets (Debian's libwebsockets-dev), for wsgate's interop matrix.
// Built by interop/install.sh libwebsockets (g++ ... -lwebsockets).
//
//   libwebsockets-echo client URL   dial URL once, echo every text/binary message until the close
//   libwebsockets-echo server PORT  listen on 127.0.0.1:PORT, echo every message of every connection
//
// The library's defaults (no extensions, UTF-8 of text messages not validated: that is the
// LWS_SERVER_OPTION_VALIDATE_UTF8 option, off unless asked), its logging off. A message is gathered
// from the fragments lws delivers and written back whole, as one frame, when the socket is writable.
#include <libwebsockets.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <iostream>
#include <string>
#include <vector>

namespace {

struct Session {
  std::string partial;
  bool binary = false;
  std::deque<std::pair<bool, std::string>> out;  // (binary, payload) waiting for a writable socket
};

bool done = false;

void receive(lws* wsi, Session* s, const void* in, size_t len) {
  if (lws_is_first_fragment(wsi)) {
    s->partial.clear();
    s->binary = lws_frame_is_binary(wsi) != 0;
  }
  s->partial.append(static_cast<const char*>(in), len);
  if (lws_is_final_fragment(wsi) && lws_remaining_packet_payload(wsi) == 0) {
    s->out.emplace_back(s->binary, std::move(s->partial));
    s->partial.clear();
    lws_callback_on_writable(wsi);
  }
}

int writable(lws* wsi, Session* s) {
  if (s->out.empty()) return 0;
  auto& [binary, payload] = s->out.front();
  std::vector<unsigned char> buf(LWS_PRE + payload.size());
  std::memcpy(buf.data() + LWS_PRE, payload.data(), payload.size());
  int n = lws_write(wsi, buf.data() + LWS_PRE, payload.size(), binary ? LWS_WRITE_BINARY : LWS_WRITE_TEXT);
  s->out.pop_front();
  if (n < static_cast<int>(payload.size())) return -1;
  if (!s->out.empty()) lws_callback_on_writable(wsi);
  return 0;
}

int callback(lws* wsi, enum lws_callback_reasons reason, void* user, void* in, size_t len) {
  auto* s = static_cast<Session*>(user);
  switch (reason) {
    case LWS_CALLBACK_ESTABLISHED:
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
      new (s) Session();
      break;
    case LWS_CALLBACK_RECEIVE:
    case LWS_CALLBACK_CLIENT_RECEIVE:
      receive(wsi, s, in, len);
      break;
    case LWS_CALLBACK_SERVER_WRITEABLE:
    case LWS_CALLBACK_CLIENT_WRITEABLE:
      return writable(wsi, s);
    case LWS_CALLBACK_CLOSED:
      s->~Session();
      break;
    case LWS_CALLBACK_CLIENT_CLOSED:
      s->~Session();
      done = true;
      break;
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
      std::cerr << "libwebsockets-echo: " << (in ? static_cast<const char*>(in) : "connection error") << "\n";
      done = true;
      break;
    default:
      break;
  }
  return 0;
}

const lws_protocols protocols[] = {
    {"echo", callback, sizeof(Session), 65536, 0, nullptr, 0},
    {nullptr, nullptr, 0, 0, 0, nullptr, 0},
};

}  // namespace

int main(int argc, char** argv) {
  std::signal(SIGTERM, [](int) { std::_Exit(0); });
  std::string mode = argc == 3 ? argv[1] : "";
  if (mode != "client" && mode != "server") {
    std::cerr << "usage: libwebsockets-echo client URL | server PORT\n";
    return 2;
  }
  lws_set_log_level(0, nullptr);
  lws_context_creation_info info;
  std::memset(&info, 0, sizeof info);
  info.protocols = protocols;
  info.gid = -1;
  info.uid = -1;
  if (mode == "server") {
    info.port = std::atoi(argv[2]);
    info.iface = "127.0.0.1";
  } else {
    info.port = CONTEXT_PORT_NO_LISTEN;
  }
  lws_context* context = lws_create_context(&info);
  if (!context) {
    std::cerr << "libwebsockets-echo: cannot create the context\n";
    return 1;
  }
  if (mode == "client") {
    std::string url = argv[2];
    const char *scheme, *address, *path;
    int port;
    if (lws_parse_uri(url.data(), &scheme, &address, &port, &path)) {
      std::cerr << "libwebsockets-echo: bad URL\n";
      return 1;
    }
    std::string fullPath = std::string("/") + path;  // lws_parse_uri drops the leading '/'
    lws_client_connect_info cc;
    std::memset(&cc, 0, sizeof cc);
    cc.context = context;
    cc.address = address;
    cc.port = port;
    cc.path = fullPath.c_str();
    cc.host = address;
    cc.origin = address;
    cc.protocol = nullptr;
    cc.local_protocol_name = "echo";
    if (!lws_client_connect_via_info(&cc)) done = true;
  }
  while (!done && lws_service(context, 0) >= 0) {
  }
  lws_context_destroy(context);
  return 0;
}
