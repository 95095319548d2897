package io.profilestore.testing;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * TLS in front of one of the stack's plain services, the way a server with TLS on would speak it: the client's
 * TLS settings meet a real handshake (a certificate, an authority, a host name) and what passes reaches the real
 * service. For PostgreSQL the proxy first answers the client's SSLRequest with 'S', as PostgreSQL does.
 */
public final class TlsProxy implements AutoCloseable {

    /** How the client starts TLS: at once (HTTPS, AMQPS, CQL), or after PostgreSQL's SSLRequest. */
    public enum Start { DIRECT, POSTGRES_SSL_REQUEST }

    private static final int POSTGRES_SSL_REQUEST_CODE = 80877103;

    private final ServerSocket server;
    private final SSLContext context;
    private final InetSocketAddress target;
    private final Start start;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger handshakes = new AtomicInteger();

    private TlsProxy(SSLContext context, InetSocketAddress target, Start start) throws IOException {
        this.context = context;
        this.target = target;
        this.start = start;
        // every address: a client may come by a name (localhost) or by an address of 127/8 the certificate lacks
        this.server = new ServerSocket(FreePorts.next(), 50);
        daemon("tls-proxy-accept-" + port(), this::acceptAll);
    }

    public static TlsProxy start(SSLContext context, InetSocketAddress target, Start start) throws IOException {
        return new TlsProxy(context, target, start);
    }

    private static void daemon(String name, Runnable work) {
        var thread = new Thread(work, name);
        thread.setDaemon(true);
        thread.start();
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Handshakes that completed: each one a client that trusted the certificate. */
    public int handshakes() {
        return handshakes.get();
    }

    private void acceptAll() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                open.add(client);
                daemon("tls-proxy-" + port(), () -> serve(client));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(Socket raw) {
        try (raw; Socket upstream = new Socket()) {
            if (start == Start.POSTGRES_SSL_REQUEST && !answerSslRequest(raw)) {
                return;
            }
            var tls = (SSLSocket) context.getSocketFactory().createSocket(raw, null, raw.getPort(), true);
            tls.setUseClientMode(false);
            tls.startHandshake();
            handshakes.incrementAndGet();
            open.add(upstream);
            upstream.connect(target, 5_000);
            daemon("tls-proxy-" + port(), () -> pump(upstream, tls));
            pump(tls, upstream);
        } catch (IOException e) {
            // a refused handshake or a closed connection: the client sees it as such
        } finally {
            open.remove(raw);
        }
    }

    private static boolean answerSslRequest(Socket raw) throws IOException {
        var in = new DataInputStream(raw.getInputStream());
        byte[] request = new byte[8];
        in.readFully(request);
        var buffer = ByteBuffer.wrap(request);
        if (buffer.getInt() != 8 || buffer.getInt() != POSTGRES_SSL_REQUEST_CODE) {
            return false;
        }
        raw.getOutputStream().write('S');
        raw.getOutputStream().flush();
        return true;
    }

    private static void pump(Socket from, Socket to) {
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            in.transferTo(out);
        } catch (IOException e) {
            // one side closed
        } finally {
            try {
                from.close();
                to.close();
            } catch (IOException ignored) {
                // closing
            }
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (var socket : open) {
            socket.close();
        }
    }
}
