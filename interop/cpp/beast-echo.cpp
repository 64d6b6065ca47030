// Echo client and server on Boost.Beast (header-only, Debian's libboost-dev), for wsgate's interop
// matrix. Built by interop/install.sh beast.
//
//   beast-echo client URL   dial URL (ws://HOST:PORT/PATH?QUERY) once, echo every message until the close
//   beast-echo server PORT  listen on 127.0.0.1:PORT, echo every message of every connection
//                           (a thread per connection), until SIGTERM
//
// Beast's synchronous websocket::stream with its defaults (it validates UTF-8, answers pings, fails
// the connection with the close code of the error it found; outgoing messages auto-fragmented), but
// permessage-deflate enabled in both roles (websocket::permessage_deflate, off by default; its
// defaults: 15 window bits, context takeover), the largest message raised from 16 MiB to 64 MiB, and
// TCP_NODELAY on the socket (below).
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <string>
#include <thread>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

static constexpr std::size_t MAX_MESSAGE = 64 * 1024 * 1024;

static void configure(websocket::stream<tcp::socket>& ws) {
  // TCP_NODELAY: without it each echo of a compressed message took about 40 ms, a delayed ACK's
  // time, so Nagle's algorithm holding the small segment it seems (12.1.10's 1000 messages: 44 s,
  // 4 s with it; each echo is one sendmsg either way). Same verdicts; only the segments' timing.
  ws.next_layer().set_option(tcp::no_delay(true));
  websocket::permessage_deflate pmd;
  pmd.server_enable = true;
  pmd.client_enable = true;
  ws.set_option(pmd);
  ws.read_message_max(MAX_MESSAGE);
}

// Reads and echoes messages until the close (or an error: Beast has then failed the connection).
static void echo(websocket::stream<tcp::socket>& ws) {
  for (;;) {
    beast::flat_buffer buffer;
    beast::error_code ec;
    ws.read(buffer, ec);
    if (ec) return;
    ws.text(ws.got_text());
    ws.write(buffer.data(), ec);
    if (ec) return;
  }
}

static int client(const std::string& url) {
  // ws://HOST:PORT/TARGET: wsgate always gives a host, a port and a target.
  const std::string scheme = "ws://";
  if (url.compare(0, scheme.size(), scheme) != 0) {
    std::cerr << "beast-echo: not a ws:// URL: " << url << "\n";
    return 2;
  }
  std::string rest = url.substr(scheme.size());
  std::size_t slash = rest.find('/');
  std::string authority = slash == std::string::npos ? rest : rest.substr(0, slash);
  std::string target = slash == std::string::npos ? "/" : rest.substr(slash);
  std::size_t colon = authority.rfind(':');
  std::string host = colon == std::string::npos ? authority : authority.substr(0, colon);
  std::string port = colon == std::string::npos ? "80" : authority.substr(colon + 1);
  if (host.size() > 1 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  try {
    net::io_context ioc;
    tcp::resolver resolver{ioc};
    websocket::stream<tcp::socket> ws{ioc};
    net::connect(ws.next_layer(), resolver.resolve(host, port));
    configure(ws);
    ws.handshake(authority, target);
    echo(ws);
  } catch (const std::exception& e) {
    std::cerr << "beast-echo: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

static void session(tcp::socket socket) {
  websocket::stream<tcp::socket> ws{std::move(socket)};
  configure(ws);
  beast::error_code ec;
  ws.accept(ec);
  if (ec) return;
  echo(ws);
}

static int server(const std::string& port) {
  try {
    net::io_context ioc;
    tcp::acceptor acceptor{ioc};
    tcp::endpoint endpoint{net::ip::make_address("127.0.0.1"), static_cast<unsigned short>(std::stoi(port))};
    acceptor.open(endpoint.protocol());
    acceptor.set_option(net::socket_base::reuse_address(true));
    acceptor.bind(endpoint);
    acceptor.listen(net::socket_base::max_listen_connections);
    for (;;) {
      tcp::socket socket{ioc};
      acceptor.accept(socket);
      std::thread(session, std::move(socket)).detach();
    }
  } catch (const std::exception& e) {
    std::cerr << "beast-echo: " << e.what() << "\n";
    return 1;
  }
}

int main(int argc, char** argv) {
  std::signal(SIGTERM, [](int) { std::_Exit(0); });
  std::string mode = argc == 3 ? argv[1] : "";
  if (mode == "client") return client(argv[2]);
  if (mode == "server") return server(argv[2]);
  std::cerr << "usage: beast-echo client URL | server PORT\n";
  return 2;
}
