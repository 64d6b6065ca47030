// Echo client and server on WebSocket++ (Debian's libwebsocketpp-dev, header-only, over Boost.Asio
// from libboost-dev), for wsgate's interop matrix. Built by interop/install.sh websocketpp.
//
//   websocketpp-echo client URL   dial URL once, echo every text/binary message until the close
//   websocketpp-echo server PORT  listen on 127.0.0.1:PORT, echo every message of every connection
//
// The library's asio_no_tls configs with their defaults (no permessage-deflate), logging off.
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <string>

#include <websocketpp/client.hpp>
#include <websocketpp/config/asio_no_tls.hpp>
#include <websocketpp/config/asio_no_tls_client.hpp>
#include <websocketpp/server.hpp>

using websocketpp::connection_hdl;

template <typename Endpoint>
void quiet(Endpoint& e) {
  e.clear_access_channels(websocketpp::log::alevel::all);
  e.clear_error_channels(websocketpp::log::elevel::all);
}

template <typename Endpoint, typename Message>
void echo(Endpoint* e, connection_hdl hdl, Message msg) {
  websocketpp::lib::error_code ec;
  e->send(hdl, msg->get_payload(), msg->get_opcode(), ec);
}

static int client(const std::string& url) {
  using Client = websocketpp::client<websocketpp::config::asio_client>;
  Client c;
  quiet(c);
  c.init_asio();
  c.set_message_handler([&c](connection_hdl hdl, Client::message_ptr msg) { echo(&c, hdl, msg); });
  websocketpp::lib::error_code ec;
  Client::connection_ptr con = c.get_connection(url, ec);
  if (ec) {
    std::cerr << "websocketpp-echo: " << ec.message() << "\n";
    return 1;
  }
  c.connect(con);
  c.run();
  return 0;
}

static int server(const std::string& port) {
  using Server = websocketpp::server<websocketpp::config::asio>;
  Server s;
  quiet(s);
  s.init_asio();
  s.set_reuse_addr(true);
  s.set_message_handler([&s](connection_hdl hdl, Server::message_ptr msg) { echo(&s, hdl, msg); });
  websocketpp::lib::error_code ec;
  s.listen("127.0.0.1", port, ec);
  if (ec) {
    std::cerr << "websocketpp-echo: listen: " << ec.message() << "\n";
    return 1;
  }
  s.start_accept();
  s.run();
  return 0;
}

int main(int argc, char** argv) {
  std::signal(SIGTERM, [](int) { std::_Exit(0); });
  std::string mode = argc == 3 ? argv[1] : "";
  if (mode == "client") return client(argv[2]);
  if (mode == "server") return server(argv[2]);
  std::cerr << "usage: websocketpp-echo client URL | server PORT\n";
  return 2;
}
