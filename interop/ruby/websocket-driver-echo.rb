# Echo client and server on websocket-driver (Ruby, Debian's ruby-websocket-driver: the protocol
# layer under faye-websocket and Action Cable), over plain TCP sockets, for wsgate's interop matrix.
#
#   ruby websocket-driver-echo.rb client URL    dial URL once, echo every text/binary message until the close
#   ruby websocket-driver-echo.rb server PORT   listen on 127.0.0.1:PORT, echo every message (a thread per connection)
require 'socket'
require 'uri'
require 'websocket/driver'

# What the driver writes to: the TCP socket (and, for a client, the URL it dials).
class Wire
  attr_reader :url

  def initialize(io, url = nil)
    @io = io
    @url = url
  end

  def write(data)
    @io.write(data)
  rescue IOError, SystemCallError
    nil
  end
end

# Feeds the socket to the driver until the end of the connection: after the closing handshake a
# server closes the TCP connection at once, a client waits (2 s at most) for the server to close it.
def pump(io, driver, client)
  closed = false
  driver.on(:message) do |e|
    if e.data.is_a?(Array)
      driver.binary(e.data)
    else
      driver.text(e.data)
    end
  end
  driver.on(:close) { closed = true }
  loop do
    break if closed && !client
    break if closed && !io.wait_readable(2)

    driver.parse(io.readpartial(65_536))
  end
rescue EOFError, IOError, SystemCallError
  nil
ensure
  io.close unless io.closed?
end

# One connection of the server (its own driver: a method, so no thread shares a local variable).
def serve(conn)
  driver = WebSocket::Driver.server(Wire.new(conn))
  driver.on(:connect) { driver.start if WebSocket::Driver.websocket?(driver.env) }
  pump(conn, driver, false)
end

usage = "usage: websocket-driver-echo.rb client URL | server PORT\n"
case ARGV[0]
when 'client'
  uri = URI.parse(ARGV[1])
  io = TCPSocket.new(uri.host, uri.port)
  driver = WebSocket::Driver.client(Wire.new(io, ARGV[1]))
  driver.start
  pump(io, driver, true)
when 'server'
  server = TCPServer.new('127.0.0.1', Integer(ARGV[1]))
  trap('TERM') { exit 0 }
  loop do
    io = server.accept
    Thread.new(io) { |conn| serve(conn) }
  end
else
  warn usage
  exit 2
end
