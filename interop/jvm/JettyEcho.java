// Echo client and server on Jetty 9's WebSocket API (Debian's libjetty9-java, libjetty9-extra-java),
// for wsgate's interop matrix. Built by interop/install.sh jetty (javac into the cache dir).
//
//   java -cp ... JettyEcho client URL   dial URL once, echo every text/binary message until the close
//   java -cp ... JettyEcho server PORT  listen on 127.0.0.1:PORT, echo every message of every connection
//
// Jetty's defaults (the server accepts permessage-deflate, the client offers no extension) but the
// largest message, raised from 64 KiB to 64 MiB (wsgate's cases carry messages of up to 16 MiB).
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.api.WebSocketPolicy;
import org.eclipse.jetty.websocket.api.annotations.OnWebSocketError;
import org.eclipse.jetty.websocket.api.annotations.OnWebSocketMessage;
import org.eclipse.jetty.websocket.api.annotations.WebSocket;
import org.eclipse.jetty.websocket.client.WebSocketClient;
import org.eclipse.jetty.websocket.common.WebSocketSession;
import org.eclipse.jetty.websocket.common.WebSocketSessionListener;
import org.eclipse.jetty.websocket.server.WebSocketHandler;
import org.eclipse.jetty.websocket.servlet.WebSocketServletFactory;

public final class JettyEcho {
  static final int MAX_MESSAGE = 64 << 20;

  /** Echoes every message with its type. */
  @WebSocket
  public static class Echo {

    @OnWebSocketMessage
    public void onText(Session session, String message) throws IOException {
      session.getRemote().sendString(message);
    }

    @OnWebSocketMessage
    public void onBinary(Session session, byte[] payload, int offset, int length) throws IOException {
      session.getRemote().sendBytes(ByteBuffer.wrap(payload, offset, length));
    }

    @OnWebSocketError
    public void onError(Throwable cause) {}
  }

  static void raise(WebSocketPolicy policy) {
    policy.setMaxTextMessageSize(MAX_MESSAGE);
    policy.setMaxBinaryMessageSize(MAX_MESSAGE);
  }

  public static void main(String[] args) throws Exception {
    String mode = args.length == 2 ? args[0] : "";
    if (mode.equals("client")) {
      WebSocketClient client = new WebSocketClient();
      raise(client.getPolicy());
      client.start();
      // The session ends once its closing handshake is done and its connection closed (onClose comes
      // before the close frame is answered: stopping the client there would answer 1001 instead).
      CountDownLatch ended = new CountDownLatch(1);
      client.addSessionListener(
          new WebSocketSessionListener() {
            @Override
            public void onSessionClosed(WebSocketSession session) {
              ended.countDown();
            }
          });
      try {
        client.connect(new Echo(), URI.create(args[1])).get();
        ended.await();
      } catch (Exception e) {
        System.err.println("JettyEcho: " + e);
      } finally {
        client.stop();
      }
    } else if (mode.equals("server")) {
      Server server = new Server(new InetSocketAddress("127.0.0.1", Integer.parseInt(args[1])));
      server.setHandler(
          new WebSocketHandler() {
            @Override
            public void configure(WebSocketServletFactory factory) {
              raise(factory.getPolicy());
              factory.register(Echo.class);
            }
          });
      server.start();
      server.join();
    } else {
      System.err.println("usage: JettyEcho client URL | server PORT");
      System.exit(2);
    }
  }
}
