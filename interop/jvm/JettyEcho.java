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
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
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

    /** The session that failed, when connect() failed with it (it then never counts as opened). */
    static final AtomicReference<Session> failed = new AtomicReference<>();

    @OnWebSocketError
    public void onError(Session session, Throwable cause) {
      failed.compareAndSet(null, session);
    }
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
      // The session ends once its closing handshake is done and its connection closed. onSessionClosed
      // can come before Jetty's own answer to a close frame is written (a 1002 to an invalid close
      // code, say; connect() fails with it when the frame comes with the handshake's answer, and the
      // session is then onError's): stopping the client then would send 1001 "Shutdown" in its
      // place. So the client stops once the connection itself is closed (the server closes it after
      // the closing handshake), or after 5 s. (The session's own isOpen() is false as soon as its
      // closing starts: its endpoint tells.)
      AtomicReference<WebSocketSession> opened = new AtomicReference<>();
      CountDownLatch ended = new CountDownLatch(1);
      client.addSessionListener(
          new WebSocketSessionListener() {
            @Override
            public void onSessionOpened(WebSocketSession session) {
              opened.set(session);
            }

            @Override
            public void onSessionClosed(WebSocketSession session) {
              opened.compareAndSet(null, session);
              ended.countDown();
            }
          });
      try {
        client.connect(new Echo(), URI.create(args[1])).get();
        ended.await();
      } catch (Exception e) {
        System.err.println("JettyEcho: " + e);
      } finally {
        Session session = opened.get();
        // connect() failed: its session comes to onError, perhaps a moment later.
        for (int i = 0; session == null && i < 500; i++) {
          session = Echo.failed.get();
          if (session == null) Thread.sleep(2);
        }
        if (session instanceof WebSocketSession) {
          EndPoint endPoint = ((Connection) ((WebSocketSession) session).getConnection()).getEndPoint();
          long deadline = System.nanoTime() + 5_000_000_000L;
          while (endPoint.isOpen() && System.nanoTime() < deadline) Thread.sleep(2);
        }
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
